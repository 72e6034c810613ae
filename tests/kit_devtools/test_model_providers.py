"""Model providers are checked as hermes loads them: its general loader records a
``model-provider`` plugin as enabled without importing it, and its ``providers/``
discovery imports it and keeps the ``ProviderProfile`` objects it registers
(tests/host/test_model_provider_parity.py holds the same against hermes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit_devtools.cli import main
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._real_hermes import hermes_installed

pytestmark = pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed")

PROVIDER = (
    "from providers import register_provider\nfrom providers.base import ProviderProfile\n\n"
    "register_provider(ProviderProfile(name='acme-llm'))\n"
)


def provider(root: Path, source: str, manifest: str = "kind: model-provider\n") -> Path:
    directory = root / "acme_llm"
    directory.mkdir()
    (directory / "__init__.py").write_text(source, encoding="utf-8")
    (directory / "plugin.yaml").write_text(f"name: acme-llm\n{manifest}", encoding="utf-8")
    return directory


def test_a_model_provider_is_enabled_unimported_and_its_profile_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["check", str(provider(tmp_path, PROVIDER)), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert (status, report["findings"]) == (0, [])
    assert (report["plugin"]["enabled"], report["plugin"]["error"]) == (True, None)
    assert report["model_provider"] == {"profiles": ["acme-llm"]}


def test_one_that_registers_no_profile_is_an_error_with_both_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "# register_provider(ProviderProfile(...)) later\n"
    status = main(["check", str(provider(tmp_path, source, "")), "--format", "json"])
    [only] = json.loads(capsys.readouterr().out)["findings"]
    assert (status, only["rule"]) == (1, "HPK603")
    assert "registered no profile with register_provider" in only["message"]
    assert "'kind: standalone'" in only["fix"]


@pytest.mark.usefixtures("hermes_imported_for_the_test")
def test_hermes_own_provider_registry_is_left_as_it_was(tmp_path: Path) -> None:
    import providers

    before = dict(providers._REGISTRY)
    assert InMemoryHost().load_model_provider(provider(tmp_path, PROVIDER)).profiles == (
        "acme-llm",
    )
    assert before == providers._REGISTRY
