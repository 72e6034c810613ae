"""The ``model-provider`` project of ``hermes-plugin-kit new``: a folder that registers a
subclass of hermes' own ``providers.base.ProviderProfile`` while it imports, with tests
running the kit's model-provider contract suite on it.

hermes' general loader records a ``kind: model-provider`` plugin and never imports it;
``providers._discover_providers`` imports each folder of
``$HERMES_HOME/plugins/model-providers/`` on every release (``providers/__init__.py``).
The project has no entry point: hermes' ``providers/`` discovery reads none before 0.20.1,
and a ``hermes_agent.plugins`` one is the general loader's, which would look for a
``register``.
"""

from __future__ import annotations

from string import Template
from typing import Final

from kit_devtools.cli._scaffold_kinds import provider_kind

PLUGIN_YAML: Final = Template("""\
name: $name
version: 0.1.0
description: A hermes-agent model provider built with hermes-plugin-kit
# hermes' providers/ discovery imports it from $$HERMES_HOME/plugins/model-providers/
kind: model-provider
""")

INIT: Final = Template('''\
"""$name: a hermes-agent model provider (an OpenAI-compatible endpoint), registered with
hermes' provider registry as hermes imports this folder."""

from __future__ import annotations

from typing import Any

from providers import register_provider
from providers.base import ProviderProfile


class $provider(ProviderProfile):
    def build_api_kwargs_extras(
        self, *, reasoning_config: dict[str, Any] | None = None, **context: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """(extra body, top-level keywords) of each request: a reasoning effort when hermes
        asks for reasoning."""
        effort = (reasoning_config or {}).get("effort")
        return {}, ({"reasoning_effort": effort} if effort else {})


PROFILE = $provider(
    name="$name",
    display_name="$name",
    base_url="https://llm.example.invalid/v1",  # your endpoint
    env_vars=("${upper}_API_KEY",),
)
register_provider(PROFILE)
''')

TEST: Final = Template('''\
"""Tests of $name: the kit's model-provider contract suite on each host ``any_host`` gives
(the in-memory host and, with ``--hermes``, real releases: ``pytest --hermes
$floor,$newest``), and what its requests carry."""

from pathlib import Path

from kit_devtools.testing.contracts import check_provider

from $package import PROFILE

PLUGIN = Path(__file__).resolve().parents[1] / "src" / "$package"


def test_the_profile_keeps_the_model_provider_contract(any_host):
    check_provider(PLUGIN, kind="model-provider", host=any_host).assert_ok()


def test_a_reasoning_request_carries_its_effort():
    assert PROFILE.build_api_kwargs_extras(reasoning_config={"effort": "high"}) == (
        {},
        {"reasoning_effort": "high"},
    )
    assert PROFILE.build_api_kwargs_extras() == ({}, {})
    assert PROFILE.env_vars == ("${upper}_API_KEY",)
''')

README: Final = Template("""\
# $name

A hermes-agent model provider built with hermes-plugin-kit: `src/$package` registers a
subclass of hermes' own `providers.base.ProviderProfile` (the dev group installs
$hermes_requirement for it).

$provider_checks

## Into hermes

hermes imports each folder of `$$HERMES_HOME/plugins/model-providers/` (`~/.hermes` by
default) at start, on every release; copy the package there and choose the provider:

    mkdir -p "$${HERMES_HOME:-$$HOME/.hermes}/plugins/model-providers"
    cp -r src/$package "$${HERMES_HOME:-$$HOME/.hermes}/plugins/model-providers/$package"
    hermes model        # pick $name, with $${upper}_API_KEY set

It needs nothing but hermes itself, so the copy is enough.
""")

MODEL_PROVIDER: Final = provider_kind(
    "A hermes-agent model provider.", "", (README, PLUGIN_YAML, INIT, TEST)
)
