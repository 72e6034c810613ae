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

The functions are written from that behaviour; they are not upstream's code.
"""

from __future__ import annotations

from typing import Any

from kit_devtools.testing._upstream_gateway import (
    UNEXPECTED_SILENCE_REPLY,
    allows_final_silence,
    display_kind_for_event,
    final_delivery,
    is_machinery_display_kind,
)

__all__ = [
    "UNEXPECTED_SILENCE_REPLY",
    "final_delivery",
    "human_turn_predicates",
    "silence_allowed",
]
"""Generations A and B, the fallback text and the gateway's delivery are the in-memory
host's upstream profile's own (``kit_devtools.testing._upstream_gateway``); generation C is
modelled here only, for kit-media's detection of it."""


def silence_allowed(display_kind: Any, reply_expected: bool | None = None) -> bool:
    """Generation C (0107e039): machinery, or a turn not addressed to the bot."""
    return is_machinery_display_kind(display_kind) or reply_expected is False


PREDICATES: dict[str, Any] = {
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
