"""What the test run records for the support table in docs/hosts.md (``scripts/host_matrix.py``).

With ``KIT_HOST_RESULTS`` set, the outcomes are written there as JSON at the end of the
session, counted by row (``rows``): the real-host tests (``tests/host``), by file or by a
``surface`` marker; a row whose surface the release lacks is marked ``refused`` (what
passed there is the kit's refusal, or its note that it does without).

Every release of the table is installed and run, upstream 0.20-0.22 too (through the
registry's packagings of it): a column counts what ran on that release, never an
in-memory host playing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from kit_core.hermes import installed_release

# A loaded machine must not fail a run: every property runs without a deadline and without
# the health checks that measure speed (test modules' own @settings inherit this profile;
# the hardening suite's profile says the same).
settings.register_profile(
    "hpk",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("hpk")

HOST = Path(__file__).resolve().parent / "host"
RESULTS_VARIABLE = "KIT_HOST_RESULTS"
ROWS = {
    "test_host_contract.py": "tools: schema, dispatch, envelope",
    "test_lifecycle_contract.py": "commands, hooks, skills, receipt, rollback",
    "test_media_contract.py": "media delivery (kit-media)",
    "test_check_real.py": "check --real",
    "test_host_model_matches.py": "host model matches the release",
    "test_typed_tools.py": "typed tools: the spec style's definitions",
    "test_argument_errors.py": "tools: every argument error at once",
    "test_rich_results.py": "tools: images and files (Rich)",
    "test_install_scan.py": "hermes' install scan (preflight --scan)",
    "test_catalog_entry.py": "the catalogue entry (preflight --catalog-entry)",
    "test_every_release.py": "every release claimed (preflight --every-release)",
    "test_plugin_settings.py": "plugin settings (load_plugin_config)",
    "test_into_hermes.py": "a project installed into hermes as the docs say",
}
"""Support table row of each real-host test file (a ``surface`` marker overrides it)."""

RELEASE = installed_release()

_OUTCOMES: dict[str, dict[str, dict[str, int]]] = {"rows": {}}
"""``rows`` -> row -> passed/failed/skipped counts (and ``refused``)."""


@pytest.fixture(autouse=True)
def _not_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs as on an author's machine, whether the suite runs in CI or not: the
    kit behaves differently in a CI job (``CI`` set: a missing tool snapshot fails), and a
    test of that sets ``CI`` itself. Unset here, it is unset for the commands tests run."""
    monkeypatch.delenv("CI", raising=False)


def row_of(item: pytest.Item) -> str | None:
    """The support table row a real-host test counts toward (None: not one)."""
    marker = item.get_closest_marker("surface")
    if marker is not None:
        return str(marker.args[0])
    return ROWS.get(item.path.name) if HOST in item.path.parents else None


def absent_here(item: pytest.Item) -> bool:
    """Whether the test's surface is one this release lacks: a ``lacks`` test, or a
    ``surface(row, requires=...)`` whose ``PluginContext`` member or hermes function the
    release does not have."""
    if item.get_closest_marker("lacks") is not None:
        return True
    marker = item.get_closest_marker("surface")
    requires = marker.kwargs.get("requires") if marker is not None else None
    if requires is None or RELEASE is None:
        return False
    return not RELEASE.offers(requires) and requires not in RELEASE.functions


def _count(kind: str, row: str, outcome: str, refused: bool = False) -> None:
    counts = _OUTCOMES[kind].setdefault(row, {"passed": 0, "failed": 0, "skipped": 0})
    counts[outcome] += 1  # a setup error counts as a failure of the test
    if refused:
        counts["refused"] = 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A case of ``any_host`` or ``real_host`` that runs on a real hermes release (an id
    with ``hermes-``) is marked ``host``, as everything under tests/host is."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "hermes-" in str(callspec.id):
            item.add_marker(pytest.mark.host)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call" or report.outcome != "passed":
        row = row_of(item)
        if row is not None:
            _count("rows", row, report.outcome, absent_here(item))
    return report


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = os.environ.get(RESULTS_VARIABLE)
    if not target or RELEASE is None:
        return
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    found = {"version": RELEASE.version, **_OUTCOMES}
    Path(target).write_text(json.dumps(found, indent=1, sort_keys=True))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many processes plugins under test started were checked, and how many had ended
    (the hostile-plugin and real-host tests: every one must have)."""
    from tests._processes import CHECKED

    if CHECKED:
        terminalreporter.write_sep("-", "processes left by plugins")
        terminalreporter.write_line(
            f"processes plugins started, checked after the run: {sum(CHECKED.values())};"
            f" ended: {CHECKED['ended']}; still alive when checked: {CHECKED['alive']}"
        )
