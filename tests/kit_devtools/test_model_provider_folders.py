"""The model-provider suite on a folder as hermes' ``providers/`` discovery takes one:
``$HERMES_HOME/plugins/model-providers/<name>/`` needs an ``__init__.py`` and no
``plugin.yaml`` (0.19.0 ``providers/__init__.py`` 140-171), and hermes' general loader,
which reads plugin.yaml, plays no part. Found on the corpus: every model provider
published behind an entry point ships its package folder with no plugin.yaml
(bytesbrains-cruise-hermes, hermes-antigravity, hermes-claude-bridge)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from tests.kit_devtools._provider_kinds import model_source

from kit_devtools.testing import InMemoryHost, RealHost
from kit_devtools.testing._real_hermes import hermes_installed
from kit_devtools.testing.contracts import ContractReport, check_provider

pytestmark = pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed")

NOTHING = """
from providers.base import ProviderProfile  # imports, and registers no profile
"""


def folder(root: Path, name: str, source: str) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return directory


def both(directory: Path) -> tuple[ContractReport, ContractReport]:
    memory = check_provider(directory, kind="model-provider", host=InMemoryHost())
    with RealHost() as real:
        found = check_provider(directory, kind="model-provider", host=real)
    return memory, found


def test_a_folder_without_plugin_yaml_is_driven_on_real_hermes(tmp_path: Path) -> None:
    memory, real = both(folder(tmp_path, "acme_llm", model_source("acme_llm")))
    assert (memory.violations, real.violations) == ([], [])
    assert "build_api_kwargs_extras" in real.checked
    assert real.checked == memory.checked


def test_a_folder_that_registers_no_profile_is_a_violation_on_both_hosts(tmp_path: Path) -> None:
    memory, real = both(folder(tmp_path, "empty_llm", NOTHING))
    rules = [("register", "must register a ProviderProfile hermes keeps")]
    assert [(v.member, v.rule) for v in memory.violations] == rules
    assert [(v.member, v.rule) for v in real.violations] == rules
    assert "providers.register_provider(profile)" in memory.violations[0].fix
