"""The memory-provider contract suite (``SUITES["memory-provider"]``).

A provider is driven through the lifecycle of ``_memory_lifecycle`` by ``_memory_drive``:
on the in-memory host through the kit's model of hermes' ``MemoryManager``
(``_memory_manager_model``), for the release the host plays; on a real release through
hermes' own ``MemoryManager``, in the release's worker process, so the verdict on what
hermes does with each answer is hermes' own.

The target is a provider directory (loaded as hermes' memory discovery loads one, from
``$HERMES_HOME/plugins/<folder>``), a ``MemoryProvider`` subclass, or an instance. A real
release loads the provider itself, from a directory: a class or an instance is taken from
the directory whose ``__init__.py`` defines it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from kit_devtools.testing import _memory_drive, _memory_members
from kit_devtools.testing._host_choice import HostChoice, parse_hosts
from kit_devtools.testing._memory_lifecycle import lifecycle
from kit_devtools.testing._memory_manager_model import ModelManager
from kit_devtools.testing._memory_provider import core_tools
from kit_devtools.testing.contracts import SUITES, ContractReport, Violation
from kit_devtools.testing.host import InMemoryHost
from kit_devtools.testing.real import RealHost

__all__ = ["KIND", "TURN_BOUND", "check_memory_provider", "check_memory_providers"]

KIND: Final = "memory-provider"
TURN_BOUND: Final = 2.0
"""Seconds a call on the turn's path (``prefetch``, ``sync_turn``, ``queue_prefetch``) may
take before the suite says it blocks: generous for a provider that queues its work."""
BLOCKS: Final = _memory_members.BLOCKS


def check_memory_provider(
    target: Any, host: Any = None, *, turn_bound: float = TURN_BOUND
) -> ContractReport:
    """Drive the memory provider ``target`` (a directory, a ``MemoryProvider`` subclass or
    an instance) as hermes drives it, on ``host``: an :class:`InMemoryHost` (a fresh one
    when None), a :class:`RealHost`, or a release as ``--hermes`` names one (``installed``,
    ``0.19.0``, ``newest``), started for this check and closed after it. ``turn_bound``:
    the seconds a call on the turn's path may take. Call ``assert_ok()`` on the report."""
    (report,) = check_memory_providers([target], host, turn_bound=turn_bound)
    return report


def check_memory_providers(
    targets: Sequence[Any], host: Any = None, *, turn_bound: float = TURN_BOUND
) -> list[ContractReport]:
    """:func:`check_memory_provider` for several providers, one report each, in order: on
    a real release, hermes starts once for all of them (each is still loaded by hermes'
    memory discovery and driven through a ``MemoryManager`` of its own)."""
    if isinstance(host, str):
        (choice,) = parse_hosts(host) or [HostChoice("installed")]
        host = choice
    if isinstance(host, HostChoice):
        with RealHost(host.python()) as real:
            return _on_real(targets, real, turn_bound)
    if isinstance(host, RealHost):
        return _on_real(targets, host, turn_bound)
    return [
        _in_memory(target, host if isinstance(host, InMemoryHost) else InMemoryHost(), turn_bound)
        for target in targets
    ]


def _run(target: Any, host: Any = None, **options: Any) -> ContractReport:
    return check_memory_provider(target, host, **options)


SUITES[KIND] = _run


def _label(target: Any) -> str:
    if isinstance(target, str | Path):
        return str(target)
    kind = target if isinstance(target, type) else type(target)
    return f"{kind.__module__}.{kind.__qualname__}"


def _report(target: Any, release: str, host: str, found: dict[str, Any]) -> ContractReport:
    report = ContractReport(KIND, _label(target), host, list(found["checked"]))
    report.violations = [
        Violation(v["member"], v["rule"], v["detail"], v["fix"], (release,))
        for v in found["violations"]
    ]
    return report


def _no_provider(target: Any, release: str, host: str, why: str) -> ContractReport:
    """A report for a target hermes gets no provider from: each abstract member the error
    names, else the discovery's own words."""
    members = _abstract(why)
    found: dict[str, Any] = {"checked": [], "violations": []}
    for member in members or ["MemoryProvider"]:
        found["violations"].append({
            "member": member,
            "rule": "MemoryProvider declares it abstract: hermes calls it"
            if members
            else "hermes' memory discovery must get a provider from it",
            "detail": why,
            "fix": f"implement {member} as agent.memory_provider.MemoryProvider declares it"
            if members
            else "call ctx.register_memory_provider(provider) in register(), or define one"
            " MemoryProvider subclass hermes can instantiate with no arguments",
        })  # fmt: skip
    return _report(target, release, host, found)


_ABSTRACT: Final = re.compile(r"abstract methods? ('?\w+'?(?:(?:,\s*|,?\s+and\s+)'?\w+'?)*)")


def _abstract(why: str) -> list[str]:
    """The members an ``abstract class`` TypeError names (3.11 and 3.12 wordings)."""
    found = _ABSTRACT.search(why)
    if found is None:
        return []
    names = re.split(r",\s*|\s+and\s+", found.group(1))
    return [n.strip(" '\"") for n in names if n.strip(" '\"")]


def _in_memory(target: Any, host: InMemoryHost, bound: float) -> ContractReport:
    release = host.release.version
    provider, why = _provider(target, host)
    if provider is None:
        return _no_provider(target, release, "memory", why)
    from kit_devtools.cli._probe_args import arguments_for  # cli imports this package

    found_core = core_tools()
    facts: dict[str, Any] = {
        "optional": list(lifecycle(release).optional),
        "init_kwargs": list(lifecycle(release).init_kwargs),
        "background_sync": lifecycle(release).background_sync,
        "core_tools": sorted(found_core),
        "hermes_home": str(host.hermes_home),
    }
    manager = ModelManager(lifecycle(release), found_core)
    with host.activate():
        found = _memory_drive.drive(provider, manager, facts, bound=bound, args_for=arguments_for)
    return _report(target, release, "memory", found)


def _provider(target: Any, host: InMemoryHost) -> tuple[Any, str]:
    """The provider instance of ``target``, or None and why hermes would get none."""
    if isinstance(target, str | Path):
        loaded = host.load_memory_provider(target)
        return loaded.provider, loaded.how
    if isinstance(target, type):
        try:
            return target(), ""
        except Exception as exc:
            return None, f"{target.__name__}() raised {type(exc).__name__}: {exc}"
    return target, ""


def _on_real(targets: Sequence[Any], host: RealHost, bound: float) -> list[ContractReport]:
    directories = [_directory(target) for target in targets]
    found_all = host.memory_contracts(directories, bound=bound)
    release = host.version or "?"  # known once hermes has started
    label = f"hermes {release}"
    reports: list[ContractReport] = []
    for target, directory, found in zip(targets, directories, found_all, strict=True):
        if found is None:
            why = InMemoryHost().load_memory_provider(directory).how  # the kit's reading of why
            why = f"load_memory_provider gave None: {why}"
            reports.append(_no_provider(target, release, label, why))
        else:
            reports.append(_report(target, release, label, found))
    return reports


def _directory(target: Any) -> Path:
    """The provider directory a real hermes loads ``target`` from."""
    if isinstance(target, str | Path):
        return Path(target)
    kind = target if isinstance(target, type) else type(target)
    source = inspect.getsourcefile(kind)
    if source is not None and Path(source).name == "__init__.py":
        return Path(source).parent
    raise TypeError(
        f"a real hermes loads a memory provider from its directory, and {kind.__qualname__}"
        f" is defined in {source}: pass the provider's directory (the folder of its"
        " __init__.py) instead"
    )
