"""The build stamp every kit wheel carries: ``<package>/_build.json``.

A hatchling build hook (each member's ``pyproject.toml`` names this file). Every kit
package has the same version between releases, so the version cannot tell two builds
apart; the stamp can. It holds the version, a SHA-256 of the runtime source of every
member of the workspace the wheel was built in (``packages/*/src``, and each member's
``pyproject.toml``), and the Git commit when the build ran in a Git checkout. Wheels
built from one tree carry one stamp, so ``kit_core`` can tell at import whether its
siblings are of its build (``kit_core._build``). An editable install carries none: it
is the checkout itself.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

STAMP = "_build.json"
SKIPPED = ("__pycache__", ".pyc", STAMP)


def tree_hash(packages: Path) -> str:
    """SHA-256 of the members' runtime sources and pyproject files, by relative path."""
    digest = hashlib.sha256()
    files = sorted(
        path
        for member in packages.iterdir()
        if (member / "pyproject.toml").is_file()
        for path in [member / "pyproject.toml", *(member / "src").rglob("*")]
        if path.is_file() and not any(part.endswith(SKIPPED) for part in path.parts)
    )
    for path in files:
        digest.update(path.relative_to(packages).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def commit(folder: Path) -> str | None:
    """The Git commit checked out at ``folder``, when it is in a Git checkout."""
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    found = done.stdout.strip()
    return found if done.returncode == 0 and len(found) >= 40 else None


class StampHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        root = Path(self.root)
        metadata: Any = self.metadata  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        stamp = {
            "version": metadata.version,
            "tree": tree_hash(root.parent),
            "commit": commit(root),
        }
        self._folder = tempfile.mkdtemp(prefix="kit-stamp-")
        file = Path(self._folder) / STAMP
        file.write_text(json.dumps(stamp, sort_keys=True) + "\n", encoding="utf-8")
        package = metadata.name.replace("-", "_")
        build_data["force_include"][str(file)] = f"{package}/{STAMP}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
