"""pytest plugin of hermes-plugin-kit (registered through the ``pytest11`` entry point).

Fixtures:

* ``plugin_host``: a fresh strict :class:`~kit_devtools.testing.InMemoryHost` per test:
  ``plugin_host.load(...)`` raises :class:`~kit_devtools.testing.PluginLoadError`, saying
  why and where, when the plugin does not load;
* ``tool_snapshot``: ``tool_snapshot(definition, path=None)`` checks a tool definition
  against its JSON snapshot (by default ``snapshots/<tool name>.json`` next to the test
  file; a relative ``path`` is taken from there too). ``--update-tool-snapshots``
  rewrites the snapshots instead of failing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing.host import InMemoryHost
from kit_devtools.testing.snapshot import assert_tool_snapshot

__all__ = ["plugin_host", "pytest_addoption", "tool_snapshot"]

UPDATE_OPTION = "--update-tool-snapshots"

SnapshotCheck = Callable[..., None]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hermes-plugin-kit")
    group.addoption(
        UPDATE_OPTION,
        action="store_true",
        default=False,
        help="rewrite tool definition snapshots (tool_snapshot) instead of comparing",
    )


@pytest.fixture
def plugin_host() -> InMemoryHost:
    """A fresh in-memory hermes host with no plugin loaded; ``load()`` raises when a plugin
    does not load."""
    return InMemoryHost(strict=True)


@pytest.fixture
def tool_snapshot(request: pytest.FixtureRequest) -> SnapshotCheck:
    """``check(definition, path=None)``: compare to (or, with the option, rewrite) a snapshot."""
    update = bool(request.config.getoption(UPDATE_OPTION))
    folder = Path(str(request.path)).parent

    def check(definition: Mapping[str, Any], path: str | Path | None = None) -> None:
        if path is None:
            name = str(definition.get("function", {}).get("name", "tool"))
            target = folder / "snapshots" / f"{name}.json"
        else:
            target = Path(path) if Path(path).is_absolute() else folder / path
        assert_tool_snapshot(definition, target, update=update)

    return check
