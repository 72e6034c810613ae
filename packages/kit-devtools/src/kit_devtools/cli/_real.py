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

from pathlib import Path
from typing import Any, Final

from kit_devtools.cli._target import own_entry_point
from kit_devtools.testing import LoadedPlugin
from kit_devtools.testing.real import (
    SCRUBBED,
    TIMEOUT,
    RealHost,
    RealHostCallError,
    RealHostDied,
)

__all__ = ["COMPARED", "NOT_DISCOVERED", "SCRUBBED", "disagreements", "real_verdict"]

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
    with RealHost(timeout=timeout) as host:
        try:
            if directory is None:
                host.load_all([], entry_points=[name])
            else:
                host.load_all([directory])
        except (RealHostDied, RealHostCallError) as exc:  # hermes itself broke
            if isinstance(exc, RealHostDied):  # the why, then the end of hermes' stderr
                return str(exc).partition("; the end of its stderr")[0]
            last = (str(exc).strip().splitlines() or ["no output"])[-1]
            return f"hermes failed while importing hermes and loading it: {last}"
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
    return found[0] if found else NOT_DISCOVERED


def disagreements(real: dict[str, Any], plugin: LoadedPlugin) -> list[str]:
    """Where hermes' verdict and the in-memory host's differ, worded ``what: hermes X,
    in memory Y``. When both refuse the plugin only that is compared: what a failed
    ``register()`` left behind is not what either host lists (hermes lists nothing of
    it; the in-memory host credits what it registered before raising)."""
    if not real["enabled"] and not plugin.enabled:
        return []
    mine = {
        "enabled": plugin.enabled,
        "tools": len(plugin.tools),
        "hooks": len(plugin.hooks),
        "middleware": len(plugin.middleware),
        "commands": len(plugin.commands),
    }
    found = [  # a field hermes does not report (middleware before 0.17.0) is not compared
        f"{field}: hermes {real[field]!r}, in memory {mine[field]!r}"
        for field in COMPARED
        if field in real and real[field] != mine[field]
    ]
    if found and real.get("error") and not plugin.error:
        found.append(f"hermes' error: {real['error']}")
    return found
