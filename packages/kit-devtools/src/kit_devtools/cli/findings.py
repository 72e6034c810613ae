"""A lint finding and the rule it is of: which rule, how bad, where, what is wrong and how
to fix it.

Each rule is declared (:func:`declare`) in the module that detects it, beside its check;
:func:`finding` fills a rule's texts with the details of one finding, and
:mod:`kit_devtools.cli.rules` imports every declaring module for the whole table.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final, NamedTuple

from kit_core.redaction import redact_text

__all__ = [
    "FAMILIES",
    "C",
    "E",
    "Finding",
    "Rule",
    "Severity",
    "W",
    "declare",
    "declared",
    "finding",
]


class Severity(enum.StrEnum):
    """How bad a finding is, by what hermes does with it: ``error``, hermes refuses,
    disables or breaks it; ``warning``, it runs but the model or the operator suffers;
    ``convention``, the kit's own advice, which hermes does not need."""

    ERROR = "error"
    WARNING = "warning"
    CONVENTION = "convention"


E, W, C = Severity.ERROR, Severity.WARNING, Severity.CONVENTION
"""The severities, short, for the rule declarations."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem ``check`` found."""

    rule: str
    severity: Severity
    where: str
    message: str
    fix: str

    def as_dict(self) -> dict[str, Any]:
        """The finding as JSON-ready data."""
        return {**asdict(self), "severity": str(self.severity)}

    def line(self) -> str:
        """One line for a terminal: ``warning HPK104 tool x: ... Fix: ...``."""
        return f"{self.severity} {self.rule} {self.where}: {self.message} Fix: {self.fix}"


class Rule(NamedTuple):
    """One rule: how bad, what is wrong, the fix (both ``str.format`` templates filled with
    a finding's details), and the hermes behaviour it mirrors."""

    severity: Severity
    message: str
    fix: str
    mirrors: str


FAMILIES: Final = (
    "plugin and manifest",
    "preflight",  # the catalogue's admission (hermes plugins validate, doctor)
    "tool schema",
    "tool name, toolset, handler",
    "commands",
    "hooks and middleware",
    "skills",
    "memory providers",
    "model providers",
    "cron scheduler providers",
    "providers hermes ignores",  # and context engines
    "provider contracts",  # check --probe: each kind driven as hermes drives it
    "compat",  # what stops a plugin loading on some hermes, and its floor
)
"""The families of rules, in the order of the whole table (the documentation's); within a
family, by id."""

_DECLARED: Final[dict[str, tuple[int, Rule]]] = {}
"""Each declared rule, by id, with the index of its family."""


def declare(family: str, rules: Mapping[str, Rule]) -> None:
    """Declare ``rules`` (id -> rule) of ``family`` (one of :data:`FAMILIES`): a detector
    module declares the rules it finds, beside its checks. An id is declared once."""
    index = FAMILIES.index(family)
    for rule_id, rule in rules.items():
        if rule_id in _DECLARED:
            raise ValueError(f"{rule_id} is declared twice")
        _DECLARED[rule_id] = (index, rule)


def declared() -> dict[str, Rule]:
    """Every rule declared so far, family by family, each family by id."""
    order = sorted(_DECLARED.items(), key=lambda item: (item[1][0], item[0]))
    return {rule_id: rule for rule_id, (_, rule) in order}


def _rule(rule_id: str) -> Rule:
    if rule_id not in _DECLARED:  # its detector is not imported yet: collect every rule
        importlib.import_module("kit_devtools.cli.rules")
    return _DECLARED[rule_id][1]


def finding(rule: str, where: str, **details: Any) -> Finding:
    """A finding of ``rule`` at ``where``, its texts filled with ``details``."""
    severity, message, fix, _ = _rule(rule)
    return Finding(  # a detail may quote plugin or hermes text: no secret of it is shown
        rule,
        severity,
        redact_text(where),
        redact_text(message.format(**details)),
        redact_text(fix.format(**details)),
    )
