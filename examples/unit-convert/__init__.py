"""unit-convert: a tool-only hermes plugin built with kit-core alone."""

from kit_core import register_all

from . import tools


def register(ctx):
    """Called by hermes with its PluginContext."""
    register_all(ctx, tools)
