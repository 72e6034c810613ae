"""The README's main-job command, run as a plugin author would run it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.python_independent  # the scripts run the project's own environment


def test_the_example_command_checks_and_calls_the_bundled_plugin() -> None:
    # as an author runs it: in the project's own environment, not a test leg's
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
    }
    run = subprocess.run(
        ["bash", str(ROOT / "scripts" / "example")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    # it says what it does before anything slow (installing uv, syncing)
    assert run.stderr.startswith("hermes-plugin-kit example: installing the kit's packages")
    lines = run.stdout.splitlines()
    assert lines[0].startswith("plugin unit-convert (directory: ")
    assert lines[0].endswith("): enabled")
    assert "0 error(s), 0 warning(s), 0 convention(s)" in lines
    assert '"name": "units_convert_temperature",' in run.stdout
    assert json.loads(lines[-1]) == {
        "success": True,
        "data": {"value": 70.7, "scale": "fahrenheit"},
    }
    # only what the example needs: the kit's five packages and PyYAML, none of the dev,
    # host or docs groups (hermes, pytest, pyright, mkdocs come with ./scripts/test)
    site = next((ROOT / ".venv-example" / "lib").glob("python3.*/site-packages"))
    installed = sorted(p.name.split("-")[0].lower() for p in site.glob("*.dist-info"))
    assert installed == [
        "hermes_plugin_kit",
        "kit_core",
        "kit_devtools",
        "kit_lifecycle",
        "kit_media",
        "pyyaml",
    ]


DEBIAN_PYTHON = Path("/usr/bin/python3")


def test_uv_is_found_or_installed_beside_an_externally_managed_python(tmp_path: Path) -> None:
    """Debian's and Ubuntu's own python3 refuses ``pip install`` (PEP 668); the set-up
    scripts then put uv in a private virtual environment in the user's cache."""
    assert DEBIAN_PYTHON.exists(), "this test needs the distribution's own /usr/bin/python3"
    refused = subprocess.run(
        [str(DEBIAN_PYTHON), "-m", "pip", "install", "--dry-run", "uv"],
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0
    assert "externally-managed-environment" in refused.stderr
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(DEBIAN_PYTHON)
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    (checkout / "scripts" / "_find_uv.sh").write_bytes(
        (ROOT / "scripts" / "_find_uv.sh").read_bytes()
    )
    run = subprocess.run(
        ["bash", "-c", 'source scripts/_find_uv.sh && "${UV[@]}" --version'],
        capture_output=True,
        text=True,
        cwd=checkout,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("uv 0.13.")
    assert (tmp_path / ".cache" / "hermes-plugin-kit" / "uv" / "bin" / "uv").is_file()
    assert not (checkout / ".cache").exists()
    assert run.stderr == ""


REFUSING_PYTHON3 = """#!/bin/sh
# python3 as Debian ships it: pip may not install into it (PEP 668)
if [ "$1" = "-m" ] && [ "$2" = "pip" ] && [ "$3" = "install" ]; then
  echo "error: externally-managed-environment" >&2
  exit 1
fi
exec /usr/bin/python3 "$@"
"""


def test_in_an_activated_venv_uv_is_installed_quietly_and_runs_without_warnings(
    tmp_path: Path,
) -> None:
    """A fresh machine: no uv, a python3 that refuses ``pip install``, a virtual environment
    of the user's own activated. uv goes into ``$XDG_CACHE_HOME/hermes-plugin-kit/uv``
    without a word, and runs on the checkout's project with no ``VIRTUAL_ENV`` warning."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(REFUSING_PYTHON3)
    (bin_dir / "python3").chmod(0o755)
    activated = tmp_path / "my-venv"
    subprocess.run([str(DEBIAN_PYTHON), "-m", "venv", "--without-pip", str(activated)], check=True)
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    (checkout / "scripts" / "_find_uv.sh").write_bytes(
        (ROOT / "scripts" / "_find_uv.sh").read_bytes()
    )
    (checkout / "pyproject.toml").write_text(
        '[project]\nname = "fresh"\nversion = "0"\nrequires-python = ">=3.11"\n'
    )
    script = (
        'source scripts/_find_uv.sh >find.out 2>find.err && "${UV[@]}" run python -c'
        " \"import os, sys; print(sys.prefix); print(os.environ.get('VIRTUAL_ENV', ''))\""
    )
    env = {
        "PATH": f"{bin_dir}:{activated / 'bin'}:/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
        "VIRTUAL_ENV": str(activated),
        "UV_OFFLINE": "1",
    }
    run = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, cwd=checkout, env=env
    )
    assert run.returncode == 0, run.stderr
    assert (checkout / "find.out").read_text() == ""
    assert (checkout / "find.err").read_text() == ""
    assert (tmp_path / "xdg" / "hermes-plugin-kit" / "uv" / "bin" / "uv").is_file()
    assert "warning" not in run.stderr.lower()
    assert "VIRTUAL_ENV" not in run.stderr
    prefix, _ = run.stdout.splitlines()
    assert Path(prefix) == checkout / ".venv"
