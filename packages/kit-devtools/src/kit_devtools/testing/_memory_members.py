"""What the memory-provider contract drive (``_memory_drive``) calls a provider with, and
what it records: the session, query and answer of the one turn it drives, the members
(``REQUIRED``, ``FIRST_HOOKS``, ``HOOKS``, ``DRIVEN``), what is lost when hermes' memory
manager catches a member raising (``LOST``), the members hermes calls on the provider
itself (``DIRECT``), and each call of a driven member (:class:`Call`, :class:`Observed`).

Standard library only, as the drive is (hermes' worker imports it).
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Final

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


def kind_of(value: object) -> str:
    return type(value).__name__


def raised_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
