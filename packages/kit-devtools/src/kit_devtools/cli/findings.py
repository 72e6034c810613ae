"""A lint finding: which rule, how bad, where, what is wrong and how to fix it."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["Finding", "Severity"]


class Severity(enum.StrEnum):
    """How bad a finding is, by what hermes does with it: ``error``, hermes refuses,
    disables or breaks it; ``warning``, it runs but the model or the operator suffers;
    ``convention``, the kit's own advice, which hermes does not need."""

    ERROR = "error"
    WARNING = "warning"
    CONVENTION = "convention"


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
