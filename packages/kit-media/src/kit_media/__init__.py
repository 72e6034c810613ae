"""kit-media: guarded host invocation and typed media delivery for hermes-agent plugins.

* :func:`invoke_host_tool` runs a host capability that is not a registered tool
  (``send_message``) inside hermes' own ``pre_tool_call``/``post_tool_call`` guard.
* :class:`MediaPayload` (validated when built) + :func:`deliver_media` send one file to
  ``origin`` (the current chat), a home channel or an explicit chat, and return a
  privacy-safe :class:`MediaDeliveryResult`. ``spoiler=True`` sends a Telegram spoiler
  photo through the kit's narrow extension, under the same guard.
* After a successful delivery the final reply of the session the call names (its
  ``session_id``, or the one hermes bound for this turn) is suppressed once:
  :func:`transform_media_delivery_output` (hook ``transform_llm_output``) returns
  hermes' ``NO_REPLY``, and :func:`clear_media_delivery_state` (hook ``on_session_end``)
  drops what was not consumed. A delivery that names no session arms nothing, and its
  result says so (``suppression_armed``, ``suppression_note``).

**Hook declarations.** Both suppression callbacks carry the kit's declaration record, a
:class:`kit_core.HookSpec` naming the hermes hook they are for (``"transform_llm_output"``,
``"on_session_end"``), read with :func:`kit_core.declaration_of` as every kit declaration
is. :data:`MEDIA_DELIVERY_HOOKS` lists them, so ``register_plugin`` (kit-lifecycle)
registers them when given the tuple or a module that holds it (registered as a whole),
and by hand it is ``ctx.register_hook(spec.name, spec.callback)`` for the ``HookSpec`` of
each. Since a module that holds them registers them, the three are imported by name and
are not in ``__all__``: ``from kit_media import *`` brings no hook.

**Errors.** Building a payload or resolving a target raises :class:`MediaError`
(a ``KitError`` and a ``ValueError``) whose message names the problem and the fix.
``deliver_media`` raises it only for invalid input; every host-side failure is a
``MediaDeliveryResult(success=False, reason=...)``. ``invoke_host_tool`` never raises.

hermes-agent and python-telegram-bot are imported lazily from the host's environment:
kit-media depends on kit-core only.
"""

from kit_core._build import confirm as _confirm

_confirm(__name__, __file__)  # the folder really imported is of kit_core's build

from kit_media.delivery import MediaDeliveryResult, deliver_media
from kit_media.errors import MediaError
from kit_media.host import invoke_host_tool
from kit_media.payload import MediaPayload, MediaType

# Importable by name (the redundant aliases tell type checkers they are public) and left
# out of __all__: register_plugin registers the declared objects a module registered as a
# whole holds, so a plugin module's ``from kit_media import *`` would register both hooks.
from kit_media.suppression import MEDIA_DELIVERY_HOOKS as MEDIA_DELIVERY_HOOKS
from kit_media.suppression import clear_media_delivery_state as clear_media_delivery_state
from kit_media.suppression import (
    transform_media_delivery_output as transform_media_delivery_output,
)
from kit_media.targets import ResolvedDeliveryTarget, resolve_delivery_target

__all__ = [
    "MediaDeliveryResult",
    "MediaError",
    "MediaPayload",
    "MediaType",
    "ResolvedDeliveryTarget",
    "deliver_media",
    "invoke_host_tool",
    "resolve_delivery_target",
]
