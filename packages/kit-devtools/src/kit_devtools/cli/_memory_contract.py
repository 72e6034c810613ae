"""``check --probe`` on a memory provider: its contract suite, each violation a finding.

The suite (:func:`~kit_devtools.testing.check_memory_provider`) drives the provider on the
in-memory host ``check`` loaded it on, for the release that host plays: HPK605 for a rule
hermes breaks the provider on, HPK606 for a call that holds up the turn, HPK607 when the
provider is not available where ``check`` runs, so the rest could not be driven.
"""

from __future__ import annotations

from pathlib import Path

from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding
from kit_devtools.testing import InMemoryHost, LoadedPlugin, check_memory_provider
from kit_devtools.testing._contract_memory import BLOCKS

__all__ = ["memory_contract_findings"]

declare("memory providers", {
    "HPK605": Rule(E, "the memory provider {name!r} breaks its contract on hermes {release}:"
                   " {member}: {contract_rule}: {detail}", "{fix}",
                   "check --probe drives the provider as agent start and each turn drive it"
                   " (kit_devtools.testing.check_memory_provider): hermes' MemoryManager"
                   " catches and logs what a provider raises, so the member's work is lost;"
                   " skips a schema without a name and drops a core tool's name; hands the"
                   " model what handle_tool_call returns"
                   " (agent.memory_manager.MemoryManager.add_provider,"
                   " agent.memory_manager.MemoryManager.get_all_tool_schemas,"
                   " agent.memory_manager.MemoryManager.handle_tool_call,"
                   " agent.memory_manager.MemoryManager.initialize_all,"
                   " agent.memory_manager.MemoryManager.shutdown_all); a real release's own"
                   " MemoryManager gives the same"
                   " verdict (tests/host/test_memory_contract.py)"),
    "HPK606": Rule(W, "the memory provider {name!r} holds up the turn on hermes {release}:"
                   " {member}: {detail}", "{fix}",
                   "hermes calls prefetch before each model call"
                   " (agent.turn_context.build_turn_context), and sync_turn and"
                   " queue_prefetch at the turn's end (agent.memory_manager.MemoryManager.sync_all,"
                   " agent.memory_manager.MemoryManager.queue_prefetch_all): on the agent's"
                   " thread before 0.17.0, on the manager's single worker thread after it"
                   " (agent.memory_manager.MemoryManager._submit_background), which every"
                   " later write waits for and shutdown abandons after 5 s"
                   " (agent.memory_manager.MemoryManager._drain_sync_executor)"),
    "HPK607": Rule(W, "the memory provider {name!r} was not driven: {member}: {detail}",
                   "{fix}; then run check --probe again",
                   "agent start adds the provider only when is_available() returns True"
                   " (agent.agent_init.init_agent): the contract cannot be driven further"),
})  # fmt: skip

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
