"""The warning ``register_plugin`` gives for a hook the host fails closed on."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from kit_lifecycle._host import host_fail_closed_hooks

_BLOCKED: dict[str, str] = {
    # the block directive becomes the tool result: _dispatch_pre_tool_call_hooks,
    # hermes_cli/plugins.py L1887-1895 @00067189dfecf833d4d009c2dd977ae85cf800e0
    "pre_tool_call": "the tool call, for every tool of every plugin",
    # enforce_pre_synthesis raises ValueError on a block directive, before any TTS provider
    # is called (stored file id 69597642443, path and commit not resolved by the store)
    "pre_tts_synthesis": (
        "the speech synthesis (text to speech, tool and voice replies), whichever plugin"
        " or provider asked for it"
    ),
}
"""What hermes blocks when a callback of each fail-closed hook fails; a hook not listed
(a table that grew) is worded generically."""


def blocked_by(hook_name: str) -> str:
    """What the host blocks when a ``hook_name`` callback raises or times out."""
    return _BLOCKED.get(hook_name, f"what {hook_name} guards, for every plugin")


def warn_fail_closed(hooks: Iterable[str], plugin: str, logger: logging.Logger) -> None:
    """One WARNING per hook of ``hooks`` the loaded hermes fails closed on
    (``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``, upstream ``pre_tool_call`` and
    ``pre_tts_synthesis``: ``hermes_cli/plugins_dispatch.py`` L48-49 @006a5aeb; a
    callback that raises or times out becomes a block directive, L231-242), naming what
    is blocked for that hook: the tool call for ``pre_tool_call``, the speech synthesis
    for ``pre_tts_synthesis``."""
    for hook_name in sorted(set(hooks) & host_fail_closed_hooks()):
        logger.warning(
            "hermes_plugin_kit: plugin %s: this hermes fails %s closed: if the callback raises"
            " or runs past plugins.hook_callback_timeout (30 s by default), hermes blocks %s,"
            " not only this plugin's. Catch what the guard does not mean to block on, and"
            " keep it fast",
            plugin,
            hook_name,
            blocked_by(hook_name),
        )
