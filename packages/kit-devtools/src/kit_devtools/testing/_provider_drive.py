"""What every provider suite's driver shares, where the provider lives: in this process for
the in-memory host, or in hermes' worker for a real release (loaded there by path, so it
needs only the standard library; nothing of the kit is imported here).

A driver calls the provider's members as hermes calls them and returns plain data: the
members it drove (``checked``) and the rules broken (``violations``, each a dict of
``member``, ``rule``, ``detail`` and ``fix``), which the kit turns into
:class:`~kit_devtools.testing.contracts.Violation` objects.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, cast

from kit_core.hermes import PLUGIN_PACKAGE

Finding = dict[str, str]


class Drive:
    """One provider driven: the members called, in order, and the rules it broke."""

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.violations: list[Finding] = []

    def broke(self, member: str, rule: str, detail: str, fix: str) -> None:
        self.violations.append({"member": member, "rule": rule, "detail": detail, "fix": fix})

    def call(self, member: str, call: Callable[[], Any], *, rule: str, fix: str) -> Any:
        """``call()`` as hermes makes it; a raise is a violation (``rule``), None returned."""
        self.checked.append(member)
        try:
            return call()
        except Exception as exc:
            self.broke(member, rule, f"raised {type(exc).__name__}: {exc}", fix)
            return None

    def blank(self, member: str, value: Any, why: str, fix: str) -> bool:
        """Whether ``value`` is no non-empty string (a violation of ``member``)."""
        if isinstance(value, str) and value.strip():
            return False
        self.broke(member, "must be a non-empty string", f"it is {value!r}: {why}", fix)
        return True

    def result(self, absent: str = "") -> dict[str, Any]:
        return {"checked": self.checked, "violations": self.violations, "absent": absent}


def raised_type_error(exc: BaseException) -> bool:
    """Whether ``exc`` is the TypeError of a call hermes' arguments do not bind to."""
    return isinstance(exc, TypeError) and "argument" in str(exc)


def attribute(module: str, name: str) -> Any:
    """``module.name`` of the hermes this process has, or None where it has no such."""
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


def function(module: str, name: str) -> Callable[..., Any] | None:
    """The callable ``module.name`` of the hermes this process has, or None."""
    found = attribute(module, name)
    return cast("Callable[..., Any]", found) if callable(found) else None


def base_of(provider: object, module: str, name: str) -> Any:
    """hermes' class ``module.name`` as ``provider``'s class inherits it (the very class the
    plugin imported, though the in-memory host has since dropped that import), else the
    one this process imports; None where hermes has no such class."""
    for cls in type(provider).__mro__:
        if cls.__module__ == module and cls.__name__ == name:
            return cls
    return attribute(module, name)


def version_tuple(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for part in version.split(".")[:3]:
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def hermes_version() -> str:
    """The release of the hermes this process imports ("" when it has none)."""
    found = attribute("hermes_cli", "__version__")
    return str(found) if found else ""


def plugin_owned(provider: object, module: str) -> bool:
    """Whether ``provider``'s class comes from the plugin module ``module`` (any plugin hermes
    loaded from the home, under ``hermes_plugins.``, when ``module`` is "")."""
    owner = type(provider).__module__
    prefix = module or PLUGIN_PACKAGE
    return owner == prefix or owner.startswith(prefix + ".")


def normalized(schema: object) -> dict[str, Any] | None:
    """``agent.memory_manager.normalize_tool_schema``: a bare function schema, or one
    already wrapped as ``{"type": "function", "function": ...}``, unwrapped; None when it
    has no non-empty string name."""
    if not isinstance(schema, dict):
        return None
    found = cast("dict[str, Any]", schema)
    if found.get("type") == "function" and isinstance(found.get("function"), dict):
        found = cast("dict[str, Any]", found["function"])
    name = found.get("name", "")
    return found if isinstance(name, str) and name else None


KIND_MODULES: dict[str, str] = {
    "context-engine": "_contract_engine",
    "tts": "_contract_speech",
    "transcription": "_contract_speech",
    "model-provider": "_contract_model",
}
"""Provider kind -> the module of its driver (in ``kit_devtools.testing``)."""


def drive_registered(kind: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """In hermes' worker: drive every provider of ``kind`` the home's plugins gave hermes'
    own registries, with hermes' own calls; one result per provider (``provider``: its
    name, then ``checked``, ``violations``, ``absent``)."""
    module = importlib.import_module(f"kit_devtools.testing.{KIND_MODULES[kind]}")
    found: list[dict[str, Any]] = module.drive_registered(kind, options)
    return found


def add_suite(kind: str, drive: Callable[[Any, str, frozenset[str]], dict[str, Any]]) -> None:
    """Add ``kind``'s suite to ``contracts.SUITES``: ``suite(target, host=None, **options)``,
    the providers ``target`` gives hermes driven by ``drive`` on ``host`` (the in-memory host
    when None, or a RealHost: ``_contract_run.run_suite``)."""
    from kit_devtools.testing.contracts import SUITES

    def suite(target: Any, host: Any = None, **options: Any) -> Any:
        from kit_devtools.testing._contract_run import run_suite

        return run_suite(kind, target, host, drive, options)

    SUITES[kind] = suite
