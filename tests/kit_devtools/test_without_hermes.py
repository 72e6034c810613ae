"""The in-memory host where hermes-agent is not installed, for real: an environment of this
workspace synced without the ``host`` group (``.venv-nohermes-<python>``).

- It answers the parity suite's inputs exactly as it does beside an installed hermes,
  where tests/host/test_parity.py holds those answers equal to the real host's: so it
  passes the parity suite with hermes installed and without it.
- A plugin that imports a hermes module the in-memory host does not model gets HPK018
  ("install hermes-agent to check this plugin"), a warning, not a plugin defect; the same
  plugin loads where hermes is installed (tests/kit_devtools/test_in_memory_hermes_modules.py).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests.host._parity_inputs import memory_answers

from kit_core.hermes import installed_release, newest_registry_release

ROOT = Path(__file__).resolve().parents[2]
VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"
ENVIRONMENT = ROOT / f".venv-nohermes-{VERSION}"


@pytest.fixture(scope="module")
def python_without_hermes() -> Path:
    """The interpreter of this workspace's environment without hermes-agent (synced now,
    under a lock: the Python legs of ./scripts/test may run side by side)."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV",)}
    env.update(UV_PROJECT_ENVIRONMENT=str(ENVIRONMENT), UV_PYTHON_DOWNLOADS="never")
    command = [sys.executable, "-m", "uv", "sync", "--locked", "--all-packages", "--quiet",
               "--no-group", "host", "--no-group", "docs", "--python", sys.executable]  # fmt: skip
    locks = ROOT / ".cache"
    locks.mkdir(exist_ok=True)
    with (locks / f"nohermes-{VERSION}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    python = ENVIRONMENT / "bin" / "python"
    probe = "import importlib.metadata as m\ntry:\n    m.version('hermes-agent')\nexcept m.PackageNotFoundError:\n    print('absent')"  # noqa: E501
    absent = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    assert absent.stdout.strip() == "absent", "hermes-agent is installed in the environment"
    return python


def run(python: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "HERMES_"))}
    return subprocess.run(
        [str(python), *argv], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def test_the_in_memory_host_answers_the_parity_suite_alike_without_hermes(
    python_without_hermes: Path,
) -> None:
    # the same release both sides (the in-memory host plays the installed one by default,
    # the newest where none is: their tool definitions differ from 0.21.4 on)
    release = installed_release() or newest_registry_release()
    done = run(python_without_hermes, "tests/host/_parity_inputs.py", release.version)
    assert done.returncode == 0, done.stderr
    without: dict[str, Any] = json.loads(done.stdout)
    beside = memory_answers(release.version)
    assert without.keys() == beside.keys()
    for key in beside:
        assert without[key] == beside[key], key


ADAPTER = """
from gateway.config import Platform


def register(ctx):
    ctx.register_hook("on_session_start", lambda **kw: Platform)
"""


def test_a_plugin_needing_a_hermes_module_gets_a_warning_to_install_hermes(
    python_without_hermes: Path, tmp_path: Path
) -> None:
    directory = tmp_path / "echo_adapter"
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(ADAPTER), encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: echo-adapter\nkind: standalone\n", "utf-8")
    done = run(python_without_hermes, "-m", "kit_devtools", "check", str(directory), "--format",
               "json")  # fmt: skip
    report = json.loads(done.stdout)
    [only] = report["findings"]
    assert (only["rule"], only["severity"]) == ("HPK018", "warning")
    assert "imports gateway.config" in only["message"]
    assert "install hermes-agent" in only["fix"]
    assert done.returncode == 0  # not a defect of the plugin


def test_a_memory_provider_without_hermes_gets_the_same_warning(
    python_without_hermes: Path, tmp_path: Path
) -> None:
    from tests.kit_devtools._memory_providers import provider_dir

    directory = provider_dir(tmp_path, "by_register")
    done = run(python_without_hermes, "-m", "kit_devtools", "check", str(directory), "--format",
               "json")  # fmt: skip
    [only] = json.loads(done.stdout)["findings"]
    assert (only["rule"], only["message"].split(",")[0]) == ("HPK018", "the plugin imports agent")
