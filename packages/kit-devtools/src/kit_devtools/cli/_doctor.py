"""``hermes-plugin-kit doctor``: what is installed, and what it means for the author."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
from typing import Any, Final

from kit_core.hermes import (
    first_release,
    installed_distribution,
    installed_release,
    modelled_hooks,
    registry_release,
    registry_releases,
    version_key,
)
from kit_devtools._builds import report


def host_verdict(version: str | None, distribution: str | None = None) -> str:
    """What a hermes version (of ``distribution``, whichever of the registry's provides
    hermes) means for a plugin written with this kit, from the host model (the releases
    of the registry the kit is tested on)."""
    releases = registry_releases()
    oldest, newest = releases[0].version, releases[-1].version
    if version is None:
        return (
            "hermes is not installed here: fine for writing and testing plugins (the"
            " in-memory host of kit_devtools.testing stands in for it); the plugin runs"
            " where hermes loads it"
        )
    release = registry_release(version)
    if release is not None and distribution in (None, release.distribution):
        since = first_release(lambda r: r.offers("register_middleware"))
        lacking = not release.offers("register_middleware") and since is not None
        return (
            f"{release.label}: a release the kit is tested on ({oldest} to {newest} in the"
            f" host matrix); the in-memory host plays it (--hermes {release.version}, its"
            " default where it is installed)"
            + (f"; it has no middleware (from {since.version})" if since and lacking else "")
        )
    name = f"{distribution or 'hermes'} {version}"
    if release is not None:
        return (
            f"{name}: hermes {release.version}, which the kit is tested on as"
            f" {release.label}; run `hermes-plugin-kit check --real` on your plugin against"
            " this packaging"
        )
    if version_key(version) > version_key(newest):
        return (
            f"{name}: newer than {newest}, the newest release the kit is tested on; run"
            " `hermes-plugin-kit check --real` on your plugin against it"
        )
    return (
        f"{name}: not a registry release the kit knows ({oldest} to {newest}); install one of those"
    )


def doctor() -> tuple[list[str], bool]:
    """The report's lines, and whether everything is in order."""
    kit, problem = report()
    lines = [f"python {platform.python_version()}", *kit]
    if problem is not None:
        lines.append(f"error: {problem}")
    found = installed_distribution()
    lines.append(host_verdict(found[1], found[0]) if found else host_verdict(None))
    if found is not None:
        lines += host_capabilities()
    return lines, problem is None


PROBE: Final = """
import importlib, inspect, json, sys
found = {}
plugins = importlib.import_module("hermes_cli.plugins")
found["hooks"] = sorted(plugins.VALID_HOOKS)
try:
    found["middleware"] = sorted(importlib.import_module("hermes_cli.middleware").VALID_MIDDLEWARE)
except ImportError:
    found["middleware"] = None
context = plugins.PluginContext
found["context"] = sorted(n for n in vars(context) if not n.startswith("_"))
manager = getattr(plugins, "PluginManager", None)  # a fallback: where the model has no release
found["awaits_hooks"] = any(callable(getattr(o, "ainvoke_hook", None)) for o in (plugins, manager))
print(json.dumps(found))
"""
"""Read in a process of its own with an empty temporary HERMES_HOME: importing hermes
creates and reads its home, which must not be the author's."""


def host_capabilities() -> list[str]:
    """What the installed hermes can do for a plugin, read from hermes itself."""
    with tempfile.TemporaryDirectory(prefix="hermes-doctor-") as home:
        run = subprocess.run(
            [sys.executable, "-c", PROBE],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "HERMES_HOME": home},
        )
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return [f"hermes could not be imported to read what it supports: {last}"]
    found: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    middleware = found["middleware"]
    # 0.21.3 and 0.21.4 await an async hook without ainvoke_hook: the model observed it
    release = installed_release()
    awaits = release.awaits_hooks if release is not None else found["awaits_hooks"]
    newer = sorted(modelled_hooks() - set(found["hooks"]))
    came = first_release(lambda r: bool(r.middleware))
    since = came.label if came else "a newer hermes-agent"
    return [
        f"host hooks: {len(found['hooks'])}"
        + (f" (not these of newer releases: {', '.join(newer)})" if newer else ""),
        "host middleware: "
        + (", ".join(middleware) if middleware else f"none (middleware came with {since})"),
        "host awaits async hooks: " + ("yes" if awaits else "no"),
        f"host PluginContext: {', '.join(found['context'])}",
    ]
