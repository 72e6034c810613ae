"""What ``check`` prints: the registrations as hermes sees them, then the findings."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kit_core._host_model import UPSTREAM_COMMIT, HostRelease
from kit_devtools.cli.findings import Finding, Severity
from kit_devtools.testing import InMemoryHost, LoadedPlugin


def inventory(host: InMemoryHost, plugin: LoadedPlugin) -> dict[str, Any]:
    """Everything the plugin registered, as JSON-ready data."""
    mine = set(plugin.tools)
    return {
        "plugin": {
            "key": plugin.key,
            "name": plugin.name,
            "source": plugin.source,
            "path": str(plugin.path) if plugin.path else None,
            "enabled": plugin.enabled,
            "error": plugin.error,
        },
        "tools": [d for d in host.definitions() if d["function"]["name"] in mine],
        "commands": [
            {
                "name": n,
                "args_hint": host.commands[n].args_hint,
                "description": host.commands[n].description,
            }
            for n in sorted(plugin.commands)
            if n in host.commands
        ],
        "cli_commands": [
            {"name": n, "help": host.cli_commands[n].help}
            for n in sorted(plugin.cli_commands)
            if n in host.cli_commands
        ],
        "middleware": sorted(set(plugin.middleware)),
        "hooks": sorted(set(plugin.hooks)),
        "skills": sorted(plugin.skills),
        "host": host_report(host.release),
        "provisions": {
            kind: sorted(name for name, (owner, _) in entries.items() if owner == plugin.name)
            for kind, entries in sorted(host.provisions.items())
            if any(owner == plugin.name for owner, _ in entries.values())
        },
    }


def host_report(release: HostRelease) -> dict[str, Any]:
    """Which hermes the verdict is of, and how it was reached."""
    if release.modelled:
        how = (
            f"modelled from upstream's source at commit {UPSTREAM_COMMIT[:8]}"
            f" ({UPSTREAM_COMMIT}), not run: upstream needs Python 3.14"
        )
    else:
        how = "the in-memory host reproducing it (--real runs the installed hermes' own loader)"
    return {
        "version": release.version,
        "label": release.label,
        "modelled": release.modelled,
        "commit": UPSTREAM_COMMIT if release.modelled else None,
        "verdict": how,
    }


def counts(findings: Sequence[Finding]) -> tuple[int, int]:
    """(errors, warnings)."""
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    return errors, len(findings) - errors


def as_json(data: dict[str, Any], receipts: Sequence[str], findings: Sequence[Finding]) -> str:
    errors, warnings = counts(findings)
    return json.dumps(
        {
            **data,
            "receipts": list(receipts),
            "findings": [f.as_dict() for f in findings],
            "errors": errors,
            "warnings": warnings,
        },
        indent=2,
        ensure_ascii=False,
    )


def as_text(data: dict[str, Any], receipts: Sequence[str], findings: Sequence[Finding]) -> str:
    plugin = data["plugin"]
    state = "enabled" if plugin["enabled"] else f"NOT LOADED: {plugin['error']}"
    lines = [f"plugin {plugin['key']} ({plugin['source']}: {plugin['path'] or '-'}): {state}"]
    lines.append(f"host: {data['host']['label']}: {data['host']['verdict']}")
    lines += [f"receipt: {r}" for r in receipts]
    lines.append(f"tools ({len(data['tools'])}), as the model receives them:")
    lines += ["  " + line for line in json.dumps(data["tools"], indent=2).splitlines()]
    lines += [f"command: /{c['name']} {c['args_hint']}".rstrip() for c in data["commands"]]
    lines += [f"CLI command: hermes {c['name']}: {c['help']}" for c in data["cli_commands"]]
    for key in ("middleware", "hooks", "skills"):
        lines.append(f"{key}: {', '.join(data[key]) or '-'}")
    lines += [f"{kind}: {', '.join(names)}" for kind, names in data["provisions"].items()]
    lines.append("findings:" if findings else "findings: none")
    lines += ["  " + f.line() for f in findings]
    errors, warnings = counts(findings)
    lines.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)
