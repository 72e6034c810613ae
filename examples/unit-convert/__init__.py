"""unit-convert: a tool-only hermes plugin built with kit-core alone."""

from kit_core import register_all

from . import tools


def register(ctx):  # noqa: ANN001, ANN201 - the host's entry point
    """Called by hermes with its PluginContext."""
    register_all(ctx, tools)
