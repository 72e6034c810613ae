"""Many threads at once: tools, hooks, middleware and media deliveries for many sessions.

The thread switch interval is cut to a microsecond so threads interleave inside the
kit's code. Every answer must be the caller's own, every log record must carry only the
context of the call that made it, and every suppression marker must be consumed exactly
once by its own session: nothing lost, nothing crossed.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from kit_core import ToolSpec, declaration_of, int_arg, str_arg, tool
from kit_lifecycle import MiddlewareKind, hook, middleware
from kit_media import (
    MediaPayload,
    clear_media_delivery_state,
    deliver_media,
    transform_media_delivery_output,
)
from kit_media._markers import MARKERS


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


@pytest.fixture(autouse=True)
def interleaved() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def run_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """``work(index)`` on ``count`` threads started together; their results, in order."""
    start = threading.Barrier(count)

    def started(index: int) -> Any:
        start.wait()
        return work(index)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return [f.result() for f in [pool.submit(started, i) for i in range(count)]]


@tool(
    toolset="hardening",
    params={"caller": str_arg("Caller", required=True), "n": int_arg("Call number", minimum=0)},
)
def shared_tool(args: dict[str, Any], **kwargs: Any) -> object:
    """Answers with what it was given, or fails quoting it."""
    if args["n"] % 7 == 3:
        raise RuntimeError(f"planned failure for {args['caller']}/{args['n']}")
    return {"caller": args["caller"], "n": args["n"], "session": kwargs.get("session_id")}


@tool(toolset="hardening", params={"caller": str_arg("Caller", required=True)})
async def shared_async_tool(args: dict[str, Any], **kwargs: Any) -> object:
    """The async twin."""
    await asyncio.sleep(0)
    return {"caller": args["caller"], "session": kwargs.get("session_id")}


SESSION = re.compile(r"s-(\d+)-\d+")


def test_threads_calling_the_same_tools_get_their_own_answers_and_log_lines(
    budget: Any, capture: Any, tally: Any
) -> None:
    threads: dict[int, int] = {}

    def work(index: int) -> int:
        threads[threading.get_ident()] = index
        caller = f"caller-{index}"
        checked = 0
        for n in range(budget.calls_per_thread):
            session = f"s-{index}-{n}"
            answer = json.loads(shared_tool({"caller": caller, "n": n}, session_id=session))
            if n % 7 == 3:
                assert answer["error"] == f"shared_tool failed: planned failure for {caller}/{n}"
            else:
                assert answer["data"] == {"caller": caller, "n": n, "session": session}
            refused = json.loads(shared_tool({"n": n}, session_id=session))
            assert refused["error_code"] == "missing_argument"
            answer = json.loads(
                asyncio.run(shared_async_tool({"caller": caller}, session_id=session))
            )
            assert answer["data"] == {"caller": caller, "session": session}
            checked += 3
        return checked

    with capture(spec_of(shared_tool).module) as logs:
        calls = sum(run_threads(budget.threads, work))
    crossed = 0
    for record in logs.records:
        text = record.getMessage()
        for found in SESSION.finditer(text):
            crossed += int(found.group(1)) != threads[record.thread or 0]
        for found in re.finditer(r"caller-(\d+)", text):
            crossed += int(found.group(1)) != threads[record.thread or 0]
    assert crossed == 0
    assert len(logs.records) >= calls  # a DEBUG line at least per call
    with tally.lock:
        tally.threads = max(tally.threads, budget.threads)
        tally.calls["tool calls"] += calls
        tally.lost["crossed tool log context"] += crossed


@hook("pre_llm_call")
def concurrent_hook(**kwargs: Any) -> dict[str, Any]:
    return {"context": kwargs["session_id"]}


@middleware(MiddlewareKind.TOOL_EXECUTION)
def concurrent_middleware(**kwargs: Any) -> Any:
    return kwargs["next_call"](kwargs["args"])


def test_threads_calling_hooks_and_middleware_keep_their_context(
    budget: Any, capture: Any, tally: Any
) -> None:
    threads: dict[int, int] = {}

    def work(index: int) -> int:
        threads[threading.get_ident()] = index
        for n in range(budget.calls_per_thread):
            session = f"s-{index}-{n}"
            assert concurrent_hook(session_id=session, task_id=session) == {"context": session}
            result = concurrent_middleware(
                args={"n": n}, session_id=session, next_call=lambda args: (index, args["n"])
            )
            assert result == (index, n)
        return 2 * budget.calls_per_thread

    with capture(concurrent_hook.__module__) as logs:
        calls = sum(run_threads(budget.threads, work))
    crossed = sum(
        int(found.group(1)) != threads[record.thread or 0]
        for record in logs.records
        for found in SESSION.finditer(record.getMessage())
    )
    assert crossed == 0
    with tally.lock:
        tally.calls["hook and middleware calls"] += calls
        tally.lost["crossed hook log context"] += crossed


def test_media_for_many_sessions_at_once_suppresses_each_reply_exactly_once(
    budget: Any, capture: Any, tally: Any, media_host: Any, media_file: Path
) -> None:
    payload = MediaPayload(media_file, caption="concurrent")
    media_host.reply = lambda args: json.dumps({"success": True, "message_id": "1"})
    media_host.block = None
    del media_host.sends[:]
    chats = {index: f"-100{index:010d}" for index in range(budget.threads)}
    threads: dict[int, int] = {}

    def work(index: int) -> tuple[int, int, int]:
        threads[threading.get_ident()] = index
        media_host.in_chat(chats[index], str(index))
        delivered = consumed = cleared = 0
        batch: list[str] = []
        for n in range(budget.calls_per_thread):
            session = f"m-{index}-{n}"
            result = deliver_media(payload, "origin", session_id=session)
            assert result.success, result.reason
            assert result.display_target.startswith("telegram:…")
            delivered += 1
            batch.append(session)
            if len(batch) == 3 or n == budget.calls_per_thread - 1:
                *kept, dropped = batch
                for armed in reversed(kept):  # consumed in another order than armed
                    assert transform_media_delivery_output("reply", session_id=armed) == "NO_REPLY"
                    assert transform_media_delivery_output("again", session_id=armed) is None
                    consumed += 1
                clear_media_delivery_state(session_id=dropped)  # the turn ended unconsumed
                assert transform_media_delivery_output("late", session_id=dropped) is None
                cleared += 1
                batch = []
        return delivered, consumed, cleared

    with capture() as logs, media_host.installed():
        counts = run_threads(budget.threads, work)
    delivered = sum(c[0] for c in counts)
    assert delivered == sum(c[1] + c[2] for c in counts)  # every marker consumed or cleared
    assert len(MARKERS) == 0
    crossed_sends = sum(
        args["target"] != f"telegram:{chats[threads[ident]]}:{threads[ident]}"
        for ident, args, _ in media_host.sends
    )
    assert crossed_sends == 0
    assert len(media_host.sends) == delivered
    crossed_logs = 0
    for record in logs.records:
        if record.name == "kit_media.delivery":
            index = threads[record.thread or 0]
            crossed_logs += f"…{chats[index][-4:]}" not in record.getMessage()
    assert crossed_logs == 0
    with tally.lock:
        tally.calls["media deliveries"] += delivered
        tally.calls["suppression markers"] += delivered
        tally.lost["lost or crossed markers"] += delivered - sum(c[1] + c[2] for c in counts)
        tally.lost["crossed deliveries"] += crossed_sends + crossed_logs
