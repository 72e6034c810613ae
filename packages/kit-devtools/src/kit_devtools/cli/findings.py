"""A lint finding: which rule, how bad, where, what is wrong and how to fix it."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["Finding", "Severity"]


class Severity(enum.StrEnum):
    """``error`` breaks the plugin on the host; ``warning`` is a risk or a bad habit."""

    ERROR = "error"
    WARNING = "warning"


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
        """One line for a terminal: ``error HPK104 tool x: ... Fix: ...``."""
        return f"{self.severity} {self.rule} {self.where}: {self.message} Fix: {self.fix}"
