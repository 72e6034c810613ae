"""The façade's first check: a ``kit_core`` that is not this kit's is refused before it runs.

Another project's package named ``kit_core`` (from a package index, say) would run its own
code at import, before anything of this kit could refuse it. This kit's ``kit_core`` holds
``_build.py``, the check of the builds it runs at its import (``kit_core._build``), so a
``kit_core`` without it is not this kit's. Standard library only, importing nothing of the
kit: ``hermes-plugin-kit doctor`` loads this file on its own to word the same problem.
"""

from __future__ import annotations

import os
from importlib.util import find_spec  # loaded by the import system anyway
from typing import Final

__all__ = ["FIX", "problem", "refuse"]

FIX: Final = (  # kit_core._build.FIX, which cannot be imported before kit_core is vetted
    'install every kit package from one build: `uv add "hermes-plugin-kit @'
    ' git+<repo-url>@<sha>#subdirectory=packages/hermes-plugin-kit"` (uv builds the siblings'
    " from the same commit; without a uv project, `uv pip install --reinstall` it), remove"
    " a copy of the kit vendored into a plugin or put on sys.path ahead of the install, and"
    " never let an installer take a kit package from a package index (pip does for every"
    " sibling it is not given: docs/install.md)"
)
"""The same text as ``kit_core._build.FIX`` (a test holds them equal)."""


def problem() -> str | None:
    """Why the ``kit_core`` the import system would load is not this kit's (naming its
    folder and the fix), or None when it is."""
    spec = find_spec("kit_core")
    folder = os.path.dirname(spec.origin) if spec is not None and spec.origin else None
    if folder is not None and os.path.isfile(os.path.join(folder, "_build.py")):
        return None
    where = f"the kit_core at {folder}" if folder else "no kit_core"
    return (
        f"{where} is not hermes-plugin-kit's kit-core (it has no _build.py: another"
        f" project's package of that name, from a package index?). Fix: {FIX}"
    )


def refuse() -> None:
    """At the façade's import, before ``kit_core`` runs.

    Raises:
        ImportError: :func:`problem`'s text.
    """
    found = problem()
    if found is not None:
        raise ImportError(f"hermes_plugin_kit cannot start: {found}")
