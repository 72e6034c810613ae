"""The memory-provider contract suite on the real hermes of this run (marked ``host``: every
registry release): the provider is loaded by hermes' own memory discovery and driven through
hermes' own ``MemoryManager`` in the release's worker (``RealHost.memory_contract``).

The provider of docs/providers.md keeps its contract on every release; each broken variant
fails with the one violation it fails with on the in-memory host playing this release (the
kit's model of the manager agrees with hermes'). One hermes worker serves the module; each
provider is one start of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.kit_devtools._memory_contract_providers import (
    BROKEN,
    EXPECTED,
    TURN_BOUND,
    provider_dir,
)

from kit_core._host_model import installed_release
from kit_devtools.testing import InMemoryHost, RealHost, check_memory_provider
from kit_devtools.testing._memory_lifecycle import lifecycle

pytestmark = pytest.mark.host

RELEASE = installed_release()


@pytest.fixture(scope="module")
def hermes() -> Iterator[RealHost]:
    with RealHost() as host:
        yield host


def test_the_docs_provider_keeps_its_contract_on_this_release(
    hermes: RealHost, tmp_path: Path
) -> None:
    directory = provider_dir(tmp_path, "recall")
    report = check_memory_provider(directory, hermes)
    assert RELEASE is not None
    assert report.host == f"hermes {RELEASE.version}"
    assert report.violations == []
    memory = check_memory_provider(directory, InMemoryHost(hermes=RELEASE.version))
    assert report.checked == memory.checked  # the same lifecycle, read from the release


def test_initialize_gets_the_keywords_agent_start_passes_on_this_release(
    hermes: RealHost, tmp_path: Path
) -> None:
    """From 0.21.3 the worker reads the keywords from the release's own builder
    (``_memory_provider_init_kwargs``): the kit's table must name the same ones."""
    assert RELEASE is not None
    assert check_memory_provider(provider_dir(tmp_path, "recording"), hermes).ok
    passed = json.loads((hermes.hermes_home / "initialized.json").read_text(encoding="utf-8"))
    assert passed == sorted(lifecycle(RELEASE.version).init_kwargs)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_broken_provider_fails_on_hermes_as_in_memory(
    name: str, hermes: RealHost, tmp_path: Path
) -> None:
    assert RELEASE is not None
    directory = provider_dir(tmp_path, name)
    real = check_memory_provider(directory, hermes, turn_bound=TURN_BOUND)
    member, rule, words = EXPECTED[name]
    assert [(v.member, v.rule) for v in real.violations] == [(member, rule)]
    assert words in real.violations[0].detail
    assert real.violations[0].releases == (RELEASE.version,)
    memory = check_memory_provider(
        directory, InMemoryHost(hermes=RELEASE.version), turn_bound=TURN_BOUND
    )
    assert [(v.member, v.rule) for v in memory.violations] == [(member, rule)]


def test_a_release_named_as_hermes_names_it_is_started_for_the_check(tmp_path: Path) -> None:
    assert RELEASE is not None
    report = check_memory_provider(provider_dir(tmp_path, "recall"), "installed")
    assert (report.host, report.violations) == (f"hermes {RELEASE.version}", [])
