"""The installed versions of the kit packages, and the check that they agree.

Versions are read from the ``<name>-<version>.dist-info`` directory names on
``sys.path`` (what ``importlib.metadata`` finds first too), without importing
``importlib.metadata``: the check runs at every import of the façade.
"""

from __future__ import annotations

import os
import sys
from typing import Final

KIT_DISTRIBUTIONS: Final = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit")


def kit_versions() -> dict[str, str | None]:
    """Each kit distribution's installed version (None when it is not installed).

    One pass over ``sys.path``; the first ``<name>-<version>.dist-info`` found wins, as
    for ``importlib.metadata``.
    """
    prefixes = {dist.replace("-", "_") + "-": dist for dist in KIT_DISTRIBUTIONS}
    found: dict[str, str | None] = dict.fromkeys(KIT_DISTRIBUTIONS)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if not name.endswith(".dist-info"):
                continue
            for prefix, dist in prefixes.items():
                if found[dist] is None and name.startswith(prefix):
                    found[dist] = name[len(prefix) : -len(".dist-info")]
        if all(found.values()):
            break
    return found


def version_problem(versions: dict[str, str | None]) -> str | None:
    """Why these versions cannot work together, or None when they can."""
    missing = [d for d, v in versions.items() if v is None]
    if missing:
        return f"kit packages missing: {', '.join(missing)}"
    distinct = sorted({v for v in versions.values() if v is not None})
    if len(distinct) > 1:
        listing = ", ".join(f"{d}=={v}" for d, v in versions.items())
        return f"the kit packages are at different versions ({listing})"
    return None


FIX: Final = (
    'Install every kit package from one commit: `uv add "hermes-plugin-kit @'
    ' git+<repo-url>@<sha>#subdirectory=packages/hermes-plugin-kit"` (uv resolves the siblings'
    " from the same commit), and keep every plugin of the profile on that commit."
)


def check_versions() -> None:
    """Refuse to run on a mix of kit versions (several plugins share one environment).

    Raises:
        ImportError: naming the versions found and how to fix them.
    """
    problem = version_problem(kit_versions())
    if problem is not None:
        msg = f"hermes_plugin_kit cannot start: {problem}. {FIX}"
        raise ImportError(msg)
