"""The warning ``register_plugin`` gives for a hook the host fails closed on."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from kit_lifecycle._host import host_fail_closed_hooks


def warn_fail_closed(hooks: Iterable[str], plugin: str, logger: logging.Logger) -> None:
    """One WARNING per hook of ``hooks`` the loaded hermes fails closed on (upstream:
    ``pre_tool_call``, ``hermes_cli/plugins_dispatch.py`` L47 and L229-240 @006a5aeb): there
    a callback that raises or times out blocks every tool call, of every plugin."""
    for hook_name in sorted(set(hooks) & host_fail_closed_hooks()):
        logger.warning(
            "hermes_plugin_kit: plugin %s: this hermes fails %s closed: if the callback raises"
            " or runs past plugins.hook_callback_timeout (30 s by default), hermes blocks the"
            " tool call, for every tool of every plugin, not only this plugin's. Catch what"
            " the guard does not mean to block on, and keep it fast",
            plugin,
            hook_name,
        )
