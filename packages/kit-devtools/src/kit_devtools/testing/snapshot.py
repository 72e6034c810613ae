"""``assert_tool_snapshot``: fail with a diff when a tool's model-facing definition changes."""

from __future__ import annotations

import contextlib
import difflib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["assert_tool_snapshot"]

_NOT_SET = frozenset({"", "0", "false", "no", "off"})


def in_ci() -> bool:
    """Whether the run is a CI job: ``CI`` set (GitHub Actions, GitLab, most others set
    ``CI=true``) to anything but empty, ``0``, ``false``, ``no`` or ``off``."""
    return os.environ.get("CI", "").strip().lower() not in _NOT_SET


def _render(definition: Any) -> str:
    return json.dumps(definition, indent=2, ensure_ascii=False) + "\n"


def assert_tool_snapshot(
    definition: Mapping[str, Any], path: str | Path, *, update: bool = False
) -> None:
    """Compare ``definition`` (one entry of ``InMemoryHost.definitions()``) to the JSON
    snapshot at ``path``.

    The snapshot is written when it does not exist yet, or when ``update`` is true (the
    pytest option ``--update-tool-snapshots``). Otherwise a difference fails with an
    AssertionError holding a unified diff, snapshot first. In a CI job (``CI`` set) a
    missing snapshot fails instead of being written: a snapshot written there is compared
    with nothing and lost with the job, so the check would pass unseen.
    """
    target = Path(path)
    rendered = _render(definition)
    name = definition.get("function", {}).get("name", "the tool")
    if not update and not target.exists() and in_ci():
        msg = (
            f"the snapshot {target} of {name} does not exist, and this is a CI run (CI is"
            " set), where a snapshot is not written: create it locally (run the tests, or"
            " pytest --update-tool-snapshots) and commit it"
        )
        raise AssertionError(msg)
    if update or not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rendered, encoding="utf-8")
        return
    stored = target.read_text(encoding="utf-8")
    with contextlib.suppress(ValueError):  # not JSON: the diff below shows it
        stored = _render(json.loads(stored))
    if stored == rendered:
        return
    diff = "".join(
        difflib.unified_diff(
            stored.splitlines(keepends=True),
            rendered.splitlines(keepends=True),
            fromfile=f"{target} (snapshot)",
            tofile=f"{name} (now)",
        )
    )
    msg = (
        f"the model-facing definition of {name} changed from its snapshot {target}:\n{diff}"
        "If the change is intended, rerun with --update-tool-snapshots"
        " (or assert_tool_snapshot(..., update=True))."
    )
    raise AssertionError(msg)
