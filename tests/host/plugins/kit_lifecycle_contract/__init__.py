"""kit_lifecycle_contract: every lifecycle surface, declared with the kit, for the host tests."""

from pathlib import Path

from kit_lifecycle import plugin_skill, register_plugin

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
    """Register every surface in one call and keep the summary for the tests."""
    SUMMARY.append(register_plugin(ctx, surfaces, skills=SKILLS))
