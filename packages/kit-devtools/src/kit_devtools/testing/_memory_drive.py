"""A memory provider driven through a memory manager in the order hermes' agent drives it.

Standard library only: the real-host worker loads this file by path and hands it hermes'
own ``MemoryManager``; the in-memory host hands it the kit's model of one
(``_memory_manager_model``). The order and the arguments are the lifecycle of
``_memory_lifecycle`` (cited there): ``name``, ``is_available()``, ``add_provider`` (which
reads ``get_tool_schemas()``), ``initialize_all``, ``build_system_prompt``, ``on_turn_start``,
``prefetch_all``, each offered tool through ``handle_tool_call``, ``sync_all``,
``queue_prefetch_all``, ``on_memory_write``, the other hooks the release calls, the members
hermes calls on the provider itself, ``on_session_end`` and ``shutdown_all``.

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
import functools
import inspect
import json
import threading
import time
from collections.abc import Callable
from typing import Any, Final, cast

SESSION: Final = "hpk-contract"
QUERY: Final = "What does the user drink in the morning?"
ANSWER: Final = "The user drinks tea in the morning."
MESSAGES: Final = ({"role": "user", "content": QUERY}, {"role": "assistant", "content": ANSWER})
UNKNOWN_TOOL: Final = "hpk_contract_no_such_tool"
REQUIRED: Final = ("name", "is_available", "initialize", "get_tool_schemas")
FIRST_HOOKS: Final = (
    "system_prompt_block",
    "prefetch",
    "queue_prefetch",
    "sync_turn",
    "handle_tool_call",
    "shutdown",
    "on_turn_start",
    "on_session_end",
    "on_session_switch",
    "on_pre_compress",
    "on_delegation",
    "get_config_schema",
    "save_config",
    "on_memory_write",
)
"""The members 0.13.0's ``MemoryProvider`` gives a default for (``_memory_lifecycle``)."""
HOOKS: Final = (
    *FIRST_HOOKS,
    "backup_paths",
    "unavailable_reason",
    "recall_status",
    "identity_signature",
)
"""Every member some release's ``MemoryProvider`` gives a default for."""
DRIVEN: Final = frozenset({*REQUIRED, *HOOKS} - {"name"})

BLOCKS: Final = "must return quickly"
"""The rule of a member that held the turn: hermes runs it, the turn suffers (a warning)."""

LOST: Final = {
    "initialize": "the provider stays registered, uninitialized, for the whole session",
    "system_prompt_block": "its block is left out of the system prompt",
    "on_turn_start": "the hook's work is lost",
    "prefetch": "the turn gets no recalled context",
    "handle_tool_call": "the model gets an error instead of the tool's result",
    "sync_turn": "the turn is not stored",
    "queue_prefetch": "no recall is queued for the next turn",
    "on_memory_write": "the built-in memory's write is not mirrored",
    "on_pre_compress": "nothing of the provider goes into the compression summary",
    "on_session_switch": "the provider keeps writing to the old session",
    "on_delegation": "the subagent's work is not observed",
    "on_session_end": "the session's end is not recorded",
    "shutdown": "its queues and connections are not closed",
}
"""What is lost when hermes' memory manager catches the member raising."""

DIRECT: Final = {
    "get_config_schema": (list, "a list of field dicts", "`hermes memory setup`"),
    "backup_paths": (list, "a list of path strings", "`hermes backup`"),
    "unavailable_reason": (str, "a str", "the 'provider unavailable' warning"),
    "identity_signature": (dict, "a dict", "the gateway, on every message"),
}
"""Members hermes calls on the provider itself (not through the manager): what each must
return, and who calls it."""


class Call:
    """One call of a driven member."""

    def __init__(self) -> None:
        self.ended = threading.Event()
        self.raised: BaseException | None = None
        self.returned: Any = None


class Observed:
    """The provider as the manager sees it: every attribute is the provider's, and each
    call of a driven member is recorded."""

    def __init__(self, provider: Any) -> None:
        self._hpk_provider = provider
        self._hpk_calls: dict[str, list[Call]] = {}

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._hpk_provider, name)
        if name not in DRIVEN or not callable(value):
            return value
        calls = self._hpk_calls.setdefault(name, [])

        @functools.wraps(value)  # inspect.signature reads the provider's own
        def recorded(*args: Any, **kwargs: Any) -> Any:
            call = Call()
            calls.append(call)
            try:
                call.returned = value(*args, **kwargs)
            except BaseException as exc:
                call.raised = exc
                raise
            finally:
                call.ended.set()
            return call.returned

        return recorded


def _kind(value: object) -> str:
    return type(value).__name__


