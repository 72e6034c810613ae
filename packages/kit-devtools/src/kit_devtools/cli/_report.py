"""What ``check`` prints: the registrations as hermes sees them, then the findings."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from kit_core.hermes import HostRelease
from kit_core.redaction import redact_text
from kit_devtools.cli.findings import Finding, Severity
from kit_devtools.testing import (
    InMemoryHost,
    LoadedPlugin,
    MemoryProviderLoad,
    ModelProviderLoad,
)
from kit_devtools.testing._cron_provider import CronProviderLoad


def plugin_fields(plugin: LoadedPlugin) -> dict[str, Any]:
    """Where a report says the plugin came from and whether it loaded; its load error
    redacted (a plugin's exception can quote a secret)."""
    return {
        "source": plugin.source,
        "path": str(plugin.path) if plugin.path else None,
        "enabled": plugin.enabled,
        "error": None if plugin.error is None else redact_text(plugin.error),
    }


def inventory(
    host: InMemoryHost,
    plugin: LoadedPlugin,
    memory: MemoryProviderLoad | None = None,
    model: ModelProviderLoad | None = None,
    cron: CronProviderLoad | None = None,
) -> dict[str, Any]:
    """Everything the plugin registered, as JSON-ready data; for a memory provider
    (``memory``), the provider hermes' memory discovery gets and the tools it offers; for
    a model provider (``model``), the profiles hermes' providers/ discovery gets; for a
    cron scheduler provider (``cron``), the scheduler hermes' cron discovery gets."""
    mine = set(plugin.tools)
    try:
        definitions = host.definitions()
    except TypeError:  # a schema that is no mapping breaks hermes' own list the same way
        definitions = []  # (HPK101 says so)
    data = {
        "plugin": {"key": plugin.key, "name": plugin.name, **plugin_fields(plugin)},
        "tools": [d for d in definitions if d["function"]["name"] in mine],
        "registered_tools": sorted(mine),
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
    view = host.model_view() if data["tools"] and host.release.bridge_default else None
    if view is not None and view.bridge:  # 0.20.0 on: the bridge by default
        data["bridge"] = {
            "tools": list(view.tools),
            "entries": [view.entries[n] for n in sorted(mine) if n in view.entries],
            "switch_off": view.switch_off,
        }
    if memory is not None:
        data["memory_provider"] = {
            "name": memory.name,
            "loaded_by": memory.how if memory.provider is not None else None,
            "tools": [{"type": "function", "function": schema} for schema in memory.tools],
        }
    if model is not None:
        data["model_provider"] = {"profiles": list(model.profiles)}
    if cron is not None:
        loaded_by = cron.how if cron.provider is not None else None
        data["cron_provider"] = {"name": cron.name, "loaded_by": loaded_by}
    return data


def plugin_heading(key: str, source: str, path: object, state: str) -> str:
    """How every command names the plugin it reports on: ``plugin <key> (<source>:
    <path>): <state>``, leaving out what is not known (an entry point has no path)."""
    where = f"{source}: {path}" if path else source
    return f"plugin {key} ({where}): {state}"


def not_loaded(error: object) -> str:
    """The state of a plugin that did not load, with its error when there is one."""
    return f"NOT LOADED: {error}" if error else "NOT LOADED"


def host_report(release: HostRelease) -> dict[str, Any]:
    """Which hermes the verdict is of, and how it was reached."""
    how = "the in-memory host reproducing it (--real runs the installed hermes' own loader)"
    return {
        "version": release.version,
        "label": release.label,
        "distribution": release.distribution,
        "package_version": release.package_version,
        "verdict": how,
    }


class Counts(NamedTuple):
    """How many findings of each severity."""

    errors: int
    warnings: int
    conventions: int

    def line(self) -> str:
        """``2 error(s), 1 warning(s), 3 convention(s)``."""
        return (
            f"{self.errors} error(s), {self.warnings} warning(s), {self.conventions} convention(s)"
        )


def counts(findings: Sequence[Finding]) -> Counts:
    """How many errors, warnings and conventions."""
    by = [f.severity for f in findings]
    return Counts(
        by.count(Severity.ERROR), by.count(Severity.WARNING), by.count(Severity.CONVENTION)
    )


def findings_json(data: dict[str, Any], findings: Sequence[Finding]) -> str:
    """``data`` with the findings and their counts, as the ``--json`` reports print it."""
    return json.dumps(
        {**data, "findings": [f.as_dict() for f in findings], **counts(findings)._asdict()},
        indent=2, ensure_ascii=False,
    )  # fmt: skip


def findings_lines(findings: Sequence[Finding]) -> list[str]:
    """The text reports' tail: each finding, then their counts."""
    head = "findings:" if findings else "findings: none"
    return [head, *("  " + f.line() for f in findings), counts(findings).line()]


def as_json(data: dict[str, Any], receipts: Sequence[str], findings: Sequence[Finding]) -> str:
    return findings_json({**data, "receipts": list(receipts)}, findings)


def as_text(data: dict[str, Any], receipts: Sequence[str], findings: Sequence[Finding]) -> str:
    plugin = data["plugin"]
    state = "enabled" if plugin["enabled"] else not_loaded(plugin["error"])
    lines = [plugin_heading(plugin["key"], plugin["source"], plugin["path"], state)]
    lines.append(f"host: {data['host']['label']}: {data['host']['verdict']}")
    lines += [f"receipt: {r}" for r in receipts]
    lines += _tools_lines(data)
    shown = {t["function"]["name"] for t in data["tools"]}
    hidden = [n for n in data.get("registered_tools", []) if n not in shown]
    if hidden:
        lines.append(
            f"registered but not offered to the model now ({len(hidden)}: their check_fn"
            f" fails, or hermes refused them): {', '.join(hidden)}"
        )
    lines += [f"command: /{c['name']} {c['args_hint']}".rstrip() for c in data["commands"]]
    lines += [f"CLI command: hermes {c['name']}: {c['help']}" for c in data["cli_commands"]]
    for key in ("middleware", "hooks", "skills"):
        lines.append(f"{key}: {', '.join(data[key]) or '-'}")
    lines += [f"{kind}: {', '.join(names)}" for kind, names in data["provisions"].items()]
    memory = data.get("memory_provider")
    if memory is not None:
        tools = ", ".join(t["function"]["name"] for t in memory["tools"]) or "-"
        how = memory["loaded_by"] or "none"
        lines.append(f"memory provider: {memory['name'] or '-'} (loaded by: {how}; tools: {tools})")
    model = data.get("model_provider")
    if model is not None:
        lines.append(f"model provider profiles: {', '.join(model['profiles']) or '-'}")
    cron = data.get("cron_provider")
    if cron is not None:
        how = cron["loaded_by"] or "none"
        lines.append(f"cron scheduler provider: {cron['name'] or '-'} (loaded by: {how})")
    return "\n".join(lines + findings_lines(findings))


def _tools_lines(data: dict[str, Any]) -> list[str]:
    """The tools as the model receives them; on a release that sends the tool-search bridge
    by default (0.20.0 on), the bridge, each tool's one-line entry in ``tool_search``'s
    description, and the schemas ``tool_describe`` answers (those of the switch-off)."""
    schemas = ["  " + line for line in json.dumps(data["tools"], indent=2).splitlines()]
    bridge = data.get("bridge")
    if bridge is None:
        return [f"tools ({len(data['tools'])}), as the model receives them:", *schemas]
    return [
        f"tools ({len(data['tools'])}), as the model receives them: by default"
        f" (tools.tool_search.enabled: auto) hermes sends the tool-search bridge"
        f" ({', '.join(bridge['tools'])}) in their place; each tool is one line of"
        " tool_search's description, all the model reads before it picks one:",
        *["  " + entry for entry in bridge["entries"]],
        "the schema of each, as tool_describe answers it, and as the model gets it directly"
        f" when an operator switches the bridge off in config.yaml ({bridge['switch_off']}):",
        *schemas,
    ]
