"""kit_media_contract: a plugin built with kit-media, loaded by the real hermes-agent host.

It registers one tool (``kitm_deliver``), the kit's two media-delivery hooks exactly as a
plugin author would by hand (each of ``MEDIA_DELIVERY_HOOKS`` under the name of its
``HookSpec``), and two observers the contract tests read. The host is shared with other
plugins' tests, so the observers act only on the host capability ``send_message`` (which
no other test calls), and the blocking guard is off unless a test sets
:data:`BLOCK_SEND_MESSAGE`. The two kit hooks act
only for a session a kit delivery armed.
"""

from __future__ import annotations

import copy
from typing import Any

from kit_core import HookSpec, declaration_of, register_all
from kit_media import MEDIA_DELIVERY_HOOKS

from . import tools

BLOCK_SEND_MESSAGE: str | None = None
"""When set, ``pre_tool_call`` blocks ``send_message`` with this message."""

PRE_CALLS: list[dict[str, Any]] = []
"""Every ``pre_tool_call`` the host fired for ``send_message``."""

POST_CALLS: list[dict[str, Any]] = []
"""Every ``post_tool_call`` the host (or the kit, for it) emitted for ``send_message``."""

TOOL_POST_CALLS: list[dict[str, Any]] = []
"""Every ``post_tool_call`` the host emitted for this plugin's own tool, ``kitm_deliver``."""


def guard_send_message(tool_name: str = "", args: Any = None, **kwargs: Any) -> Any:
    """``pre_tool_call``: record send_message calls; block them while the switch is on."""
    if tool_name != "send_message":
        return None
    PRE_CALLS.append({"tool_name": tool_name, "args": copy.deepcopy(args), **kwargs})
    if BLOCK_SEND_MESSAGE:
        return {"action": "block", "message": BLOCK_SEND_MESSAGE}
    return None


def observe_send_message(tool_name: str = "", **kwargs: Any) -> None:
    """``post_tool_call``: record what the host was told about send_message and about
    the plugin's own tool."""
    if tool_name == "send_message":
        POST_CALLS.append({"tool_name": tool_name, **copy.deepcopy(kwargs)})
    elif tool_name == "kitm_deliver":
        TOOL_POST_CALLS.append({"tool_name": tool_name, **copy.deepcopy(kwargs)})


def register(ctx: Any) -> None:
    """Called by hermes with its PluginContext."""
    register_all(ctx, tools)
    ctx.register_hook("pre_tool_call", guard_send_message)
    ctx.register_hook("post_tool_call", observe_send_message)
    for callback in MEDIA_DELIVERY_HOOKS:
        spec = declaration_of(callback, HookSpec)
        assert spec is not None, f"{callback!r} declares no hook"
        ctx.register_hook(spec.name, spec.callback)
