"""``preflight --catalog-entry`` against the installed hermes' own catalogue loader.

On a release with ``hermes_cli/plugin_catalog.py`` (0.21.3 on) each example's entry is read
back by that release's ``entry_from_mapping``, and the kit's own reading of the loader's
checks (used where no release has it) refuses exactly what the loader refuses, in its
words. On an older release the entries go through the kit's reading.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kit_devtools.cli import _catalog
from kit_devtools.cli._catalog import catalog_entry, render
from kit_devtools.cli._preflight import preflight_directory
from kit_devtools.cli._upstream import has_module

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parents[2]
HAS_LOADER = has_module("hermes_cli.plugin_catalog")  # without importing hermes here
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if (p / "plugin.yaml").is_file())
REPO = "https://github.com/offendingcommit/hermes-plugin-kit"
SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture(autouse=True)
def _no_cached_releases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry is read back by the installed hermes, never a release cached here."""
    monkeypatch.setenv("HERMES_PLUGIN_KIT_HOSTS", str(tmp_path / "no-cached-releases"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_each_example_entry_is_taken_by_the_catalogue_loader(example: Path) -> None:
    report = preflight_directory(example)
    made = catalog_entry(report, repo=REPO, sha=SHA)
    rules = {f.rule for f in made.findings}
    assert not rules & {"HPK063", "HPK067"}, made.findings
    expected = "hermes_cli/plugin_catalog.py" if HAS_LOADER else "the kit's reading"
    assert expected in made.checked_by
    assert yaml.safe_load(render(made.data)) == made.data  # the file says what was checked
    assert made.data["subdir"] == f"examples/{example.name}"
    registered = (report.registered or {}).get("tools", [])  # none where register() fails
    assert made.data["capabilities"]["provides_tools"] == registered


BAD: list[dict[str, Any]] = [
    {"name": "Bad Name"},
    {"repo": "http://github.com/o/r"},
    {"repo": "git@github.com:o/r.git"},
    {"sha": "abc123"},
    {"sha": "main"},
    {"tier": "gold"},
    {"category": "games"},
]


@pytest.mark.skipif(not HAS_LOADER, reason="this release has no catalogue loader to agree with")
@pytest.mark.parametrize("change", BAD, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_the_kits_reading_refuses_what_the_loader_refuses_in_its_words(
    change: dict[str, Any],
) -> None:
    good = {
        "name": "word-tools", "repo": REPO, "sha": SHA, "description": "Words.",
        "maintainer": "offendingcommit", "tier": "community", "category": "tools",
    }  # fmt: skip
    data = {**good, **change}
    by, findings = _catalog.read_back(data, "entry")
    refusals = [f for f in findings if f.rule == "HPK063"]
    if "category" in change and not refusals:  # categories came with 0.22 (PR #111415)
        assert by.startswith("hermes 0.21."), by
        return
    (refused,) = refusals
    ours = _catalog.kit_reading(data)
    assert ours is not None
    assert refused.message == f"hermes' catalogue loader refuses the entry: {ours}"
    assert _catalog.kit_reading(good) is None
    assert _catalog.read_back(good, "entry")[1] == []
