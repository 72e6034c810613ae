"""Cron scheduler providers are loaded as hermes' cron discovery loads them
(``plugins.cron_providers.load_cron_scheduler``, the path ``cron.provider: <name>``
takes, hermes-agent 0.18.0 on) and checked as its cron resolver uses them.
tests/host/test_cron_provider_parity.py holds the same folders against hermes' own
loader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.kit_devtools._cron_providers import provider_dir

from kit_devtools.cli import main
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._real_hermes import hermes_installed

pytestmark = pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed")


@pytest.mark.parametrize(
    ("name", "how"),
    [
        ("by_register", "register(ctx)"),
        ("by_subclass", "CronScheduler subclass"),
        ("register_raises", "CronScheduler subclass"),
    ],
)
def test_a_working_provider_is_found_with_its_name(name: str, how: str, tmp_path: Path) -> None:
    loaded = InMemoryHost().load_cron_provider(provider_dir(tmp_path, name))
    assert (loaded.name, loaded.how, loaded.problems) == ("ticker", how, ())


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("wrong_registrar", "register(ctx) raised AttributeError"),
        ("import_fails", "importing it raised ImportError"),
        ("abstract", "Ticker() raised TypeError: Can't instantiate abstract class Ticker"),
    ],
)
def test_a_folder_that_gives_no_provider_says_why(name: str, why: str, tmp_path: Path) -> None:
    loaded = InMemoryHost().load_cron_provider(provider_dir(tmp_path, name))
    assert loaded.provider is None
    assert why in loaded.how


def test_what_the_cron_resolver_trips_over_is_a_problem(tmp_path: Path) -> None:
    directory = provider_dir(tmp_path, "by_register")
    init = directory / "__init__.py"
    source = init.read_text("utf-8").replace('return "ticker"', "return ''")
    raising = "    def is_available(self):\n        raise OSError('no endpoint')\n\n    def start("
    init.write_text(source.replace("    def start(", raising), "utf-8")
    assert InMemoryHost().load_cron_provider(directory).problems == (
        "name is '', not a non-empty string",
        "is_available() raised OSError: no endpoint",
    )
    init.write_text(
        "class Bare:\n    name = 'bare'\n\n\ndef register(ctx):  # CronScheduler-less\n"
        "    ctx.register_cron_scheduler(Bare())\n",
        "utf-8",
    )
    assert InMemoryHost().load_cron_provider(directory).problems == (
        "has no is_available",
        "has no start",
    )


def test_a_release_before_cron_providers_gets_no_scheduler(tmp_path: Path) -> None:
    """hermes-agent 0.17.0 has ``cron.scheduler_provider`` but no ``plugins/cron_providers``:
    nothing loads the folder there, whatever it holds."""
    directory = provider_dir(tmp_path, "by_register")
    loaded = InMemoryHost(hermes="0.17.0").load_cron_provider(directory)
    assert loaded.provider is None
    assert (
        loaded.how == "hermes-agent 0.17.0 has no cron scheduler providers (they came with 0.18.0)"
    )
    assert InMemoryHost(hermes="0.18.0").load_cron_provider(directory).name == "ticker"


def check(target: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    status = main(["check", str(target), "--format", "json"])
    return status, json.loads(capsys.readouterr().out)


def test_check_shows_the_scheduler_of_a_folder_without_a_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = check(provider_dir(tmp_path, "by_register"), capsys)
    assert (status, report["findings"]) == (0, [])  # no HPK009: cron discovery needs none
    assert report["cron_provider"] == {"name": "ticker", "loaded_by": "register(ctx)"}


def test_check_reports_a_folder_that_gives_no_scheduler_and_what_the_resolver_trips_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "__init__.py").write_text("# register_cron_scheduler\ndef register(ctx):\n    pass\n")
    status, report = check(empty, capsys)
    [only] = report["findings"]
    assert (status, only["rule"], only["severity"]) == (1, "HPK608", "error")
    assert "register(ctx) never called ctx.register_cron_scheduler" in only["message"]
    directory = provider_dir(tmp_path, "by_subclass")
    init = directory / "__init__.py"
    raising = "    def is_available(self):\n        raise OSError('no endpoint')\n\n    def start("
    init.write_text(init.read_text("utf-8").replace("    def start(", raising), "utf-8")
    status, report = check(directory, capsys)
    [only] = report["findings"]
    assert (status, only["rule"]) == (1, "HPK609")
    assert "'ticker' is_available() raised OSError: no endpoint" in only["message"]


def test_a_general_plugin_that_registers_a_scheduler_is_judged_on_both_halves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hermes' general loader does not re-kind a cron provider: with a plugin.yaml it loads
    it, and 0.19.0's PluginContext has no register_cron_scheduler."""
    directory = provider_dir(tmp_path, "by_register")
    (directory / "plugin.yaml").write_text(
        "name: by_register\nkind: standalone\n", encoding="utf-8"
    )
    status, report = check(directory, capsys)
    assert [f["rule"] for f in report["findings"]] == ["HPK001"]
    assert "register_cron_scheduler" in report["findings"][0]["message"]
    assert status == 1
    assert report["cron_provider"]["name"] == "ticker"
