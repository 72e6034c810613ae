"""A ready GitHub Actions workflow for a plugin: ``check``, its tests on the oldest and the
newest hermes it supports, and ``preflight`` (``preflight --ci-workflow`` prints it; ``new``
may write it as ``.github/workflows/plugin.yml``)."""

from __future__ import annotations

from string import Template
from typing import Final

from kit_core.hermes import registry_releases
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
      - name: $check_step
        run: uv run hermes-plugin-kit check $plugin$check_options
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


CHECKS: Final = {
    "standalone": ("Lint the plugin in the in-memory host", ""),
    "memory-provider": ("The memory provider's contract in the in-memory host", " --probe"),
    "context-engine": ("The context engine's contract in the in-memory host", " --probe"),
    "tts": ("The TTS provider's contract in the in-memory host", " --probe"),
    "transcription": ("The transcription provider's contract in the in-memory host", " --probe"),
    "model-provider": ("The model provider's contract in the in-memory host", " --probe"),
}
"""Project kind -> the ``check`` step's name and options (a provider's ``--probe`` runs its
contract suite)."""


def ci_workflow(plugin: str, requires_hermes: str = "", kind: str = "standalone") -> str:
    """The workflow for the plugin directory ``plugin`` (relative to the repository root)
    of the project ``kind`` (a key of :data:`CHECKS`)."""
    oldest, newest = host_span(requires_hermes)
    step, options = CHECKS[kind]
    return WORKFLOW.substitute(
        plugin=plugin, oldest=oldest, newest=newest, check_step=step, check_options=options
    )
