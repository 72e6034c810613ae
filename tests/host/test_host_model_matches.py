"""The host model (``kit_core.hermes``) against the hermes release installed here
(whichever distribution provides it): every fact it records for this release is what the
release itself says, read by ``scripts/host_facts.py`` in a process of its own. The host
matrix runs this on every supported release, so a stale or wrong model fails CI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from kit_core.hermes import HostRelease, installed_distribution, registry_release

FACTS = Path(__file__).resolve().parents[2] / "scripts" / "host_facts.py"


@pytest.fixture(scope="module")
def real() -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, str(FACTS)], capture_output=True, text=True, check=False, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def modelled() -> HostRelease:
    found = installed_distribution()
    assert found is not None, "no hermes is installed here"
    release = registry_release(found[1])
    assert release is not None, f"{found[0]} {found[1]} is not in the host model"
    return release


FIELDS = list(HostRelease.__slots__)


@pytest.mark.parametrize("field", FIELDS)
def test_the_model_holds_what_the_release_offers(
    field: str, real: dict[str, Any], modelled: HostRelease
) -> None:
    mine: Any = getattr(modelled, field)
    if isinstance(real[field], list):  # the model keeps names, not the order they came in
        assert sorted(as_read(mine)) == sorted(real[field])
    else:
        assert as_read(mine) == real[field]


def as_read(value: Any) -> Any:
    """A model value in the form ``scripts/host_facts.py`` prints it (JSON)."""
    if isinstance(value, frozenset | tuple):
        items: list[Any] = list(value)
        return sorted(items) if isinstance(value, frozenset) else items
    if isinstance(value, Mapping):
        return {key: as_read(item) for key, item in value.items()}
    return value


HERMES_CONSTANTS = {
    # kit_core.hermes name: (hermes' own name, the modules that hold it, oldest first)
    "MANIFEST_KINDS": (
        "_VALID_PLUGIN_KINDS", ("hermes_cli.plugins", "hermes_cli.plugins_manifest")
    ),
    "PLUGIN_PACKAGE": ("_NS_PARENT", ("hermes_cli.plugins", "hermes_cli.plugins_loader")),
    "ENTRY_POINT_GROUP": (
        "ENTRY_POINTS_GROUP", ("hermes_cli.plugins", "hermes_cli.plugins_discovery")
    ),
}  # fmt: skip
"""The facts kit_core.hermes writes out for every release, and where each release keeps
its own (0.22 split ``hermes_cli/plugins.py`` into modules)."""


@pytest.mark.parametrize("name", sorted(HERMES_CONSTANTS))
def test_a_fact_written_out_for_every_release_is_this_releases_own(name: str) -> None:
    import importlib.util

    import kit_core.hermes

    theirs, modules = HERMES_CONSTANTS[name]
    found = [
        getattr(importlib.import_module(module), theirs)
        for module in modules
        if importlib.util.find_spec(module) is not None
        and hasattr(importlib.import_module(module), theirs)
    ]
    assert found, f"no module of {modules} holds {theirs} on this release"
    mine = getattr(kit_core.hermes, name)
    assert (frozenset(found[-1]) if isinstance(mine, frozenset) else found[-1]) == mine
