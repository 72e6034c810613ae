"""What a project kind of ``hermes-plugin-kit new`` is made of: its files as templates, and
the parts of ``pyproject.toml`` that differ between kinds (one module per kind:
``_scaffold_standalone``, ``_scaffold_memory``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from string import Template
from typing import Final

from kit_core.hermes import HERMES_DISTRIBUTIONS

PYPROJECT: Final = Template("""\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "$name"
version = "0.1.0"
description = "$description"
requires-python = ">=3.11"
dependencies = [$dependencies]

$entry_points$tooling_comment
[dependency-groups]
dev = ["pytest>=8,<10", "$dev_requirement"$dev_extra]

[tool.hatch.build.targets.wheel]
packages = ["src/$package"]
$sources""")
"""Every kind's ``pyproject.toml``; a kind gives ``description``, ``dependencies``,
``entry_points`` and ``dev_extra``."""

GENERAL_PLUGIN_ENTRY_POINT: Final = (
    "# pip-installed plugins are found through this entry point (hermes loads the module)\n"
    '[project.entry-points."hermes_agent.plugins"]\n$name = "$package"\n\n'
)
"""The entry-point table of a kind hermes loads as a general plugin."""

PROVIDER_CHECKS: Final = """\
    uv run python -m pytest                            # its contract and tests, in-memory
    uv run python -m pytest --hermes $floor,$newest    # and on real hermes, oldest and newest
    uv run hermes-plugin-kit check src/$package --probe   # the contract suite, as findings
    uv run hermes-plugin-kit preflight src/$package    # hermes' catalogue admission rules

`.github/workflows/plugin.yml` runs all four on every push."""
"""The commands a provider project's README opens with (``$provider_checks``)."""

TOOLING_COMMENT: Final = (
    "# the kit's author tooling (in-memory host, pytest fixtures, the hermes-plugin-kit command)"
)


@dataclass(frozen=True)
class ProjectKind:
    """One kind of project ``new`` writes."""

    description: str
    dependencies: str
    """The ``[project] dependencies`` list's items (``$requirement`` is the kit)."""
    entry_points: str
    """The entry-point table hermes finds the installed project by, with the blank line
    after it (none when hermes finds it by its folder alone)."""
    files: dict[str, Template]
    """Path in the project (``$package`` substituted) -> its content."""
    dev_extra: str = ""
    """More items of the ``dev`` dependency group (``$hermes_requirement``: hermes itself)."""
    needs: frozenset[str] = field(default_factory=frozenset[str])
    """Distributions the project requires by name beyond every kind's own."""
    words: dict[str, str] = field(default_factory=dict[str, str])
    """More placeholders of the kind's files (``$what``), with their text."""
    floor: str | None = None
    """The oldest release the kind runs on (its ``requires_hermes``, its CI's oldest);
    the oldest registry release when None."""


def provider_kind(
    description: str,
    entry_points: str,
    files: tuple[Template, Template, Template, Template],
    *,
    words: dict[str, str] | None = None,
    floor: str | None = None,
) -> ProjectKind:
    """A provider project: its README, plugin.yaml, ``__init__.py`` and test (``files``, in
    that order), no dependency but hermes itself, in its dev group."""
    readme, plugin_yaml, init, test = files
    return ProjectKind(
        description=description,
        dependencies="",
        entry_points=entry_points,
        files={
            "README.md": readme,
            "src/$package/plugin.yaml": plugin_yaml,
            "src/$package/__init__.py": init,
            "tests/test_$package.py": test,
        },
        dev_extra=', "$hermes_requirement"',
        needs=frozenset(HERMES_DISTRIBUTIONS),
        words=words or {},
        floor=floor,
    )
