"""kit_lifecycle_contract: every lifecycle surface, declared with the kit, for the host tests."""

from pathlib import Path

from kit_core import declarations_in
from kit_lifecycle import MiddlewareSpec, plugin_skill, register_plugin

from . import surfaces

SKILLS = (
    plugin_skill(
        "klc-guide",
        Path(__file__).parent / "skills" / "klc-guide" / "SKILL.md",
        "How the lifecycle contract plugin's tool and commands fit together.",
    ),
    plugin_skill(
        "klc-extra",
        Path(__file__).parent / "skills" / "klc-extra" / "SKILL.md",
        "An optional skill this plugin does not ship.",
        optional=True,
    ),
)

SUMMARY = []


def register(ctx):
    """Register every surface in one call and keep the summary for the tests. On a host
    without middleware (before hermes-agent 0.17.0) the middleware is left out, as a plugin
    that supports such hosts does: register_plugin would refuse it, naming the release."""
    if hasattr(ctx, "register_middleware"):
        SUMMARY.append(register_plugin(ctx, surfaces, skills=SKILLS))
        return
    supported = [
        fn
        for _, fn, spec in declarations_in(surfaces)
        if callable(fn) and not isinstance(spec, MiddlewareSpec)
    ]
    SUMMARY.append(register_plugin(ctx, supported, skills=SKILLS))
