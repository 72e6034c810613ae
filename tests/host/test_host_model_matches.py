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


def test_the_manifest_kinds_are_the_releases_own() -> None:
    """``MANIFEST_KINDS`` is what this release's manifest reader takes (0.22 moved the set
    from ``hermes_cli/plugins.py`` to ``hermes_cli/plugins_manifest.py``)."""
    import importlib

    from kit_core.hermes import MANIFEST_KINDS

    for module in ("hermes_cli.plugins_manifest", "hermes_cli.plugins"):
        try:
            found = getattr(importlib.import_module(module), "_VALID_PLUGIN_KINDS", None)
        except ImportError:
            continue
        if found is not None:
            assert frozenset(found) == MANIFEST_KINDS
            return
    pytest.fail("this release's manifest reader holds no _VALID_PLUGIN_KINDS")
