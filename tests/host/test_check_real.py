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

from kit_core._host_model import installed_release, newest_registry_release
from kit_devtools.cli import main
from kit_devtools.cli._real import disagreements, real_verdict
from kit_devtools.testing import InMemoryHost

ROOT = Path(__file__).resolve().parents[2]


RELEASE = installed_release() or newest_registry_release()


@pytest.mark.parametrize("example", ["unit-convert", "team-notes", "media-postcard"])
def test_hermes_and_the_in_memory_host_agree_on_every_example(
    example: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a release without middleware, team-notes (which declares some) is refused by
    hermes: ``check --real`` reports the disagreement with hermes' own reason."""
    status = main(["check", str(ROOT / "examples" / example), "--real", "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    if example == "team-notes" and not RELEASE.offers("register_middleware"):
        # hermes refuses the plugin for its middleware; the in-memory host offers every
        # older surface on every release, so the two disagree, with hermes' own reason
        assert status == 1
        found = {f["rule"]: f["message"] for f in report["findings"]}
        assert "HPK010" in found
        assert "enabled: hermes False, in memory True" in found["HPK010"]
        assert (
            f"hermes' error: hermes-agent {RELEASE.version} has no register_middleware(): it"
            " came with hermes-agent 0.17.0" in found["HPK010"]
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
