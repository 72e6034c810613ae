"""Kit installs laid out by hand, imported for real in a fresh interpreter.

A package folder holds links to this checkout's source files and, for a wheel, the stamp
``packages/build_stamp.py`` would write (``<package>/_build.json``); a checkout is the
workspace's layout (``packages/<member>/src/<package>``, the pyproject files). The
interpreter runs with ``-I -S`` (nothing of this environment's site-packages) and the
given folders first on ``sys.path``: it imports what is laid out and the standard
library alone, which is all the kit's runtime needs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import kit_core

CHECKOUT = Path(kit_core.__file__).resolve().parents[3]  # .../packages
PACKAGES = ("kit_core", "kit_lifecycle", "kit_media", "hermes_plugin_kit", "kit_devtools")
RUNTIME = PACKAGES[:4]

TREE_A, TREE_B = "a1" * 32, "b2" * 32
SHA_A = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
SHA_B = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"


def member(package: str) -> str:
    return package.replace("_", "-")


def lay(folder: Path, package: str) -> Path:
    """``folder``: the package ``package`` of this checkout, its files linked, no stamp."""
    folder.mkdir(parents=True)
    for entry in (CHECKOUT / member(package) / "src" / package).iterdir():
        if entry.name not in ("__pycache__", "_build.json"):
            (folder / entry.name).symlink_to(entry)
    return folder


def write_stamp(folder: Path, tree: str, commit: str | None = SHA_A, **more: str) -> None:
    stamp = {"version": "0.1.0", "tree": tree, "commit": commit, **more}
    (folder / "_build.json").write_text(json.dumps(stamp, sort_keys=True) + "\n")


def wheel(site: Path, package: str, tree: str = TREE_A, commit: str | None = SHA_A) -> Path:
    """``package`` installed from a wheel of the tree ``tree`` into ``site``."""
    folder = lay(site / package, package)
    write_stamp(folder, tree, commit)
    return folder


def wheels(site: Path, *packages: str, tree: str = TREE_A, commit: str | None = SHA_A) -> Path:
    for package in packages or RUNTIME:
        wheel(site, package, tree, commit)
    return site


def checkout(root: Path, package: str, version: str = "0.1.0") -> Path:
    """``package`` in a checkout of the workspace at ``root``: its ``src`` folder (what an
    editable install puts on ``sys.path``)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[tool.uv.workspace]\nmembers = ["packages/*"]\n')
    src = root / "packages" / member(package) / "src"
    lay(src / package, package)
    (src.parent / "pyproject.toml").write_text(
        f'[project]\nname = "{member(package)}"\nversion = "{version}"\n'
    )
    return src


def run(
    path: list[Path], code: str = "import hermes_plugin_kit"
) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter that imports from ``path`` and the standard library."""
    entries = [str(p) for p in path]
    return subprocess.run(
        [sys.executable, "-I", "-S", "-B", "-c", f"import sys; sys.path[:0] = {entries!r}\n{code}"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip


def refusal(path: list[Path], code: str = "import hermes_plugin_kit") -> str:
    """The ``ImportError`` importing ``code`` ends with: refused, naming the fix."""
    done = run(path, code)
    assert done.returncode != 0, (code, done.stdout)
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("ImportError: "), done.stderr
    assert "Fix: install every kit package from one build" in message, message
    return message.removeprefix("ImportError: ")
