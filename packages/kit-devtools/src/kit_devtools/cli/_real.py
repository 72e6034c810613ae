"""``check --real``: the plugin loaded by hermes' own plugin manager, in a process of its
own with an empty temporary hermes home, compared with the in-memory host's verdict.

A directory is installed as an operator installs one (copied to
``$HERMES_HOME/plugins/<folder>`` and named in ``plugins.enabled``); an entry point is
already installed in this environment, so it is only named in ``plugins.enabled``. Then
hermes is imported as the CLI and the gateway import it (``model_tools`` runs plugin
discovery), and its public ``PluginManager.list_plugins()`` says what became of the plugin.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

from kit_devtools.testing import LoadedPlugin
from kit_devtools.testing.real import SCRUBBED

__all__ = ["COMPARED", "NOT_DISCOVERED", "SCRUBBED", "disagreements", "real_verdict"]

COMPARED: Final = ("enabled", "tools", "hooks", "middleware", "commands")

LOADER: Final = """
import json, sys
import model_tools  # imports hermes as its CLI does: discovery loads the plugins
from hermes_cli.plugins import get_plugin_manager
mode, names = sys.argv[1], set(sys.argv[2:])
found = [
    p for p in get_plugin_manager().list_plugins()
    if (p["key"] in names or p["name"] in names)
    and (p.get("source") == "entrypoint") == (mode == "entrypoint")
]
print("HPK-REAL " + json.dumps(found))
"""


NOT_DISCOVERED: Final = "hermes did not discover it (no plugin.yaml hermes reads, or another name)"


def real_verdict(directory: Path | None, name: str) -> dict[str, Any] | str:
    """hermes' ``list_plugins()`` entry for the plugin directory, or for the installed
    entry point ``name`` when ``directory`` is None; or why it could not be read. Only an
    entry of the kind asked for counts: where an installed entry point holds the
    directory's name and wins (HPK019), hermes lists the entry point, not the directory."""
    with tempfile.TemporaryDirectory(prefix="hermes-real-") as root:
        home = Path(root)
        enabled = [name]
        if directory is not None:
            shutil.copytree(directory, home / "plugins" / directory.name)
            enabled = sorted({directory.name, name})
        (home / "config.yaml").write_text(
            json.dumps({"plugins": {"enabled": enabled}}), encoding="utf-8"
        )  # JSON is YAML
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
        env["HERMES_HOME"] = str(home)
        run = subprocess.run(
            [
                sys.executable,
                "-c",
                LOADER,
                "entrypoint" if directory is None else "directory",
                *enabled,
            ],
            capture_output=True,
            text=True,
            check=False,
            cwd=root,
            env=env,
            timeout=300,
        )
    lines = [line for line in run.stdout.splitlines() if line.startswith("HPK-REAL ")]
    if run.returncode != 0 or not lines:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return f"hermes failed while importing hermes and loading it: {last}"
    found: list[dict[str, Any]] = json.loads(lines[-1].removeprefix("HPK-REAL "))
    if not found:
        return NOT_DISCOVERED
    return found[0]


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
