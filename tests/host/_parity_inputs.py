"""What the parity suite (tests/host/test_parity.py) sends both hosts, and the in-memory
host's answers to it as data.

:func:`memory_answers` loads the parity plugins into a fresh in-memory host and records
its answers to the suite's tool calls, hooks, middleware and commands. Run as a script,
it prints them as JSON: tests/kit_devtools/test_without_hermes.py runs it in an
environment without hermes-agent and requires the same answers as with hermes
installed, where the parity suite holds them equal to the real host's.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SOURCES = {
    "kit_contract": HERE / "plugins" / "kit_contract",
    "kit_lifecycle_contract": HERE / "plugins" / "kit_lifecycle_contract",
    "kit_media_contract": HERE / "plugins" / "kit_media_contract",
    "kit_media_module": HERE / "plugins" / "kit_media_module",
    "unit-convert": HERE.parents[1] / "examples" / "unit-convert",
}
TOOLSETS = (
    "kit_contract",
    "kit_lifecycle_contract",
    "kit_media_contract",
    "kit_media_module",
    "unit-convert",
)
CONTEXT = {"task_id": "task-p", "session_id": "session-p"}

CALLS: list[tuple[str, Any, dict[str, Any]]] = [
    ("kitc_echo", {"text": "hello", "times": 2}, CONTEXT),  # success, with the host's kwargs
    ("kitc_echo", {"text": "hi", "times": "3"}, CONTEXT),  # "3" coerced to 3
    ("kitc_echo", {}, CONTEXT),  # a missing argument
    ("kitc_echo", {"text": "x", "times": 9}, {}),  # out of range, no context
    ("kitc_echo_async", {"text": "later"}, CONTEXT),  # an async handler
    ("kitc_explode", {"reason": "boom"}, CONTEXT),  # the handler raises
    ("kitc_gated", {}, CONTEXT),  # hidden from the model, still callable
    ("kitc_annotate", {"label": "a", "note": "null", "weight": "2"}, CONTEXT),  # unions
    ("kitc_annotate", {"label": "a", "metadata": '{"k": [1]}'}, CONTEXT),  # JSON string
    ("klc_echo", {"text": "hi"}, {**CONTEXT, "tool_call_id": "c1", "turn_id": "u1"}),
    ("klc_echo", {"text": "forbidden"}, CONTEXT),  # rewritten, then blocked
    ("units_convert_temperature", {"value": "100", "from_scale": "celsius", "to_scale": "kelvin"}, {}),  # noqa: E501
    ("units_convert_length", {"value": 3, "from_unit": "mi", "to_unit": "km"}, CONTEXT),
    ("units_convert_length", "not a dict", CONTEXT),  # non-dict arguments
    ("no_such_tool", {}, CONTEXT),
    ("memory", {"action": "add"}, CONTEXT),  # handled by the agent loop
    ("send_message", {"action": "list"}, CONTEXT),  # not a registered tool
]  # fmt: skip

HOOK_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("pre_llm_call", {"session_id": "s", "user_message": "klc please", "is_first_turn": True}),
    ("pre_llm_call", {"session_id": "s", "user_message": "hello"}),
    ("pre_tool_call", {"tool_name": "klc_echo", "args": {"text": "FORBIDDEN"}, "task_id": "t"}),
    ("transform_llm_output", {"response_text": "hi", "session_id": "never-armed"}),
    ("on_session_end", {"session_id": "never-armed", "completed": True}),
    ("not_a_hook", {"x": 1}),
]

DISPATCHES: list[tuple[str, dict[str, Any]]] = [
    ("kitc_echo", {"text": "a", "times": "2"}),
    ("nope", {}),
]
LLM_CONTEXT = {"task_id": "t", "session_id": "s", "turn_id": "u", "api_request_id": "a"}
LLM_REQUESTS: list[dict[str, Any]] = [
    {"model": "m", "klc": True, "max_tokens": 100},
    {"model": "m"},
]
COMMANDS: list[tuple[str, str]] = [("klc-status", "boards"), ("klc-later", "soon")]


def _calls_of(host: Any, key: str, name: str) -> list[Any]:
    return list(getattr(host.plugins[key].module, name).CALLS)


def memory_answers(hermes: str | None = None) -> dict[str, Any]:
    """The in-memory host's answers to the suite's inputs, each from a fresh host playing
    ``hermes`` (by default the installed release, else the newest)."""
    from kit_devtools.testing import InMemoryHost

    def fresh() -> InMemoryHost:
        host = InMemoryHost(hermes=hermes)
        for source in SOURCES.values():
            loaded = host.load(source)
            if not loaded.enabled:
                msg = f"{source} did not load: {loaded.error}"
                raise AssertionError(msg)
        return host

    host = fresh()
    answers: dict[str, Any] = {"definitions": host.definitions(TOOLSETS), "calls": []}
    for name, args, context in CALLS:
        host = fresh()
        out = host.call_tool(name, copy.deepcopy(args), **context)
        side = [_calls_of(host, "kit_contract", "tools"),
                _calls_of(host, "kit_lifecycle_contract", "surfaces")]  # fmt: skip
        answers["calls"].append([name, out, side])
    host = fresh()
    answers["dispatch"] = [
        host.dispatch(n, dict(a), task_id="t", anything=1) for n, a in DISPATCHES
    ]
    answers["hooks"] = [fresh().invoke_hook(h, **copy.deepcopy(k)) for h, k in HOOK_CALLS]
    answers["llm_request"] = [
        dataclasses.asdict(fresh().apply_llm_request_middleware(copy.deepcopy(r), **LLM_CONTEXT))
        for r in LLM_REQUESTS
    ]
    answers["commands"] = [fresh().run_command(c, raw) for c, raw in COMMANDS]
    return json.loads(json.dumps(answers, default=repr, sort_keys=True))


if __name__ == "__main__":
    json.dump(memory_answers(sys.argv[1] if len(sys.argv) > 1 else None), sys.stdout)
