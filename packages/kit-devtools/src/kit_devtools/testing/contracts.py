"""Provider contract suites: a provider plugin driven as hermes drives it, and checked.

hermes keeps its own base classes for providers (``agent.memory_provider.MemoryProvider``,
the context engine base, the TTS and transcription bases, ``ProviderProfile``); the kit
does not replace them. What it gives is the contract those bases leave to the author:
each kind's suite drives a provider through the lifecycle hermes uses, in hermes' order,
on the in-memory host or on a real release, and reports every rule broken as a
:class:`Violation` that names the member, the rule and the fix.

A suite is one module per kind (``_contract_<kind>``), registered in :data:`SUITES`;
:func:`check_provider` runs the one a kind names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["SUITES", "ContractFailure", "ContractReport", "Violation", "check_provider"]


@dataclass(frozen=True)
class Violation:
    """One rule of the contract a provider breaks."""

    member: str
    """The provider's member the rule is about (``sync_turn``, ``get_tool_schemas``)."""
    rule: str
    """What hermes relies on, in a few words (``must return within the turn``)."""
    detail: str
    """What the provider did instead."""
    fix: str
    """What the author changes."""
    releases: tuple[str, ...] = ()
    """The releases the rule holds on (every release the suite ran on when empty)."""

    def __str__(self) -> str:
        on = f" (hermes {', '.join(self.releases)})" if self.releases else ""
        return f"{self.member}: {self.rule}{on}: {self.detail}; fix: {self.fix}"


class ContractFailure(AssertionError):
    """A provider broke its contract: the message lists every violation."""

    def __init__(self, report: ContractReport) -> None:
        self.report = report
        lines = "\n".join(f"- {violation}" for violation in report.violations)
        super().__init__(
            f"the {report.kind} {report.target!r} breaks {len(report.violations)} rule(s) of"
            f" its contract on {report.host}:\n{lines}"
        )


@dataclass
class ContractReport:
    """What a suite found: the provider, the host it ran on, the members it drove."""

    kind: str
    target: str
    host: str
    """``memory`` or ``hermes <release>``."""
    checked: list[str] = field(default_factory=list[str])
    """The members driven, in the order hermes drives them."""
    violations: list[Violation] = field(default_factory=list[Violation])
    absent: str = ""
    """Why the release has no such kind of provider ("" when it has): nothing was driven,
    and nothing is broken."""

    @property
    def ok(self) -> bool:
        return not self.violations

    def assert_ok(self) -> None:
        """Raise :class:`ContractFailure` when any rule is broken."""
        if self.violations:
            raise ContractFailure(self)


Suite = Callable[..., ContractReport]
"""A kind's suite: ``suite(target, host=..., **options) -> ContractReport``."""

SUITES: Final[dict[str, Suite]] = {}
"""Provider kind (``memory-provider``, ``context-engine``, ``tts``, ``transcription``,
``model-provider``) -> its suite. Each ``_contract_<kind>`` module adds its own."""


def check_provider(target: Any, *, kind: str, host: Any = None, **options: Any) -> ContractReport:
    """Run the contract suite of ``kind`` on ``target`` (a directory, an entry point or a
    class, as the kind's suite takes them) on ``host`` (the in-memory host when None)."""
    _load_suites()
    suite = SUITES.get(kind)
    if suite is None:
        known = ", ".join(sorted(SUITES)) or "none yet"
        raise ValueError(f"no contract suite for the kind {kind!r}; the kinds are: {known}")
    return suite(target, host=host, **options)


def _load_suites() -> None:
    from kit_devtools.testing._provider_drive import KIND_MODULES

    for name in ("_contract_memory", *KIND_MODULES.values()):
        importlib.import_module(f"kit_devtools.testing.{name}")
