"""A ready GitHub Actions workflow for a plugin: ``check``, its tests on the oldest and the
newest hermes it supports, and ``preflight`` (``preflight --ci-workflow`` prints it; ``new``
may write it as ``.github/workflows/plugin.yml``)."""

from __future__ import annotations

from string import Template
from typing import Final

from kit_core._host_model import registry_releases
from kit_devtools.testing._requires_hermes import version_satisfies

__all__ = ["ci_workflow", "host_span"]

WORKFLOW: Final = Template("""\
# Written by hermes-plugin-kit: check, tests on the oldest and newest hermes, preflight.
name: plugin

on:
  push:
  pull_request:

jobs:
  plugin:
    runs-on: ubuntu-latest
    env:
      UV_PYTHON: "3.11"
    steps:
      - uses: actions/checkout@v4
      - uses: astral-sh/setup-uv@v6
      - name: Install
        run: uv sync
      - name: Lint the plugin in the in-memory host
        run: uv run hermes-plugin-kit check $plugin
      - name: Tests on hermes $oldest and $newest
        run: uv run python -m pytest --hermes $oldest,$newest
      - name: Catalogue admission (hermes plugins validate's rules)
        run: uv run hermes-plugin-kit preflight $plugin
""")


def host_span(requires_hermes: str = "") -> tuple[str, str]:
    """The oldest and the newest registry release the spec admits (every one when empty;
    the kit's whole span when it admits none)."""
    versions = [r.version for r in registry_releases()]
    admitted = [v for v in versions if not requires_hermes or version_satisfies(requires_hermes, v)]
    chosen = admitted or versions
    return chosen[0], chosen[-1]


def ci_workflow(plugin: str, requires_hermes: str = "") -> str:
    """The workflow for the plugin directory ``plugin`` (relative to the repository root)."""
    oldest, newest = host_span(requires_hermes)
    return WORKFLOW.substitute(plugin=plugin, oldest=oldest, newest=newest)
