"""Which session a delivery may silence: one the call itself identifies, never a guess.

A successful delivery arms the one-turn suppression of a session's final reply (see
:mod:`kit_media.suppression`). Arming the wrong session silences someone else's reply,
so the kit arms only under a session id that belongs to *this* call:

1. the ``session_id`` keyword hermes passes to every tool handler (``registry.dispatch``
   in ``model_tools.handle_function_call``), which the author forwards with ``deliver_media(payload,
   target, **kwargs)``;
2. otherwise the ``HERMES_SESSION_ID`` context variable, if the host bound it in the
   current context: ``gateway.session_context`` keeps it in a ``ContextVar`` named
   ``HERMES_SESSION_ID`` (``gateway.session_context._SESSION_ID``), which
   ``gateway.session_context.set_current_session_id`` binds to ``agent.session_id`` for
   the turn (called from ``agent.agent_init.init_agent``), and tool threads inherit.

Never ``get_session_env("HERMES_SESSION_ID")`` as such: when the context variable was
never bound in this context it falls back to ``os.environ``, and ``set_current_session_id`` writes
``os.environ`` for every agent it sets up, so that value is whichever session started last in the
process. The gateway also binds the variable to ``""`` for every message
(``gateway.run.GatewayRunner._set_session_env`` passes no ``session_id`` to ``set_session_vars``),
which identifies no session either.

The context is read from the standard library (``contextvars.copy_context()``): only a
variable actually set in this context counts, and when two variables of that name hold
different sessions, none does.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from typing import Any, Final

from kit_media._markers import marker_key

SESSION_ID_VARIABLE: Final = "HERMES_SESSION_ID"
"""The name of the context variable hermes binds to the turn's session id."""

NO_SESSION_NOTE: Final = (
    "the final reply of this turn will be sent as usual: the call named no session (no"
    " session_id keyword, and no HERMES_SESSION_ID bound by hermes for this turn), so no"
    " suppression was armed; pass the keyword arguments hermes gave your tool handler, as"
    " in deliver_media(payload, target, **kwargs)"
)
"""``MediaDeliveryResult.suppression_note`` of a successful delivery that armed nothing."""


def delivery_session(runtime_context: Mapping[str, Any]) -> str | None:
    """The session this call names (see the module docstring), or ``None``."""
    given = marker_key(runtime_context.get("session_id"))
    return given if given is not None else bound_session_id()


def bound_session_id() -> str | None:
    """The ``HERMES_SESSION_ID`` context variable's value, only if set in this context."""
    found = {
        key
        for variable, value in contextvars.copy_context().items()
        if variable.name == SESSION_ID_VARIABLE and (key := marker_key(value)) is not None
    }
    return found.pop() if len(found) == 1 else None
