"""Final-response suppression after a direct media delivery.

Direct delivery and the final reply are separate stages in hermes: a tool that sends a
photo mid-turn would otherwise be followed by the model's closing text (often repeating
the ``MEDIA:`` tag, which the gateway would deliver a second time). A successful
:func:`kit_media.deliver_media` therefore arms a one-turn marker for the current session:

* :func:`transform_media_delivery_output` (hook ``transform_llm_output``) consumes it and
  returns hermes' silence token ``NO_REPLY``; the gateway then delivers nothing for that
  turn (``gateway.response_filters.SILENT_REPLY_TOKEN`` and
  ``LIVE_GATEWAY_SILENT_MARKERS``, read by ``GatewayRunner._handle_message_with_agent``). A turn
  without a marker is left alone (the hook returns ``None``). On a gateway with the human-turn
  silence guard (0.21.4 and newer: ``HostRelease. silence_predicates``) ``deliver_media`` arms
  nothing, since the token would there be answered with a visible "unexpected silence" reply (see
  :mod:`kit_media._capabilities`).
* :func:`clear_media_delivery_state` (hook ``on_session_end``, which hermes fires at the
  end of every turn, ``agent.turn_finalizer.finalize_turn``) drops a marker that was not
  consumed, for example when the turn was interrupted and ``transform_llm_output`` was
  skipped.

**Keying.** Markers are keyed by the hermes session id, the value both ends really
receive in hermes 0.19.0: a tool handler gets ``session_id=agent.session_id`` from
``handle_function_call``, and ``transform_llm_output`` gets ``session_id=agent.session_id``
(``agent.turn_finalizer.finalize_turn``). ``deliver_media``
arms only under a session the call itself names: the ``session_id`` in its runtime
context, else the ``HERMES_SESSION_ID`` context variable if hermes bound it in the
current context (to ``agent.session_id``, in ``agent.agent_init.init_agent``). It never
uses the process-wide ``os.environ`` value ``get_session_env`` falls back to, which
belongs to whichever session started last, so one session's delivery can never silence
another's reply; with no session named it arms nothing and its result says so
(``suppression_armed=False`` and a ``suppression_note``; see :mod:`kit_media._session`).
``HERMES_SESSION_KEY`` is *not* used: it is the gateway's
chat key (``agent:main:telegram:...``), never the id the hook receives, so a marker armed
by it would never be consumed. ``task_id`` is not used either, for the same reason.
Arming, consuming and clearing all key the marker by the same normalisation of the
session id (``kit_media._markers.marker_key``: surrounding whitespace dropped, a blank or
non-text id names no session), applied inside the marker store, never by its callers.

The markers live in this process, at most 4096 of them, each for at most 600 seconds
(then the final reply goes out as usual); they are lock-protected, so concurrent sessions
on gateway worker threads never see each other's markers.

**Hook declarations.** Both callbacks are plain synchronous functions (hermes 0.19.0 never
awaits hooks) that accept ``**kwargs`` (the host adds ``telemetry_schema_version`` and
more over time). Each carries the kit's declaration record, a :class:`kit_core.HookSpec`
naming its hermes hook, read with :func:`kit_core.declaration_of` like every other kit
declaration. :data:`MEDIA_DELIVERY_HOOKS` lists both. kit-lifecycle's ``register_plugin``
registers them when given the tuple, the functions, or a module holding either (a module
registered as a whole); by hand it is::

    for callback in MEDIA_DELIVERY_HOOKS:
        spec = declaration_of(callback, HookSpec)  # never None for these two
        ctx.register_hook(spec.name, spec.callback)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final, TypeVar

from kit_core import HookSpec, declare
from kit_media._capabilities import SILENCE_TOKEN
from kit_media._markers import MARKERS

__all__ = [
    "MEDIA_DELIVERY_HOOKS",
    "SILENT_REPLY_TOKEN",
    "clear_media_delivery_state",
    "transform_media_delivery_output",
]

logger = logging.getLogger("kit_media.suppression")

SILENT_REPLY_TOKEN: Final = SILENCE_TOKEN
"""hermes' silence token: a final reply of exactly this is not delivered where the gateway
has a silence filter and no human-turn guard (``gateway.response_filters.SILENT_REPLY_TOKEN``
from 0.17.0; kept as a compatibility pointer to 0.21.5 and gone in 0.22.2, where
``NO_REPLY`` stays one of ``LIVE_GATEWAY_SILENT_MARKERS``).
It is the host model's ``HostRelease.silence_token`` wherever that is not empty:
``tests/kit_core/test_host_model.py`` holds the two equal."""


_F = TypeVar("_F", bound=Callable[..., Any])


def _declares(hook_name: str) -> Callable[[_F], _F]:
    """Declare a plain function as the callback of hermes hook ``hook_name`` (the function
    itself is registered, unwrapped)."""

    def mark(fn: _F) -> _F:
        return declare(fn, HookSpec(hook_name, fn))

    return mark


@_declares("transform_llm_output")
def transform_media_delivery_output(
    response_text: str = "", session_id: str = "", **kwargs: Any
) -> str | None:
    """``transform_llm_output`` hook: ``"NO_REPLY"`` once after a delivery, else ``None``."""
    if not MARKERS.consume(session_id):
        return None
    chars = len(response_text) if isinstance(response_text, str) else 0
    logger.info("event=media_final_response_suppressed original_chars=%d", chars)
    return SILENT_REPLY_TOKEN


@_declares("on_session_end")
def clear_media_delivery_state(session_id: str = "", task_id: str = "", **kwargs: Any) -> None:
    """``on_session_end`` hook: drop this session's unconsumed marker, if any.

    ``task_id`` is accepted for compatibility and ignored: markers are never keyed by it.
    """
    if MARKERS.clear(session_id):
        logger.info("event=media_final_response_suppression_cleared")


MEDIA_DELIVERY_HOOKS: Final[tuple[Callable[..., str | None], ...]] = (
    transform_media_delivery_output,
    clear_media_delivery_state,
)
"""Both hook declarations, ready for ``register_plugin`` (also inside a module registered
as a whole) or ``ctx.register_hook``."""


def arm_final_response_suppression(session_id: object) -> bool:
    """Arm the one-turn marker for ``session_id``; ``False`` when it names no session."""
    if not MARKERS.arm(session_id):
        return False
    logger.info("event=media_final_response_suppression_armed")
    return True
