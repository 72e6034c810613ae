"""The memory-provider contract suite on the real hermes of this run (marked ``host``: every
registry release): the provider is loaded by hermes' own memory discovery and driven through
hermes' own ``MemoryManager`` in the release's worker (``RealHost.memory_contracts``).

The provider of docs/providers.md keeps its contract on every release; each broken variant
fails with the one violation it fails with on the in-memory host playing this release (the
kit's model of the manager agrees with hermes'). hermes starts once for the module: every
provider is driven in that one start, each through a ``MemoryManager`` of its own
(``check_memory_providers``).
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

from kit_core.hermes import installed_release
from kit_devtools.testing import (
    ContractReport,
    InMemoryHost,
    RealHost,
    check_memory_provider,
    check_memory_providers,
)
from kit_devtools.testing._memory_lifecycle import lifecycle

pytestmark = pytest.mark.host

RELEASE = installed_release()
PROVIDERS = ("recall", "recording", *sorted(BROKEN))
"""Every provider the module drives: the docs' one, the recording one, each broken one."""


@pytest.fixture(scope="module")
def hermes() -> Iterator[RealHost]:
    with RealHost() as host:
        yield host


@pytest.fixture(scope="module")
def reports(
    hermes: RealHost, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, ContractReport]:
    """Each provider's report, from one start of hermes (a blocking provider's sync_turn is
    given :data:`TURN_BOUND` seconds, as every other provider's)."""
    root = tmp_path_factory.mktemp("providers")
    directories = [provider_dir(root, name) for name in PROVIDERS]
    found = check_memory_providers(directories, hermes, turn_bound=TURN_BOUND)
    return dict(zip(PROVIDERS, found, strict=True))


def test_the_docs_provider_keeps_its_contract_on_this_release(
    reports: dict[str, ContractReport], tmp_path: Path
) -> None:
    report = reports["recall"]
    assert RELEASE is not None
    assert report.host == f"hermes {RELEASE.version}"
    assert report.target.endswith("recall")
    assert report.violations == []
    memory = check_memory_provider(
        provider_dir(tmp_path, "recall"), InMemoryHost(hermes=RELEASE.version)
    )
    assert report.checked == memory.checked  # the same lifecycle, read from the release


def test_initialize_gets_the_keywords_agent_start_passes_on_this_release(
    reports: dict[str, ContractReport], hermes: RealHost
) -> None:
    """From 0.21.3 the worker reads the keywords from the release's own builder
    (``_memory_provider_init_kwargs``): the kit's table must name the same ones."""
    assert RELEASE is not None
    assert reports["recording"].ok
    passed = json.loads((hermes.hermes_home / "initialized.json").read_text(encoding="utf-8"))
    assert passed == sorted(lifecycle(RELEASE.version).init_kwargs)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_broken_provider_fails_on_hermes_as_in_memory(
    name: str, reports: dict[str, ContractReport], tmp_path: Path
) -> None:
    assert RELEASE is not None
    real = reports[name]
    assert real.target.endswith(name)  # the reports are in the providers' order
    member, rule, words = EXPECTED[name]
    assert [(v.member, v.rule) for v in real.violations] == [(member, rule)]
    assert words in real.violations[0].detail
    assert real.violations[0].releases == (RELEASE.version,)
    memory = check_memory_provider(
        provider_dir(tmp_path, name), InMemoryHost(hermes=RELEASE.version), turn_bound=TURN_BOUND
    )
    assert [(v.member, v.rule) for v in memory.violations] == [(member, rule)]
