"""The warning ``register_plugin`` gives for a hook the host fails closed on."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from kit_core._running_host import fail_closed_hooks, timeout_fail_closed_hooks

_BLOCKED: dict[str, str] = {
    # the block directive becomes the tool result (model_tools.handle_function_call)
    "pre_tool_call": "the tool call, for every tool of every plugin",
}
"""What hermes blocks when a callback of each fail-closed hook fails; a hook not listed
(a table that grew) is worded generically."""


def blocked_by(hook_name: str) -> str:
    """What the host blocks when a ``hook_name`` callback raises or times out."""
    return _BLOCKED.get(hook_name, f"what {hook_name} guards, for every plugin")


def warn_fail_closed(hooks: Iterable[str], plugin: str, logger: logging.Logger) -> None:
    """One WARNING per hook of ``hooks`` the loaded hermes fails closed on, naming what is
    blocked and when: on a raise (the running release's ``fail_closed_hooks`` in the host
    model, ``pre_tool_call`` from 0.21.5) and on a timeout (its table
    ``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``, ``pre_tool_call`` from 0.20.6)."""
    raises, timeouts = fail_closed_hooks(), timeout_fail_closed_hooks()
    for hook_name in sorted(set(hooks) & (raises | timeouts)):
        when = {
            (True, True): "if the callback raises or runs past plugins.hook_callback_timeout"
            " (30 s by default)",
            (True, False): "if the callback raises",
            (False, True): "if the callback runs past plugins.hook_callback_timeout (30 s by"
            " default)",
        }[(hook_name in raises, hook_name in timeouts)]
        logger.warning(
            "hermes_plugin_kit: plugin %s: this hermes fails %s closed: %s, hermes blocks %s,"
            " not only this plugin's. Catch what the guard does not mean to block on, and"
            " keep it fast",
            plugin,
            hook_name,
            when,
            blocked_by(hook_name),
        )