def _raised(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class _Drive:
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
                    f"it returned {call.returned!r} ({_kind(call.returned)})",
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
            f"it raised {_raised(exc)}; hermes' memory manager logs it and goes on:"
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

        threading.Thread(target=run, daemon=True, name=f"hpk-contract-{member}").start()
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

    def identity(self) -> bool:
        self.checked.append("name")
        try:
            name = self.provider.name
        except Exception as exc:
            self.flag("name", "must not raise", f"reading it raised {_raised(exc)}", "return a str")
            return False
        if not isinstance(name, str) or not name:
            self.flag(
                "name",
                "must be a non-empty str",
                f"it is {name!r}",
                "return the provider's short name, the one memory.provider selects",
            )
            return False
        if name == "builtin":
            self.flag(
                "name",
                "must not be 'builtin'",
                "hermes takes a provider of that name for its own store: it never mirrors"
                " memory writes to it and does not bound its prefetch",
                "choose the provider's own name",
            )
        return True

    def available(self) -> bool:
        self.checked.append("is_available")
        try:
            found = self.provider.is_available()
        except Exception as exc:
            self.flag(
                "is_available",
                "must not raise",
                f"it raised {_raised(exc)}; agent start catches it and runs with no memory"
                " provider",
                "check configuration and installed packages only; return False when"
                " something is missing",
            )
            return False
        if found is not True:
            self.flag(
                "is_available",
                "must return True where the provider can work",
                f"it returned {found!r}: hermes never activates the provider, and nothing"
                " else of its contract could be driven",
                "give the test the configuration (environment, files under hermes_home) the"
                " provider checks for",
            )
            return False
        return True

    def added(self) -> bool:
        """``add_provider``, and the schemas it read."""
        self.checked.append("get_tool_schemas")
        try:
            self.manager.add_provider(self.observed)
        except Exception as exc:
            self.flag(
                "get_tool_schemas",
                "must return a list without raising",
                f"add_provider raised {_raised(exc)}: agent start catches it and runs with no"
                " memory provider",
                "return [] when the provider offers no tool",
            )
            return False
        calls = self.calls("get_tool_schemas")
        raw: Any = calls[0].returned if calls else []
        if not isinstance(raw, list | tuple):
            self.flag(
                "get_tool_schemas",
                "must return a list of tool schemas",
                f"it returned a {_kind(raw)}",
                'return a list of {"name", "description", "parameters"} dicts',
            )
            return True
        offered = self.manage("get_all_tool_schemas")
        for schema in cast("list[Any]", raw):
            self.schema(schema, offered)
        return True

    def schema(self, schema: Any, offered: list[Any]) -> None:
        shape = '{"name": ..., "description": ..., "parameters": {...}}'
        bare = f"return it bare: {shape}"
        if not isinstance(schema, dict):
            self.flag("get_tool_schemas", "each schema must be a dict", f"{schema!r}", bare)
            return
        found = cast("dict[str, Any]", schema)
        inner = found
        if found.get("type") == "function" and isinstance(found.get("function"), dict):
            inner = cast("dict[str, Any]", found["function"])
        name = inner.get("name")
        if not isinstance(name, str) or not name:
            self.flag(
                "get_tool_schemas",
                "each schema must have a name",
                f"{schema!r} has none: hermes skips it, and the model never sees the tool",
                f'give it a "name", as a bare function schema: {shape}',
            )
            return
        if name in self.facts["core_tools"]:
            self.flag(
                "get_tool_schemas",
                "must not take the name of a hermes core tool",
                f"{name!r} is one: hermes' own tool wins, and the provider's is never offered",
                f"rename it, with the provider's name as a prefix ({self.provider.name}_{name})",
            )
            return
        # by value: hermes offers what a second get_tool_schemas() returns, new dicts for
        # a provider that builds its list on each call
        sent = next((o for o in offered if o in (schema, inner)), None)
        if sent is None and inner is not schema:
            self.flag(
                "get_tool_schemas",
                "must give bare function schemas",
                f"{name!r} is wrapped as {{'type': 'function', 'function': ...}}: this release"
                " reads the name at the top level, finds none, and never offers the tool",
                bare,
            )
        elif sent is None:
            self.flag(
                "get_tool_schemas",
                "each schema must reach the model",
                f"hermes' memory manager does not offer {name!r}",
                bare,
            )
        elif sent.get("name") != name:
            self.flag(
                "get_tool_schemas",
                "must give bare function schemas",
                f"{name!r} is wrapped as {{'type': 'function', 'function': ...}}: this release"
                " wraps it once more, and the model gets a tool without a name",
                bare,
            )

    def tools(self) -> None:
        self.checked.append("handle_tool_call")
        fix = "return json.dumps(result): hermes hands the model what handle_tool_call returns"
        for offered in self.manage("get_all_tool_schemas"):
            if not isinstance(offered, dict):
                continue
            schema = cast("dict[str, Any]", offered)
            name = schema.get("name")
            if not isinstance(name, str) or name in self.facts["core_tools"]:
                continue
            args = self.args_for(schema.get("parameters"))
            before = len(self.calls("handle_tool_call"))
            result = self.manage("handle_tool_call", name, args)
            mine = self.calls("handle_tool_call")[before:]
            if mine and mine[0].raised is not None:
                self.flag(
                    "handle_tool_call",
                    "must not raise",
                    f"{name}({json.dumps(args)}) raised {_raised(mine[0].raised)}: the model"
                    " gets hermes' error instead of the tool's result",
                    "catch the failure and return it as a JSON error string",
                )
            elif not isinstance(result, str):
                self.flag(
                    "handle_tool_call",
                    "must return a str (a JSON string)",
                    f"{name}({json.dumps(args)}) returned a {_kind(result)}: hermes puts it in"
                    " the conversation as it is, where a tool result must be a string",
                    fix,
                )
        try:
            unknown = self.provider.handle_tool_call(UNKNOWN_TOOL, {})
        except Exception:
            return  # hermes routes only the names the provider offers; raising is an answer
        if not isinstance(unknown, str):
            self.flag(
                "handle_tool_call",
                "must answer a name it does not offer with a JSON error string (or raise)",
                f"handle_tool_call({UNKNOWN_TOOL!r}, {{}}) returned {unknown!r}",
                'end with: return json.dumps({"error": f"unknown tool {tool_name}"})',
            )

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
                self.flag(member, "must not raise", f"it raised {_raised(exc)} ({caller})", "")
                continue
            if not isinstance(found, expected):
                self.flag(
                    member,
                    f"must return {what}",
                    f"it returned a {_kind(found)} ({caller} calls it)",
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
    ``session_id`` in a CLI session, from its own builder (``_memory_provider_init_kwargs``,
    ``agent/agent_init.py`` 0.21.3 on); None where agent start builds them inline."""
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
