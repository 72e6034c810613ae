"""``hermes-plugin-kit doctor``: what is installed, and what it means for the author."""

from __future__ import annotations

import platform
import re
from importlib import metadata

from hermes_plugin_kit._versions import FIX, kit_versions, version_problem

TESTED_HOST = (0, 19, 0)


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def host_verdict(version: str | None) -> str:
    """What a hermes-agent version means for a plugin written with this kit."""
    tested = ".".join(map(str, TESTED_HOST))
    if version is None:
        return (
            "hermes-agent is not installed here: fine for writing and testing plugins (the"
            " in-memory host of kit_devtools.testing stands in for it); the plugin runs"
            " where hermes loads it"
        )
    release = _release(version)
    if release == TESTED_HOST:
        return f"hermes-agent {version}: the release the kit is tested against"
    if release > TESTED_HOST:
        return (
            f"hermes-agent {version}: newer than {tested}, which the kit is tested against; run"
            " `hermes-plugin-kit check` on your plugin and load it into this host once"
        )
    return f"hermes-agent {version}: older than {tested}, which the kit needs; upgrade hermes-agent"


def doctor() -> tuple[list[str], bool]:
    """The report's lines, and whether everything is in order."""
    versions = kit_versions()
    lines = [f"python {platform.python_version()}"]
    lines += [f"{dist} {version or 'not installed'}" for dist, version in versions.items()]
    problem = version_problem(versions)
    if problem is not None:
        lines.append(f"error: {problem}. {FIX}")
    try:
        host: str | None = metadata.version("hermes-agent")
    except metadata.PackageNotFoundError:
        host = None
    verdict = host_verdict(host)
    ok = problem is None and not verdict.startswith(f"hermes-agent {host}: older")
    lines.append(verdict)
    return lines, ok
