"""A model of upstream hermes' human-turn silence guard, for kit-media's unit tests.

Upstream PR #111624 (merged 2026-09-15, in the v0.21.3 release per upstream issue
#113031; not yet in the 0.21.3 snapshot 00067189dfecf833d4d009c2dd977ae85cf800e0) stops
silencing a bare ``NO_REPLY`` on a turn a person started: only machinery turns (and,
later, heartbeat turns or turns the adapter marks ``reply_expected=False``) may end in
silence; any other turn gets a visible "unexpected silence" fallback instead. Three
generations of the predicate exist, each exported by ``gateway/response_filters.py``:

* A, ``is_machinery_display_kind(display_kind)`` (PR #111624 as merged);
* B, ``allows_final_silence(agent_result, display_kind, heartbeat_turn=False)``
  (``gateway/response_filters.py`` at 06202cddf797e761f2905c0c088129e2683ff7b7,
  L103 ``display_kind_for_event``, L108 ``is_machinery_display_kind``, L118-128
  ``allows_final_silence``);
* C, ``silence_allowed(display_kind, reply_expected=None)`` (imported by
  ``gateway/run_turn.py`` at 0107e0399523cf47587bf248d7e9027b7cd1c3df, L28-30).

The functions below are written for these tests from that behaviour; they are not
upstream's code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MACHINERY_KIND = "internal_notification"
"""The display kind of a self-injected (machinery) turn (06202cdd L32)."""

UNEXPECTED_SILENCE_REPLY = (
    "⚠️ The model returned only a silence marker for a message that needed a reply."
    " Try again or rephrase."
)
"""Generation A's ``_UNEXPECTED_SILENCE_REPLY`` (``gateway/run_turn.py``, as quoted in PR
#111624); generation C sends an i18n text of the same meaning."""


def display_kind_for_event(event: Any) -> str | None:
    """Only an ``internal`` event is machinery (06202cdd L103-105)."""
    return MACHINERY_KIND if getattr(event, "internal", False) else None


def is_machinery_display_kind(display_kind: Any) -> bool:
    """Generation A (06202cdd L108-115)."""
    return display_kind == MACHINERY_KIND


def allows_final_silence(
    agent_result: dict[str, Any], display_kind: Any, heartbeat_turn: bool = False
) -> bool:
    """Generation B (06202cdd L118-128): machinery, or a healthy heartbeat turn."""
    healthy = not any(agent_result.get(k) for k in ("failed", "interrupted", "partial"))
    return is_machinery_display_kind(display_kind) or (
        heartbeat_turn and healthy and agent_result.get("completed") is not False
    )


def silence_allowed(display_kind: Any, reply_expected: bool | None = None) -> bool:
    """Generation C (0107e039): machinery, or a turn not addressed to the bot."""
    return is_machinery_display_kind(display_kind) or reply_expected is False


PREDICATES: dict[str, Callable[..., bool]] = {
    "is_machinery_display_kind": is_machinery_display_kind,
    "allows_final_silence": allows_final_silence,
    "silence_allowed": silence_allowed,
}


def human_turn_predicates(generation: str | None) -> dict[str, Any]:
    """The attributes ``gateway.response_filters`` gains in one generation (none: 0.19)."""
    if generation is None:
        return {}
    found: dict[str, Any] = {
        "display_kind_for_event": display_kind_for_event,
        "is_machinery_display_kind": is_machinery_display_kind,
    }
    found[generation] = PREDICATES[generation]
    return found


def final_delivery(
    final_text: str, *, internal: bool, guard: bool, is_silence: Callable[[str], bool]
) -> str | None:
    """What the gateway sends after the agent's turn (``_hmwa_deliver_turn_response``):
    ``None`` for nothing, else the text.

    Without the guard (0.19.0 ``gateway/run.py`` L12975-12981; upstream
    00067189dfecf833d4d009c2dd977ae85cf800e0 ``gateway/run_turn.py``: the silence verdict
    taken from the agent result alone, ``_is_intentional_silence`` L271-277 called at
    L1379 of ``_hmwa_shape_agent_response``, then "Intentional silence is a delivery
    decision", ``response = ""``, in ``_hmwa_deliver_turn_response`` L1766-1769; lines
    counted from the stored copy) any silence marker is dropped; with it only a machinery
    turn may be silent (``is_machinery_display_kind``, ``gateway/response_filters.py``
    L108-115 at 06202cddf797e761f2905c0c088129e2683ff7b7; at
    0107e0399523cf47587bf248d7e9027b7cd1c3df ``gateway/run_turn.py`` imports the
    predicate at L28-30), and a person's turn gets the fallback text instead.
    """
    if not is_silence(final_text):
        return final_text
    if not guard or is_machinery_display_kind(MACHINERY_KIND if internal else None):
        return None
    return UNEXPECTED_SILENCE_REPLY
