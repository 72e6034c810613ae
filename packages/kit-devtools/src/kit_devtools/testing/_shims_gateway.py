"""The in-memory host's stand-ins for ``gateway.session_context`` (the host's session
values, then ``os.environ``) and ``gateway.response_filters`` (the gateway's silence
filter, as the release the host plays has it), answering from the host they are built for
(:mod:`_shims` puts them in ``sys.modules``).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from types import ModuleType
from typing import Any, Final

from kit_devtools.testing import _real_hermes, _upstream_gateway
from kit_devtools.testing._standin_state import hidden, stand_in_module


def session_module(host: Any) -> ModuleType:
    def get_session_env(name: str, default: str = "") -> str:
        values = host.session_env
        return values[name] if name in values else os.getenv(name, default)

    return stand_in_module(
        "gateway.session_context",
        "The in-memory host's stand-in: InMemoryHost.session_env, then os.environ.",
        get_session_env=get_session_env,
    )


def response_filters_module(host: Any) -> ModuleType:
    """The gateway's silence filter, with what the played release offers and nothing else:
    ``is_intentional_silence_response`` where the release has it (from 0.17.0),
    ``SILENT_REPLY_TOKEN`` where it has a silence token (0.17.0-0.21.5; 0.22.2 removed it),
    and the human-turn guard's ``silence_predicates`` (0.21.4-0.22.2) as the releases
    implement them (see :mod:`_upstream_gateway`). Asking for one the release lacks is an
    AttributeError, as on that release."""
    module = stand_in_module(
        "gateway.response_filters",
        "The in-memory host's stand-in for the gateway's silence filter.",
    )

    def offered(name: str, answer: Callable[[Any], Any]) -> Callable[[], Any]:
        def value() -> Any:
            release = host._state.release
            found = answer(release)
            if found is _ABSENT:
                msg = (
                    f"module 'gateway.response_filters' has no attribute {name!r} ({release.label})"
                )
                raise AttributeError(msg)
            return found

        return value

    def filter_of(release: Any) -> Any:
        return (
            _is_intentional_silence_response if _SILENCE_FUNCTION in release.functions else _ABSENT
        )

    def guard_member(name: str) -> Callable[[Any], Any]:
        return lambda release: _upstream_gateway.members(release).get(name, _ABSENT)

    computed = {
        "is_intentional_silence_response": offered("is_intentional_silence_response", filter_of),
        "SILENT_REPLY_TOKEN": offered("SILENT_REPLY_TOKEN", lambda r: r.silence_token or _ABSENT),
    }
    names = [*_upstream_gateway.PREDICATES, *_upstream_gateway.CONSTANTS]
    computed.update({name: offered(name, guard_member(name)) for name in names})
    vars(module)["__getattr__"] = _real_hermes.fallback(
        "gateway.response_filters", lambda: hidden("gateway.response_filters"), computed
    )
    return module


_ABSENT: Final = object()
_SILENCE_FUNCTION: Final = "gateway.response_filters.is_intentional_silence_response"


_SILENT_MARKERS: Final = frozenset({"[SILENT]", "SILENT", "NO_REPLY", "NO REPLY"})


def _is_intentional_silence_response(response: Any) -> bool:
    """Whether the gateway would deliver nothing for this final reply: the whole reply is
    one silence marker, at most 64 characters (edge punctuation is trimmed as hermes-agent
    0.19.0 trims it, square brackets kept)."""
    if not isinstance(response, str) or not response.strip() or len(response.strip()) > 64:
        return False
    text = response.strip()
    start, end = 0, len(text)
    while start < end and text[start] not in "[]" and unicodedata.category(text[start])[0] == "P":
        start += 1
    while (
        end > start and text[end - 1] not in "[]" and unicodedata.category(text[end - 1])[0] == "P"
    ):
        end -= 1
    candidates = {text, text[start:end].strip()}
    return any(" ".join(c.upper().split()) in _SILENT_MARKERS for c in candidates)
