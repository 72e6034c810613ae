"""Keep the kit-lifecycle unit tests independent of a real hermes-agent in the process.

kit_lifecycle consults ``sys.modules`` for the host's hook list, built-in commands,
async-hook support, tool registry and config. When the whole suite runs, the
real-host tests may already have imported hermes; these unit tests assert the kit's
own behaviour ("hermes is not imported", "hermes is not importable"), so every test
module here runs with those host modules hidden and ``hermes_cli`` unimportable.
Tests that need a host module plant a fake one with ``monkeypatch``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

HOST_MODULES = (
    "hermes_cli.plugins",
    "hermes_cli.plugins_dispatch",
    "hermes_cli.commands",
    "hermes_cli.main",
    "hermes_cli.config",
    "tools.registry",
)


@pytest.fixture(scope="module", autouse=True)
def _without_hermes() -> Iterator[None]:
    # module-scoped (not the function-scoped ``monkeypatch``) so hypothesis tests may use it
    with pytest.MonkeyPatch.context() as mp:
        for name in HOST_MODULES:
            mp.delitem(sys.modules, name, raising=False)
        # a None entry makes ``import hermes_cli.config`` raise ImportError
        mp.setitem(sys.modules, "hermes_cli", None)
        yield
