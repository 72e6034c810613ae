"""``check --real`` loads a plugin directory through hermes-agent's own plugin manager, in
a process of its own, and reports where hermes and the in-memory host disagree (marked
``host``: it needs the real hermes installed)."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests.kit_devtools._cron_providers import provider_dir as cron_dir
from tests.kit_devtools._memory_providers import provider_dir

from kit_core.hermes import installed_release, newest_registry_release, version_key
from kit_devtools.cli import main
from kit_devtools.cli._real import (
    NOT_DISCOVERED,
    cron_disagreements,
    disagreements,
    memory_disagreements,
    real_verdict,
    real_verdicts,
)
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._cron_provider import CRON_SINCE

ROOT = Path(__file__).resolve().parents[2]


RELEASE = installed_release() or newest_registry_release()


@pytest.mark.parametrize("example", ["unit-convert", "team-notes", "media-postcard"])
def test_hermes_and_the_in_memory_host_agree_on_every_example(
    example: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a release without middleware, team-notes (which declares some) is refused by
    hermes and by the in-memory host playing that release, for the same reason."""
    status = main(["check", str(ROOT / "examples" / example), "--real", "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    if example == "team-notes" and not RELEASE.offers("register_middleware"):
        assert status == 1
        found = {f["rule"]: f["message"] for f in report["findings"]}
        # no HPK010: both refuse it; HPK014: its requires_hermes (>=0.17.0) excludes this
        # release, which does not read the field
        assert sorted(found) == ["HPK001", "HPK014"]
        assert (
            f"hermes-agent {RELEASE.version} has no register_middleware(): it came with"
            " hermes-agent 0.17.0" in found["HPK001"]
        )
        return
    assert status == 0
    assert report["findings"] == []


def test_hermes_verdict_is_read_from_its_own_loader() -> None:
    real = real_verdict(ROOT / "examples" / "media-postcard", "media-postcard")
    assert isinstance(real, dict)
    assert (real["enabled"], real["tools"], real["hooks"], real["error"]) == (True, 1, 2, None)


def test_a_disagreement_is_an_error_naming_each_difference(tmp_path: Path) -> None:
    loaded = InMemoryHost().load(ROOT / "examples" / "unit-convert")
    real = real_verdict(ROOT / "examples" / "unit-convert", "unit-convert")
    assert isinstance(real, dict)
    assert disagreements(real, loaded) == []
    drifted = dataclasses.replace(loaded, tools=loaded.tools[:1], enabled=False)
    assert disagreements(real, drifted) == [
        "enabled: hermes True, in memory False",
        "tools: hermes 2, in memory 1",
    ]


def test_when_hermes_itself_breaks_on_a_plugin_the_reason_is_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "unquoted"
    directory.mkdir()
    (directory / "__init__.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    (directory / "plugin.yaml").write_text(textwrap.dedent("name: yes\n"), encoding="utf-8")
    main(["check", str(directory), "--real", "--format", "json"])
    rules = {f["rule"]: f for f in json.loads(capsys.readouterr().out)["findings"]}
    assert "HPK009" in rules  # refused in memory: the name is a boolean
    # from 0.15.2 on, hermes keeps the boolean as the plugin's key, and its own
    # list_plugins() then fails sorting a bool among strings; older releases never list it
    message = rules["HPK011"]["message"]
    assert (
        "hermes failed while importing hermes and loading it: TypeError: '<' not supported"
        " between instances of 'bool' and 'str'"
        in message
        or "hermes did not discover it" in message
    )


RAISES_AFTER_A_TOOL = """
def _lookup(args, **kwargs):
    return '{"ok": true}'


def register(ctx):
    schema = {
        "name": "kitr_lookup",
        "description": "Look a thing up.",
        "parameters": {"type": "object", "properties": {}},
    }
    ctx.register_tool(name="kitr_lookup", toolset="kitr", schema=schema, handler=_lookup)
    raise RuntimeError("the second half of register failed")
"""


ONE_TOOL = RAISES_AFTER_A_TOOL.replace(
    '    raise RuntimeError("the second half of register failed")\n', ""
)
"""A plugin that registers one tool and returns."""


def plugin_directory(parent: Path, name: str, source: str) -> Path:
    directory = parent / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    (directory / "plugin.yaml").write_text(
        f"name: {name}\nversion: 1.0.0\nkind: standalone\n", encoding="utf-8"
    )
    return directory


def test_a_plugin_both_hosts_refuse_is_an_agreement_whatever_it_registered_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # register() registered a tool, then raised: hermes lists the plugin as not enabled
    # (with none of it), the in-memory host credits the tool it got first; both refuse it
    directory = plugin_directory(tmp_path, "kitr-half", RAISES_AFTER_A_TOOL)
    real = real_verdict(directory, "kitr-half")
    assert isinstance(real, dict)
    assert real["enabled"] is False
    assert "the second half of register failed" in str(real["error"])
    status = main(["check", str(directory), "--real", "--format", "json"])
    rules = [f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert (status, rules) == (1, ["HPK001"])


def test_check_real_judges_the_directory_not_an_entry_point_of_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # an installed package's entry point holds the directory's name: through 0.21.3 hermes
    # keeps the entry point and the directory never loads (HPK019); from 0.21.4 the
    # directory keeps its name. check --real must judge the directory in either case
    site = tmp_path / "site"
    (site / "kitr_shadow_pkg").mkdir(parents=True)
    (site / "kitr_shadow_pkg" / "__init__.py").write_text(
        "def register(ctx):\n    pass\n", encoding="utf-8"
    )
    install_entry_point(site, monkeypatch, "kitr-shadow = kitr_shadow_pkg")
    directory = plugin_directory(
        tmp_path,
        "kitr-shadow",
        ONE_TOOL,
    )
    status = main(["check", str(directory), "--real", "--format", "json"])
    rules = [f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]]
    if RELEASE.directory_beats_entry_point:
        assert (status, rules) == (0, [])
        real = real_verdict(directory, "kitr-shadow")
        assert isinstance(real, dict)
        assert (real["source"], real["enabled"], real["tools"]) == ("user", True, 1)
    else:
        assert (status, rules) == (1, ["HPK019"])  # no HPK010: hermes does as HPK019 says
        assert real_verdict(directory, "kitr-shadow") == NOT_DISCOVERED


def test_check_real_of_a_directory_its_own_entry_point_names_loads_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a plugin project synced with uv: its entry point names the package directory check
    # is pointed at (issue 24, item 1). hermes loads that plugin once, through the entry
    # point (through 0.21.3) or the directory (from 0.21.4): no HPK019, no disagreement
    site = tmp_path / "site"
    site.mkdir()
    directory = plugin_directory(site, "kitr_own", ONE_TOOL)
    (directory / "plugin.yaml").write_text(
        "name: kitr-own\nversion: 1.0.0\nkind: standalone\n", encoding="utf-8"
    )
    install_entry_point(site, monkeypatch, "kitr-own = kitr_own")
    status = main(["check", str(directory), "--real", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert (status, report["findings"]) == (0, [])
    real = real_verdict(directory, "kitr-own")
    assert isinstance(real, dict)
    assert (real["enabled"], real["tools"]) == (True, 1)
    expected = "user" if RELEASE.directory_beats_entry_point else "entrypoint"
    assert real["source"] == expected


def install_entry_point(site: Path, monkeypatch: pytest.MonkeyPatch, line: str) -> None:
    """A distribution declaring the ``hermes_agent.plugins`` entry point ``line``,
    importable here and in hermes' process."""
    info = site / "kitr_entry-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kitr-entry\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[hermes_agent.plugins]\n{line}\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site))


def test_an_entry_point_naming_an_object_with_a_register_loads_in_hermes_and_in_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # hermes reads register off what ep.load() gives: an object that has one loads (no
    # HPK007, which a function on a release before entry_point_callable gets)
    package = tmp_path / "kitr_object_pkg"
    package.mkdir()
    source = ONE_TOOL.replace("def register(ctx):", "def _register(ctx):")
    source += "\n\nimport types\n\nplugin = types.SimpleNamespace(register=_register)\n"
    (package / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    install_entry_point(tmp_path, monkeypatch, "kitr-object = kitr_object_pkg:plugin")
    real = real_verdict(None, "kitr-object")
    assert isinstance(real, dict)
    assert (real["enabled"], real["tools"], real["error"]) == (True, 1, None)
    status = main(["check", "kitr-object", "--real", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert (status, report["findings"]) == (0, [])
    assert [t["function"]["name"] for t in report["tools"]] == ["kitr_lookup"]


STRAIGHT_INTO_THE_TABLE = """
SEEN = []


def _cb(**kwargs):
    SEEN.append(kwargs.get("tool_name"))


def register(ctx):
    ctx._manager._hooks.setdefault("pre_tool_call", []).append(_cb)
"""


def test_a_hook_appended_straight_into_the_managers_table_is_credited_as_hermes_credits_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # hermes' table is the manager's own: before the registration ledger (0.20.1) the
    # loader credits what the table gained; a ledger release credits only its registrars
    directory = plugin_directory(tmp_path, "kitr-straight", STRAIGHT_INTO_THE_TABLE)
    real = real_verdict(directory, "kitr-straight")
    assert isinstance(real, dict)
    assert (real["enabled"], real["hooks"]) == (True, 0 if RELEASE.registration_ledger else 1)
    status = main(["check", str(directory), "--real", "--format", "json"])
    assert (status, json.loads(capsys.readouterr().out)["findings"]) == (0, [])
    host = InMemoryHost()
    loaded = host.load(directory)
    assert loaded.hooks == (() if RELEASE.registration_ledger else ("pre_tool_call",))
    host.invoke_hook("pre_tool_call", tool_name="kitr_probe", args={}, task_id="t")
    assert loaded.module is not None
    assert loaded.module.SEEN == ["kitr_probe"]  # it runs, credited or not


def test_a_memory_provider_folder_without_a_manifest_is_compared_by_memory_discovery(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hermes' general loader never discovers a folder without plugin.yaml, but its memory
    discovery loads one (``plugins.memory.find_provider_dir``: the text test alone):
    ``check --real`` compares that, not the general loader's silence."""
    directory = provider_dir(tmp_path, "by_register")
    (directory / "plugin.yaml").unlink()
    real = real_verdicts(directory, "by_register", memory=True)
    theirs = real.memory
    assert real.general == NOT_DISCOVERED
    assert theirs == {"name": "recall", "tools": ["recall_search"]}
    mine = InMemoryHost().load_memory_provider(directory)
    assert memory_disagreements(theirs, mine) == []
    drifted = dataclasses.replace(mine, tools=())
    assert memory_disagreements(theirs, drifted) == [
        "memory provider's tools: hermes ['recall_search'], in memory []"
    ]
    assert memory_disagreements(None, mine) == ["memory provider: hermes None, in memory 'recall'"]
    status = main(["check", str(directory), "--real", "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert (status, report["findings"]) == (0, [])  # was HPK011: "hermes did not discover it"


def test_a_cron_scheduler_folder_is_compared_by_cron_discovery(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hermes' cron discovery (0.18.0 on) loads a folder by its text, plugin.yaml or not:
    ``check --real`` compares the scheduler it gets with the in-memory host's."""
    directory = cron_dir(tmp_path, "by_register")
    real = real_verdicts(directory, "by_register", cron=True)
    mine = InMemoryHost().load_cron_provider(directory)
    if version_key(RELEASE.version) < version_key(CRON_SINCE):  # no cron discovery here
        assert isinstance(real.cron, str)
        assert "cron_providers" in real.cron
        assert mine.provider is None
        return
    assert real.cron == {"name": "ticker"}
    assert cron_disagreements(real.cron, mine) == []
    drifted = dataclasses.replace(mine, provider=None)
    assert cron_disagreements(real.cron, drifted) == [
        "cron scheduler: hermes 'ticker', in memory None"
    ]
    status = main(["check", str(directory), "--real", "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert (status, report["findings"]) == (0, [])
    assert report["cron_provider"]["name"] == "ticker"
