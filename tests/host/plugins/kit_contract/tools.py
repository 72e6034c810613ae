"""The kit_contract tools: one per behaviour the real-host contract tests pin down.

Every handler appends its tool name to :data:`CALLS`, so a test can tell whether
the kit let a call reach the handler, and returns what it received (the
arguments with their Python types, and the keyword arguments the host passed).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from kit_core import arg, int_arg, object_arg, str_arg, tool

TOOLSET = "kit_contract"
NAMESPACE = "kitc"
GATE_ENV = "KITC_FAKE_TOKEN"

CALLS: list[str] = []
"""Names of the tools whose handler ran, in call order."""


def _seen(args: dict[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    return {
        "args": args,
        "arg_types": {key: type(value).__name__ for key, value in args.items()},
        "kwargs": sorted(kwargs),
        "task_id": kwargs.get("task_id"),
        "session_id": kwargs.get("session_id"),
        "user_task": kwargs.get("user_task"),
    }


def never_available() -> bool:
    """The availability probe of ``kitc_gated``: always False, so the host hides the tool."""
    return False


@tool(
    toolset=TOOLSET,
    namespace=NAMESPACE,
    emoji="🔁",
    params={
        "text": str_arg("Text to echo", required=True, example="hello"),
        "times": int_arg("How many times to repeat the text", minimum=1, maximum=5, example=2),
    },
)
def kitc_echo(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Echo the text back, repeated."""
    CALLS.append("kitc_echo")
    times = args.get("times", 1)
    return {"echo": " ".join([args["text"]] * times), **_seen(args, kwargs)}


@tool(
    toolset=TOOLSET,
    namespace=NAMESPACE,
    params={"text": str_arg("Text to echo", required=True, example="hi")},
)
async def kitc_echo_async(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Echo the text back from a coroutine."""
    CALLS.append("kitc_echo_async")
    await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    return {
        "echo": args["text"],
        "loop_running": loop.is_running(),
        "thread": threading.current_thread().name,
        **_seen(args, kwargs),
    }


@tool(
    toolset=TOOLSET,
    namespace=NAMESPACE,
    params={"reason": str_arg("Why the tool fails", example="boom")},
)
def kitc_explode(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Fail on purpose."""
    CALLS.append("kitc_explode")
    msg = f"exploded: {args.get('reason', 'on purpose')}"
    raise RuntimeError(msg)


@tool(
    toolset=TOOLSET,
    namespace=NAMESPACE,
    requires_env=[GATE_ENV],
    emoji="🔒",
    check_fn=never_available,
)
def kitc_gated(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Report that the gated tool ran."""
    CALLS.append("kitc_gated")
    return {"ran": True}


@tool(
    toolset=TOOLSET,
    namespace=NAMESPACE,
    params={
        "label": str_arg("Label to attach", required=True, example="urgent"),
        "metadata": object_arg("Free-form metadata to keep with the label"),
        "note": arg(["string", "null"], "A note, or null for none"),
        "weight": arg(["number", "string"], "A weight, as a number or a string such as '2kg'"),
    },
)
def kitc_annotate(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Attach a label, with optional metadata, note and weight."""
    CALLS.append("kitc_annotate")
    return {"args": args}
