"""A project made by ``new`` put into hermes as docs/into-hermes.md says (issue 24, item 8),
on the real hermes of this environment: its Python is given a fresh environment that sees
hermes' packages (and not the kit's), as an operator's hermes environment without the kit.
Way 2's install line (the kit with ``--no-deps``) involves no hermes: it is run once, in
tests/test_packaging.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from kit_devtools.cli import main
from kit_devtools.testing._host_envs import uv_command
from kit_devtools.testing.real import RealHost


def hermes_environment(where: Path) -> Path:
    """An environment with hermes importable (this one's site-packages, read through a
    ``.pth`` line, whose own ``.pth`` files, the kit's editable installs, are not read);
    returns its Python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    (site,) = where.glob("lib/python3*/site-packages")
    (site / "hermes_site.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return where / "bin" / "python"


def uv_pip(python: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["UV_PYTHON_DOWNLOADS"] = "never"
    command = [*uv_command(), "pip", "install", "--quiet", "--python", str(python), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr


def test_a_new_project_goes_into_hermes_either_way_the_docs_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "word-tools", "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    capsys.readouterr()
    project = tmp_path / "word-tools"
    hermes_python = hermes_environment(tmp_path / "hermes-env")
    # the package copied into $HERMES_HOME/plugins/ alone: hermes' environment has no kit
    copy = tmp_path / "plugins" / "word-tools"
    shutil.copytree(project / "src" / "word_tools", copy)
    with RealHost(hermes_python, warm=False) as host:
        (plugin,) = host.load_all([copy]).values()
        assert plugin.enabled is False
        assert "No module named 'hermes_plugin_kit'" in str(plugin.error)
    # way 1: `uv pip install --python <hermes' python> .` brings the kit from the project's
    # pin and the entry point hermes finds; `hermes plugins enable word-tools` turns it on
    uv_pip(hermes_python, str(project))
    with RealHost(hermes_python, warm=False) as host:
        host.load_all([], entry_points=["word-tools"])
        (plugin,) = [p for p in host.plugins.values() if p.listed.get("key") == "word-tools"]
        assert (plugin.enabled, plugin.error, plugin.tools) == (
            True, None, ("word_tools_count_words",)
        )  # fmt: skip
        out = json.loads(host.call_tool("word_tools_count_words", {"text": "a b a"}))
    assert out == {"success": True, "data": {"words": 3, "top": [["a", 2], ["b", 1]]}}
