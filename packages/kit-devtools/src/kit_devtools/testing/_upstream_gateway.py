"""The gateway's human-turn silence guard as the releases that have one run it, for the
in-memory host's stand-in of ``gateway.response_filters``.

From hermes 0.21.4 a bare silence marker (``NO_REPLY``) no longer ends a turn a person
started: only a machinery turn may end in silence, any other gets a visible "unexpected
silence" reply instead. The releases' ``HostRelease.silence_predicates`` name what
``gateway/response_filters.py`` offers for it; the functions here are those of the
installed packagings (``.cache/hosts/<version>/lib/python3.11/site-packages``):

* ``INTERNAL_NOTIFICATION_DISPLAY_KIND``, ``MACHINERY_DISPLAY_KINDS`` (on 0.21.4, 0.21.5 and
  0.22.2);
* ``display_kind_for_event(event)`` (on all three): an ``internal`` event or one the
  heartbeat poller stamped (``_heartbeat_session_id``) is machinery;
* ``is_machinery_display_kind(display_kind)`` (on all three);
* ``silence_allowed(display_kind, reply_expected=None)`` (0.22.2 only): machinery, or a turn
  the adapter says needs no reply (``reply_expected is False``).

0.21.3 and older have none of them: a person's turn ends silent on a bare marker.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from kit_core.hermes import HostRelease

INTERNAL_NOTIFICATION_DISPLAY_KIND: Final = "internal_notification"
"""The display kind a self-injected (machinery) turn persists with."""

MACHINERY_DISPLAY_KINDS: Final = frozenset({INTERNAL_NOTIFICATION_DISPLAY_KIND})
"""The display kinds that may end in silence."""

UNEXPECTED_SILENCE_REPLY: Final = (
    "⚠️ The model returned only a silence marker for a message that needed a reply. "
    "Try again or rephrase."
)
"""What a person gets instead of silence on 0.21.4 and 0.21.5:
``gateway.run_turn._UNEXPECTED_SILENCE_REPLY``."""

UNEXPECTED_SILENCE_KEY: Final = "gateway.errors.unexpected_silence"
"""What a person gets instead of silence on 0.22.2:
``gateway.run_turn._unexpected_silence_reply`` returns
``t("gateway.errors.unexpected_silence")``; the packaging ships no catalog with that key, so
``agent.i18n.t`` returns the key itself (observed by calling it in the installed 0.22.2)."""


def display_kind_for_event(event: Any) -> str | None:
    """The turn's display kind: machinery for an ``internal`` or heartbeat event (0.21.4,
    the same on 0.21.5 and 0.22.2)."""
    if getattr(event, "internal", False) or getattr(event, "_heartbeat_session_id", None):
        return INTERNAL_NOTIFICATION_DISPLAY_KIND
    return None


def is_machinery_display_kind(display_kind: Any) -> bool:
    """Whether a turn of this display kind may vanish on a bare marker (0.21.4, the same on
    0.21.5 and 0.22.2)."""
    return display_kind in MACHINERY_DISPLAY_KINDS


def silence_allowed(display_kind: Any, reply_expected: bool | None = None) -> bool:
    """Whether a successful bare marker may stay silent: machinery, or a turn that needs
    no reply (0.22.2)."""
    return is_machinery_display_kind(display_kind) or reply_expected is False


PREDICATES: Final[dict[str, Callable[..., Any]]] = {
    "display_kind_for_event": display_kind_for_event,
    "is_machinery_display_kind": is_machinery_display_kind,
    "silence_allowed": silence_allowed,
}
"""Every ``HostRelease.silence_predicates`` name, as the releases implement it."""

CONSTANTS: Final[dict[str, Any]] = {
    "INTERNAL_NOTIFICATION_DISPLAY_KIND": INTERNAL_NOTIFICATION_DISPLAY_KIND,
    "MACHINERY_DISPLAY_KINDS": MACHINERY_DISPLAY_KINDS,
}
"""The names that come with ``is_machinery_display_kind`` (on every release that has
it)."""


def members(release: HostRelease) -> dict[str, Any]:
    """What ``gateway.response_filters`` offers for the guard on ``release``: its
    ``silence_predicates`` and, with ``is_machinery_display_kind``, the constants."""
    found = {name: PREDICATES[name] for name in release.silence_predicates}
    return {**(CONSTANTS if "is_machinery_display_kind" in found else {}), **found}


def unexpected_silence_reply(release: HostRelease) -> str:
    """What a person gets instead of silence on ``release`` (a release with the guard)."""
    if "silence_allowed" in release.silence_predicates:
        return UNEXPECTED_SILENCE_KEY
    return UNEXPECTED_SILENCE_REPLY


def final_delivery(
    final_text: str,
    release: HostRelease,
    *,
    is_silence: Callable[[Any], bool],
    internal: bool = False,
    reply_expected: bool | None = None,
) -> str | None:
    """What the gateway of ``release`` sends after a successful turn whose final reply is
    ``final_text``: ``None`` for nothing, else the text.

    A reply that is no silence marker goes out as it is. A marker is dropped where the
    release has no guard (0.19.0 ``gateway.run.GatewayRunner._handle_message_with_agent``;
    0.21.3 ``gateway.run_turn.GatewayTurnMixin._hmwa_shape_agent_response``, then
    ``response = ""`` in ``gateway.run_turn.GatewayTurnMixin._hmwa_deliver_turn_response``).
    With it (``_hmwa_shape_agent_response``: 0.21.4 and 0.21.5 ``is_machinery_display_kind``;
    0.22.2 ``silence_allowed`` with the turn's ``reply_expected``) a marker ends only a turn
    the predicate allows, and any other gets :func:`unexpected_silence_reply`.
    ``internal`` is the turn's event (``display_kind_for_event``).
    """
    if not is_silence(final_text):
        return final_text
    offered = release.silence_predicates
    kind = display_kind_for_event(SimpleNamespace(internal=internal))
    if "silence_allowed" in offered:
        allowed = silence_allowed(kind, reply_expected)
    elif "is_machinery_display_kind" in offered:
        allowed = is_machinery_display_kind(kind)
    else:
        allowed = True
    return None if allowed else unexpected_silence_reply(release)
