"""``check --real``: the plugin loaded by hermes' own plugin manager, in a process of its
own with an empty temporary hermes home, compared with the in-memory host's verdict.

Loaded by :class:`~kit_devtools.testing.RealHost`: a directory is installed as an operator
installs one (copied to ``$HERMES_HOME/plugins/<folder>`` and named in
``plugins.enabled``); an entry point is already installed in this environment, so it is
only named in ``plugins.enabled``. hermes discovers as its CLI and gateway do (importing
``model_tools``), and its public ``PluginManager.list_plugins()`` says what became of the
plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from kit_devtools.cli._target import own_entry_point
from kit_devtools.testing import LoadedPlugin
from kit_devtools.testing._cron_provider import CronProviderLoad
from kit_devtools.testing._memory_provider import MemoryProviderLoad
from kit_devtools.testing.real import (
    SCRUBBED,
    TIMEOUT,
    RealHost,
    RealHostCallError,
    RealHostDied,
)

__all__ = [
    "COMPARED",
    "NOT_DISCOVERED",
    "SCRUBBED",
    "RealVerdicts",
    "cron_disagreements",
    "disagreements",
    "memory_disagreements",
    "real_verdict",
    "real_verdicts",
]

COMPARED: Final = ("enabled", "tools", "hooks", "middleware", "commands")

NOT_DISCOVERED: Final = "hermes did not discover it (no plugin.yaml hermes reads, or another name)"


def real_verdict(
    directory: Path | None, name: str, timeout: float = TIMEOUT
) -> dict[str, Any] | str:
    """hermes' ``list_plugins()`` entry for the plugin directory, or for the installed
    entry point ``name`` when ``directory`` is None; or why it could not be read. Only an
    entry of the kind asked for counts: where an installed entry point holds the
    directory's name and wins (HPK019), hermes lists the entry point, not the directory.
    hermes may take ``timeout`` seconds to start and load it."""
    return real_verdicts(directory, name, timeout).general


@dataclass(frozen=True, slots=True)
class RealVerdicts:
    """What one hermes made of a plugin: its general loader's verdict, and what its memory
    and cron discoveries got from the folder, where they were asked."""

    general: dict[str, Any] | str
    """:func:`real_verdict`'s answer."""
    memory: dict[str, Any] | str | None = None
    """:meth:`RealHost.memory_provider`'s answer (``name``, ``tools``), None for no
    provider (or not asked), or why it could not be read."""
    cron: dict[str, Any] | str | None = None
    """:meth:`RealHost.cron_provider`'s answer (``name``), as ``memory``."""


def real_verdicts(
    directory: Path | None,
    name: str,
    timeout: float = TIMEOUT,
    *,
    memory: bool = False,
    cron: bool = False,
) -> RealVerdicts:
    """:func:`real_verdict`, and with ``memory`` (``cron``) what hermes' memory (cron)
    discovery gets from the directory's folder, in the same hermes."""
    with RealHost(timeout=timeout) as host:
        try:
            if directory is None:
                host.load_all([], entry_points=[name])
            else:
                host.load_all([directory])
        except (RealHostDied, RealHostCallError) as exc:  # hermes itself broke
            return RealVerdicts(_broken(exc))
        names = (name,) if directory is None else (name, directory.name)
        # the directory's own entry point (a synced plugin project's) is the same plugin
        either = directory is not None and own_entry_point(directory, name)
        found = [  # hermes' list_plugins() entries, by their own key and name (a boolean
            # name stays a boolean there); a record it does not list is not found
            dict(plugin.listed)
            for plugin in host.plugins.values()
            if plugin.listed
            and (plugin.listed.get("key") in names or plugin.listed.get("name") in names)
            and (either or (plugin.listed.get("source") == "entrypoint") == (directory is None))
        ]
        general = found[0] if found else NOT_DISCOVERED
        if directory is None:
            return RealVerdicts(general)
        return RealVerdicts(
            general,
            _asked(host.memory_provider, directory.name) if memory else None,
            _asked(host.cron_provider, directory.name) if cron else None,
        )


def _asked(ask: Callable[[str], dict[str, Any] | None], folder: str) -> dict[str, Any] | str | None:
    try:
        return ask(folder)
    except (RealHostDied, RealHostCallError) as exc:
        return _broken(exc)


def _broken(exc: RealHostDied | RealHostCallError) -> str:
    if isinstance(exc, RealHostDied):  # the why, then the end of hermes' stderr
        return str(exc).partition("; the end of its stderr")[0]
    last = (str(exc).strip().splitlines() or ["no output"])[-1]
    return f"hermes failed while importing hermes and loading it: {last}"


def _provider_disagreement(
    what: str,
    real: dict[str, Any] | str | None,
    provider: object | None,
    name: str | None,
    problems: bool,
) -> list[str]:
    """Whether a discovery of hermes and the in-memory host's got the same provider (by
    name), worded ``what: hermes X, in memory Y``. hermes failing where the in-memory host
    found a problem (or no provider) agrees with it."""
    if isinstance(real, str):
        if provider is None or problems:
            return []
        return [f"{what}: hermes failed ({real}), in memory {name!r}"]
    theirs = None if real is None else real.get("name")
    if (real is None) != (provider is None) or theirs != name:
        return [f"{what}: hermes {theirs!r}, in memory {name!r}"]
    return []


def memory_disagreements(real: dict[str, Any] | str | None, mine: MemoryProviderLoad) -> list[str]:
    """Where hermes' memory discovery and the in-memory host's differ on a provider folder
    (the provider's name, the tools the memory manager offers), worded as
    :func:`disagreements` words them."""
    found = _provider_disagreement(
        "memory provider", real, mine.provider, mine.name, bool(mine.problems)
    )
    tools = [str(t["name"]) for t in mine.tools]
    if not found and isinstance(real, dict) and real.get("tools") != tools:
        return [f"memory provider's tools: hermes {real.get('tools')!r}, in memory {tools!r}"]
    return found


def cron_disagreements(real: dict[str, Any] | str | None, mine: CronProviderLoad) -> list[str]:
    """Where hermes' cron discovery and the in-memory host's differ on a scheduler folder
    (the scheduler's name), as :func:`memory_disagreements`."""
    return _provider_disagreement(
        "cron scheduler", real, mine.provider, mine.name, bool(mine.problems)
    )


def disagreements(real: dict[str, Any], plugin: LoadedPlugin) -> list[str]:
    """Where hermes' verdict and the in-memory host's differ, worded ``what: hermes X,
    in memory Y``. When both refuse the plugin only that is compared: what a failed
    ``register()`` left behind is not what either host lists (hermes lists nothing of
    it; the in-memory host credits what it registered before raising)."""
    if not real["enabled"] and not plugin.enabled:
        return []
    mine = {"enabled": plugin.enabled, **{f: len(getattr(plugin, f)) for f in COMPARED[1:]}}
    found = [  # a field hermes does not report (middleware before 0.17.0) is not compared
        f"{field}: hermes {real[field]!r}, in memory {mine[field]!r}"
        for field in COMPARED
        if field in real and real[field] != mine[field]
    ]
    if found and real.get("error") and not plugin.error:
        found.append(f"hermes' error: {real['error']}")
    return found
