"""The gateway's human-turn silence guard as upstream hermes runs it, for the in-memory
host's upstream profile (``InMemoryHost(hermes="0.21")``); modelled from source, each rule
citing the lines it follows (written from that behaviour, not upstream's code).

Upstream PR #111624 (merged 2026-09-15; in the v0.21.3 release per upstream issue #113031,
after the 0.21.3 snapshot 00067189dfecf833d4d009c2dd977ae85cf800e0, whose
``gateway/run_turn.py`` still silences any bare marker) stops a bare ``NO_REPLY`` from
ending a turn a person started: only a machinery turn may end in silence, any other gets
a visible "unexpected silence" fallback. The profile offers the predicates of
``gateway/response_filters.py`` at ``06202cddf797e761f2905c0c088129e2683ff7b7``, the
newest version whose lines the store gives exactly:

* ``INTERNAL_NOTIFICATION_DISPLAY_KIND`` and ``MACHINERY_DISPLAY_KINDS`` (L32-33);
* ``display_kind_for_event(event)`` (L103-105): an ``internal`` event is machinery;
* ``is_machinery_display_kind(display_kind)`` (L108-115);
* ``allows_final_silence(agent_result, display_kind, heartbeat_turn=False)`` (L118-128):
  machinery, or a heartbeat turn that neither failed, was interrupted nor is partial and
  whose ``completed`` is not ``False``.

Not modelled: the later ``silence_allowed(display_kind, reply_expected=None)`` generation
(``gateway/run_turn.py`` L28-30 at 0107e0399523cf47587bf248d7e9027b7cd1c3df), which the
kit asks first where it exists, and the gateway's turn delivery itself (the profile has no
gateway: :func:`final_delivery` says what it would send).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

INTERNAL_NOTIFICATION_DISPLAY_KIND: Final = "internal_notification"
"""The display kind a self-injected (machinery) turn persists with (L32 @06202cdd)."""

MACHINERY_DISPLAY_KINDS: Final = frozenset({INTERNAL_NOTIFICATION_DISPLAY_KIND})
"""The display kinds that may end in silence (L33 @06202cdd)."""

UNEXPECTED_SILENCE_REPLY: Final = (
    "⚠️ The model returned only a silence marker for a message that needed a reply."
    " Try again or rephrase."
)
"""The fallback a person gets instead of silence: ``_UNEXPECTED_SILENCE_REPLY`` of
``gateway/run_turn.py`` as PR #111624 merged it (quoted in its description); at 0107e039
an i18n text of the same meaning (``_unexpected_silence_reply``, L87)."""


def display_kind_for_event(event: Any) -> str | None:
    """The turn's display kind: machinery only for an ``internal`` event (L103-105)."""
    return INTERNAL_NOTIFICATION_DISPLAY_KIND if getattr(event, "internal", False) else None


def is_machinery_display_kind(display_kind: Any) -> bool:
    """Whether a turn of this display kind may vanish on a bare marker (L108-115)."""
    return display_kind in MACHINERY_DISPLAY_KINDS


def allows_final_silence(
    agent_result: dict[str, Any], display_kind: Any, heartbeat_turn: bool = False
) -> bool:
    """Machinery, or a healthy heartbeat turn (L118-128 @06202cdd)."""
    if is_machinery_display_kind(display_kind):
        return True
    unhealthy = any(agent_result.get(flag) for flag in ("failed", "interrupted", "partial"))
    return heartbeat_turn and not unhealthy and agent_result.get("completed") is not False


PREDICATES: Final[dict[str, Callable[[], Any]]] = {
    "INTERNAL_NOTIFICATION_DISPLAY_KIND": lambda: INTERNAL_NOTIFICATION_DISPLAY_KIND,
    "MACHINERY_DISPLAY_KINDS": lambda: MACHINERY_DISPLAY_KINDS,
    "display_kind_for_event": lambda: display_kind_for_event,
    "is_machinery_display_kind": lambda: is_machinery_display_kind,
    "allows_final_silence": lambda: allows_final_silence,
}
"""What ``gateway.response_filters`` gains with the guard, by name."""


def final_delivery(
    final_text: str,
    *,
    guard: bool,
    is_silence: Callable[[Any], bool],
    internal: bool = False,
) -> str | None:
    """What the gateway sends after a turn whose final reply is ``final_text``: ``None``
    for nothing, else the text.

    Without the guard (0.19.0 ``gateway/run.py`` L12975-12981; upstream 00067189
    ``gateway/run_turn.py``: the silence verdict taken from the agent result alone,
    ``_is_intentional_silence`` L271-277 called at L1379 of ``_hmwa_shape_agent_response``,
    then "Intentional silence is a delivery decision", ``response = ""``, in
    ``_hmwa_deliver_turn_response`` L1766-1769) a silence marker is dropped; with it
    (``_hmwa_shape_agent_response`` in ``gateway/run_turn.py`` at
    0107e0399523cf47587bf248d7e9027b7cd1c3df) a marker ends only a machinery turn, and a
    person's turn gets :data:`UNEXPECTED_SILENCE_REPLY` instead.
    """
    if not is_silence(final_text):
        return final_text
    kind = INTERNAL_NOTIFICATION_DISPLAY_KIND if internal else None
    if not guard or allows_final_silence({"completed": True}, kind):
        return None
    return UNEXPECTED_SILENCE_REPLY
