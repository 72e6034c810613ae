"""``assert_tool_snapshot``: fail with a diff when a tool's model-facing definition changes."""

from __future__ import annotations

import contextlib
import difflib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["assert_tool_snapshot"]


def _render(definition: Any) -> str:
    return json.dumps(definition, indent=2, ensure_ascii=False) + "\n"


def assert_tool_snapshot(
    definition: Mapping[str, Any], path: str | Path, *, update: bool = False
) -> None:
    """Compare ``definition`` (one entry of ``InMemoryHost.definitions()``) to the JSON
    snapshot at ``path``.

    The snapshot is written when it does not exist yet, or when ``update`` is true (the
    pytest option ``--update-tool-snapshots``). Otherwise a difference fails with an
    AssertionError holding a unified diff, snapshot first.
    """
    target = Path(path)
    rendered = _render(definition)
    if update or not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rendered, encoding="utf-8")
        return
    stored = target.read_text(encoding="utf-8")
    with contextlib.suppress(ValueError):  # not JSON: the diff below shows it
        stored = _render(json.loads(stored))
    if stored == rendered:
        return
    name = definition.get("function", {}).get("name", "the tool")
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
