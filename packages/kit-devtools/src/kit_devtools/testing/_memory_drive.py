"""A memory provider driven through a memory manager in the order hermes' agent drives it.

Standard library only: the real-host worker imports it from beside its own file (with
``_memory_members``, what it calls and records, and ``_memory_checks``, the checks of the
members before the turn and of the tools) and hands it hermes' own ``MemoryManager``; the
in-memory host hands it the kit's model of one (``_memory_manager_model``). The order and
the arguments are the lifecycle of ``_memory_lifecycle`` (cited there): ``name``,
``is_available()``, ``add_provider`` (which reads ``get_tool_schemas()``),
``initialize_all``, ``build_system_prompt``, ``on_turn_start``, ``prefetch_all``, each
offered tool through ``handle_tool_call``, ``sync_all``, ``queue_prefetch_all``,
``on_memory_write``, the other hooks the release calls, the members hermes calls on the
provider itself, ``on_session_end`` and ``shutdown_all``.

The manager catches and logs whatever the provider raises, so the provider is seen through
:class:`Observed`, which records each call of a driven member (what it returned or raised,
when it ended). Calls hermes makes on the turn's path (``prefetch``, ``sync_turn``,
``queue_prefetch``) are given ``bound`` seconds: one still running then blocks the turn, or
the manager's single worker that every later write waits for.

:func:`drive` returns plain data (the worker sends it as JSON): the members driven in order
and each violation as ``{"member", "rule", "detail", "fix", "severity"}``.
"""

from __future__ import annotations

import contextlib
import inspect
import threading
import time
from collections.abc import Callable
from typing import Any, Final, cast

from kit_devtools.testing._memory_checks import MemberChecks
from kit_devtools.testing._memory_members import (
    ANSWER,
    BLOCKS,
    DIRECT,
    HOOKS,
    LOST,
    MESSAGES,
    QUERY,
    REQUIRED,
    SESSION,
    Call,
    Observed,
    kind_of,
    raised_text,
)


