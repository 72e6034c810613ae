"""The registration summary and its one-line receipt."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import cast

__all__ = ["RegistrationSummary", "log_registration_summary"]

RECEIPT_PREFIX = "hermes_plugin_kit: registered plugin lifecycle"

_RECEIPT_ORDER = (
    "commands",
    "cli_commands",
    "tools",
    "middlewares",
    "hooks",
    "skills",
    "skipped_optional_skills",
)


def _iterable(value: object) -> Iterable[object]:
    if isinstance(value, Iterable):
        return cast("Iterable[object]", value)
    msg = f"expected a tuple of names, got {type(value).__name__}"
    raise TypeError(msg)


@dataclass(frozen=True, slots=True)
class RegistrationSummary:
    """What ``register_plugin`` registered, each a sorted tuple of names.

    The first four fields keep the positions of the earlier kit's summary, so code that
    builds one positionally keeps working; prefer keywords.
    """

    tools: tuple[str, ...] = ()
    hooks: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    skipped_optional_skills: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    middlewares: tuple[str, ...] = ()
    cli_commands: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for f in fields(self):
            given: object = getattr(self, f.name)
            names = () if isinstance(given, str) else tuple(_iterable(given))
            if isinstance(given, str) or not all(isinstance(v, str) for v in names):
                msg = f"RegistrationSummary.{f.name} must be a tuple of names, got {given!r}"
                raise TypeError(msg)
            object.__setattr__(self, f.name, tuple(sorted(cast("tuple[str, ...]", names))))


def log_registration_summary(
    logger: logging.Logger, plugin_name: str, summary: RegistrationSummary
) -> str:
    """Log the receipt of a registration at INFO, exactly once, and return its text::

        hermes_plugin_kit: registered plugin lifecycle; plugin=<name>; commands=a,b;
        cli_commands=<none>; tools=...; middlewares=...; hooks=...; skills=...;
        skipped_optional_skills=<none>

    (one line). Lists are comma-joined without spaces; an empty list is ``<none>``.
    A custom registration path should call this with its own summary rather than
    invent a second receipt format.
    """
    if not isinstance(logger, logging.Logger):
        msg = f"logger must be a logging.Logger, got {type(logger).__name__}"
        raise TypeError(msg)
    if not isinstance(summary, RegistrationSummary):
        msg = f"summary must be a RegistrationSummary, got {type(summary).__name__}"
        raise TypeError(msg)
    if not isinstance(plugin_name, str) or not plugin_name.strip():
        msg = "plugin_name must be a non-empty string"
        raise ValueError(msg)
    parts = [RECEIPT_PREFIX, f"plugin={plugin_name.strip()}"]
    parts += [f"{key}={','.join(getattr(summary, key)) or '<none>'}" for key in _RECEIPT_ORDER]
    receipt = "; ".join(parts)
    logger.info("%s", receipt)
    return receipt
