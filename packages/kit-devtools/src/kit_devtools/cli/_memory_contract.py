"""``check --probe`` on a memory provider: its contract suite, each violation a finding.

The suite (:func:`~kit_devtools.testing.check_memory_provider`) drives the provider on the
in-memory host ``check`` loaded it on, for the release that host plays: HPK605 for a rule
hermes breaks the provider on, HPK606 for a call that holds up the turn, HPK607 when the
provider is not available where ``check`` runs, so the rest could not be driven.
"""

from __future__ import annotations

from pathlib import Path

from kit_devtools.cli.findings import Finding
from kit_devtools.cli.rules import finding
from kit_devtools.testing import InMemoryHost, LoadedPlugin, check_memory_provider
from kit_devtools.testing._contract_memory import BLOCKS

__all__ = ["memory_contract_findings"]

UNAVAILABLE = "must return True where the provider can work"
"""The rule of an ``is_available()`` that is not True (HPK607)."""


def memory_contract_findings(host: InMemoryHost, plugin: LoadedPlugin, name: str) -> list[Finding]:
    """The contract suite's violations for the memory provider of ``plugin`` (its
    directory, as memory discovery loads it) named ``name``."""
    assert plugin.path is not None
    report = check_memory_provider(Path(plugin.path), host)
    where = f"plugin {plugin.key}"
    found: list[Finding] = []
    for v in report.violations:
        rule = "HPK606" if v.rule == BLOCKS else "HPK607" if v.rule == UNAVAILABLE else "HPK605"
        release = ", ".join(v.releases) or host.release.version
        found.append(
            finding(
                rule,
                where,
                name=name,
                release=release,
                member=v.member,
                contract_rule=v.rule,
                detail=v.detail,
                fix=v.fix.rstrip(".") or "fix it",
            )
        )
    return found