class _Drive(MemberChecks):
    def __init__(
        self,
        provider: Any,
        manager: Any,
        facts: dict[str, Any],
        bound: float,
        args_for: Callable[[Any], dict[str, Any]],
    ) -> None:
        self.provider = provider
        self.observed = Observed(provider)
        self.manager = manager
        self.facts = facts
        self.bound = bound
        self.args_for = args_for
        self.checked: list[str] = []
        self.violations: list[dict[str, Any]] = []

    def flag(self, member: str, rule: str, detail: str, fix: str) -> None:
        severity = "warning" if rule == BLOCKS else "error"
        found = {"member": member, "rule": rule, "detail": detail, "fix": fix, "severity": severity}
        if found not in self.violations:
            self.violations.append(found)

    def calls(self, member: str) -> list[Call]:
        return self.observed._hpk_calls.get(member, [])  # pyright: ignore[reportPrivateUsage]

    def manage(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """The manager's ``method``, passed only the keywords this release's takes."""
        call = getattr(self.manager, method)
        params = inspect.signature(call).parameters
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            kwargs = {k: v for k, v in kwargs.items() if k in params}
        return call(*args, **kwargs)

    def judged(self, member: str, expected: type | None = None, what: str = "") -> None:
        """The calls of ``member`` so far: one that raised, or returned another type."""
        self.checked.append(member)
        for call in self.calls(member):
            if call.raised is not None:
                self.flag_raise(member, call.raised)
                return
            ended = expected is not None and call.ended.is_set()
            if ended and not isinstance(call.returned, expected or object):
                self.flag(
                    member,
                    f"must return {what}",
                    f"it returned {call.returned!r} ({kind_of(call.returned)})",
                    f"return {what}",
                )
                return

    def flag_raise(self, member: str, exc: BaseException) -> None:
        if member == "initialize" and isinstance(exc, TypeError):
            given = ", ".join(["session_id", *self.facts["init_kwargs"]])
            fix = f"declare initialize(self, session_id, **kwargs): hermes passes {given}"
        else:
            fix = f"catch the backend's errors inside {member} and log them"
        self.flag(
            member,
            "must not raise",
            f"it raised {raised_text(exc)}; hermes' memory manager logs it and goes on:"
            f" {LOST.get(member, 'its work is lost')}",
            fix,
        )

    def timed(self, member: str, method: str, *args: Any, **kwargs: Any) -> None:
        """``method`` of the manager on a thread of its own; the provider's ``member`` must
        end within the bound (measured from the manager's call)."""
        before = len(self.calls(member))
        deadline = time.monotonic() + self.bound

        def run() -> None:
            with contextlib.suppress(Exception):  # the manager's: the member's calls say it
                self.manage(method, *args, **kwargs)

        manager = threading.Thread(target=run, daemon=True, name=f"hpk-contract-{member}")
        manager.start()
        if not hasattr(self.provider, member):  # hermes cannot call it: nothing to wait for
            manager.join(max(deadline - time.monotonic(), 0.0))
            return
        while len(self.calls(member)) == before and time.monotonic() < deadline:
            time.sleep(0.005)
        calls = self.calls(member)[before:]
        if not calls:
            return  # the manager did not call it in time (its worker is held): not judged
        if not calls[0].ended.wait(max(deadline - time.monotonic(), 0.0)):
            self.checked.append(member)
            self.flag(
                member,
                BLOCKS,
                f"it was still running {self.bound:g} s after hermes called it;"
                f" {self.held(member)}",
                "return at once and do the backend's work on a thread of the provider's own",
            )
            return
        expected, what = _RETURNS.get(member, (None, ""))
        self.judged(member, expected, what)

    def held(self, member: str) -> str:
        """What a member that does not return holds up, on this release."""
        if member == "prefetch":
            return "hermes calls it before each model call, and the turn waits for it"
        if self.facts["background_sync"]:
            return (
                "hermes runs it on the memory manager's one worker thread, where every later"
                " sync and prefetch waits for it, and shutdown abandons it after 5 s"
            )
        return "hermes runs it on the agent's thread at the end of the turn, which waits for it"

    # -- the lifecycle ----------------------------------------------------------------------

    def run(self) -> None:
        missing = [m for m in REQUIRED if not hasattr(self.provider, m)]
        for member in missing:
            self.flag(
                member,
                "MemoryProvider declares it abstract: hermes calls it",
                "the provider has none",
                f"implement {member} as agent.memory_provider.MemoryProvider declares it",
            )
        if missing or not self.identity() or not self.available():
            return
        if not self.added():
            return
        kwargs: dict[str, Any] = self.facts.get("init_values") or {
            k: _INIT_VALUES[k] for k in self.facts["init_kwargs"] if k in _INIT_VALUES
        }
        kwargs = {**kwargs, "hermes_home": self.facts["hermes_home"]}
        self.manage("initialize_all", SESSION, **kwargs)
        self.judged("initialize")
        self.manage("build_system_prompt")
        self.judged("system_prompt_block", str, "a str")
        self.manage("on_turn_start", 1, QUERY, platform="cli")
        self.judged("on_turn_start")
        self.timed("prefetch", "prefetch_all", QUERY, session_id=SESSION)
        self.tools()
        messages = [dict(m) for m in MESSAGES]
        self.timed("sync_turn", "sync_all", QUERY, ANSWER, session_id=SESSION, messages=messages)
        self.timed("queue_prefetch", "queue_prefetch_all", QUERY, session_id=SESSION)
        metadata = {"write_origin": "memory_tool", "session_id": SESSION, "platform": "cli"}
        self.manage("on_memory_write", "add", "user", "Drinks tea.", metadata=metadata)
        self.judged("on_memory_write")
        self.hooks(messages)
        self.direct()
        self.manage("on_session_end", messages)
        self.judged("on_session_end")
        self.manage("shutdown_all")
        self.judged("shutdown")

    def hooks(self, messages: list[dict[str, Any]]) -> None:
        optional = set(self.facts["optional"])
        if "on_pre_compress" in optional:
            self.manage("on_pre_compress", messages)
            self.judged("on_pre_compress", str, "a str")
        if "on_session_switch" in optional:
            self.manage("on_session_switch", SESSION + "-2", parent_session_id=SESSION, reset=True)
            self.judged("on_session_switch")
        if "on_delegation" in optional:
            self.manage("on_delegation", "Look it up.", "Found it.", child_session_id="hpk-child")
            self.judged("on_delegation")

    def direct(self) -> None:
        for member, (expected, what, caller) in DIRECT.items():
            if member not in self.facts["optional"] or not hasattr(self.provider, member):
                continue
            self.checked.append(member)
            try:
                found = getattr(self.provider, member)()
            except Exception as exc:
                self.flag(member, "must not raise", f"it raised {raised_text(exc)} ({caller})", "")
                continue
            if not isinstance(found, expected):
                self.flag(
                    member,
                    f"must return {what}",
                    f"it returned a {kind_of(found)} ({caller} calls it)",
                    f"return {what}",
                )


_RETURNS: Final[dict[str, tuple[type | None, str]]] = {"prefetch": (str, "a str")}
_INIT_VALUES: Final[dict[str, Any]] = {
    "platform": "cli",
    "agent_context": "primary",
    "agent_identity": "default",
    "agent_workspace": "hermes",
    "warning_callback": lambda *args, **kwargs: None,  # pyright: ignore[reportUnknownLambdaType]
    "status_callback": lambda *args, **kwargs: None,  # pyright: ignore[reportUnknownLambdaType]
}
"""What a CLI session's agent start passes for each keyword of ``initialize``."""


def drive(
    provider: Any,
    manager: Any,
    facts: dict[str, Any],
    *,
    bound: float,
    args_for: Callable[[Any], dict[str, Any]],
) -> dict[str, Any]:
    """Drive ``provider`` through ``manager``; ``facts``: the release's ``optional``
    members, ``init_kwargs``, ``core_tools`` and ``hermes_home``."""
    found = _Drive(provider, manager, facts, bound, args_for)
    found.run()
    return {"checked": found.checked, "violations": found.violations}


class _CliAgent:
    """What agent start's keyword builder reads of an agent: a CLI session with no gateway
    identity, title or working directory (every other attribute is None)."""

    session_id = SESSION
    _session_db = None
    session_cwd = None

    def _emit_warning(self, *args: Any, **kwargs: Any) -> None:
        """The CLI's warning line."""

    def _emit_status(self, *args: Any, **kwargs: Any) -> None:
        """The CLI's status line."""

    def __getattr__(self, name: str) -> None:
        return None


def release_init(agent_init: Any) -> dict[str, Any] | None:
    """The keywords (and values) the release's agent start passes ``initialize`` besides
    ``session_id`` in a CLI session, from its own builder
    (``agent.agent_init._memory_provider_init_kwargs``, 0.21.3 on); None where agent start
    builds them inline."""
    build = getattr(agent_init, "_memory_provider_init_kwargs", None)
    if not callable(build):
        return None
    found = dict(cast("dict[str, Any]", build(_CliAgent(), "cli")))
    found.pop("session_id", None)
    return found


def release_facts(provider_base: Any, manager_class: Any, core_tools: Any) -> dict[str, Any]:
    """What the installed release does, read from it: the optional members its
    ``MemoryProvider`` gives a default for (:data:`HOOKS`), whether its ``sync_all`` hands
    the provider to the manager's worker thread, and the core tool names."""
    try:
        source = inspect.getsource(manager_class.sync_all)
    except (OSError, TypeError):
        source = ""
    return {
        "optional": [m for m in HOOKS if hasattr(provider_base, m)],
        "background_sync": "_submit_background" in source,
        "core_tools": sorted(str(n) for n in core_tools),
    }
