"""kit_contract: a plugin built with kit-core only, loaded by the real hermes-agent host.

The contract tests (``tests/host``) copy this directory into ``$HERMES_HOME/plugins/``
and let hermes discover it; nothing here knows it is under test.
"""

from typing import Any

from kit_core import register_all

from . import tools


def register(ctx: Any) -> None:
    """Called by hermes with its PluginContext."""
    register_all(ctx, tools)
