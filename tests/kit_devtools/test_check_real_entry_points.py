"""``check --real`` on an installed entry point: hermes' own plugin manager loads it by
name from this environment (nothing is copied), and ``check`` reports where it disagrees.

Every plugin published on PyPI is an entry point, so without this ``--real`` could only
say it cannot run (HPK011) on the plugins people install (scripts/corpus.py).
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit_devtools.cli import main
from kit_devtools.cli._real import real_verdict
from kit_devtools.testing._real_hermes import hermes_installed

# not imported here: tests/host requires hermes imported first under its own HERMES_HOME
# processes, pipes and forks: RealHost's parent and worker are standard-library process
# plumbing, the same on every Python (3.11 here; the worker on 3.13 in the 0.22.2-py3.13 leg)
pytestmark = [
    pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed"),
    pytest.mark.python_independent,
]

PLUGIN = """
def _lookup(args, **kwargs):
    return '{"ok": true}'


def register(ctx):
    ctx.register_tool(
        name="fake_lookup",
        toolset="fake",
        schema={
            "name": "fake_lookup",
            "description": "Look a thing up.",
            "parameters": {"type": "object", "properties": {}},
        },
        handler=_lookup,
    )
    ctx.register_hook("on_session_start", lambda **kwargs: None)
"""


@pytest.fixture(autouse=True)
def forget_fake_plugin() -> Iterator[None]:
    """The in-memory host imports the plugin here: other tests install their own."""
    yield
    for name in [n for n in sys.modules if n.partition(".")[0] == "fake_plugin"]:
        del sys.modules[name]


def install(site: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """A distribution with one entry point, importable here and in hermes' process."""
    info = site / "fake_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[hermes_agent.plugins]\nfake-plugin = {value}\n")
    (site / "fake_plugin").mkdir()
    (site / "fake_plugin" / "__init__.py").write_text(textwrap.dedent(PLUGIN))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site))


def check_real(capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = main(["check", "fake-plugin", "--real", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    return status, [f["rule"] for f in report["findings"]]


def test_hermes_loads_the_entry_point_and_agrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install(tmp_path, monkeypatch, "fake_plugin")
    real = real_verdict(None, "fake-plugin")
    assert isinstance(real, dict)
    assert (real["enabled"], real["source"], real["tools"], real["hooks"]) == (
        True,
        "entrypoint",
        1,
        1,
    )
    assert check_real(capsys) == (0, [])


def test_a_function_entry_point_hermes_refuses_agrees_with_hpk007(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install(tmp_path, monkeypatch, "fake_plugin:register")
    real = real_verdict(None, "fake-plugin")
    assert isinstance(real, dict)
    assert (real["enabled"], real["error"]) == (False, "no register() function")
    assert check_real(capsys) == (1, ["HPK007"])  # no HPK010: hermes does as HPK007 says


def test_a_module_target_is_not_loaded_by_hermes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "json", "--real", "--format", "json"]) == 1  # no register()
    (real,) = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "HPK011"]
    assert "not modules" in real["message"]
