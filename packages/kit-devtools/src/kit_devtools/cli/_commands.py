"""The commands that load a plugin into the in-memory host: ``check``, ``compat`` and
``call`` (imported by :mod:`kit_devtools.cli` only when one of them runs)."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

from kit_core.hermes import HostRelease, installed_release
from kit_devtools.cli._chat_turn import delivered_lines, simulate_chat_turn
from kit_devtools.cli._cron_rules import cron_provider_of
from kit_devtools.cli._memory_contract import memory_contract_findings
from kit_devtools.cli._output import emit, quiet_logs, refuse
from kit_devtools.cli._provider_rules import memory_provider_of, model_provider_of
from kit_devtools.cli._report import as_json, as_text, counts, host_report, inventory
from kit_devtools.cli._target import Target, resolve_target
from kit_devtools.cli._tool_probe import probe_tools
from kit_devtools.cli.findings import E, Finding, Rule, Severity, W, declare, finding
from kit_devtools.cli.lint import lint_plugin
from kit_devtools.testing import InMemoryHost, LoadedPlugin, ModelProviderLoad
from kit_devtools.testing._cron_provider import CronProviderLoad
from kit_devtools.testing._manifest import has_manifest
from kit_devtools.testing._memory_provider import MemoryProviderLoad
from kit_devtools.testing.host_names import profile

__all__ = ["call", "check", "compat", "real_findings"]

declare("plugin and manifest", {
    "HPK010": Rule(E, "hermes' own loader disagrees with the in-memory host ({differences})",
                   "trust hermes; please report the difference to hermes-plugin-kit",
                   "--real: PluginManager.list_plugins() after hermes' own discovery, in a"
                   " process of its own"),
    "HPK011": Rule(W, "check --real could not run: {why}",
                   "install hermes-agent beside the plugin, and point check at its directory",
                   "--real could not ask hermes' own loader; the in-memory verdict stands"
                   " alone"),
})  # fmt: skip

RECEIPT_PREFIX = "hermes_plugin_kit: registered"


class _Receipts(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(RECEIPT_PREFIX):
            self.lines.append(message)


@contextlib.contextmanager
def _capture_receipts() -> Generator[list[str], None, None]:
    root = logging.getLogger()
    handler, level = _Receipts(), root.level
    root.addHandler(handler)
    root.setLevel(min(level, logging.INFO) if level else logging.INFO)
    try:
        yield handler.lines
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _load(target: Target, hermes: str | None) -> tuple[InMemoryHost, LoadedPlugin, list[str]]:
    if target.load is None:
        msg = "nothing to load"
        raise ValueError(msg)
    host = InMemoryHost(hermes=hermes)
    with _capture_receipts() as receipts:
        plugin = host.load(target.load, key=target.key)
    return host, plugin, receipts


def _release(args: argparse.Namespace) -> HostRelease | str:
    """The release ``--hermes`` names, or why it cannot be played."""
    try:
        release = profile(args.hermes)
    except ValueError as exc:
        return str(exc)
    if getattr(args, "real", False) and args.hermes is not None:
        installed = installed_release()
        if installed is None or installed.version != release.version:
            here = installed.label if installed is not None else "no hermes"
            return (
                f"--real runs the hermes installed here ({here}), not {release.label}:"
                " drop --hermes, or install that release (pytest --hermes runs it)"
            )
    return release


def check(args: argparse.Namespace) -> int:
    """``check TARGET``: load the plugin into the in-memory host, lint it, and report."""
    release = _release(args)
    if isinstance(release, str):
        return refuse(release)
    target = resolve_target(args.target, release)
    if target.problem is not None:
        return refuse(target.problem)
    findings = list(target.findings)
    data: dict[str, Any] = {"plugin": _unloaded(target, args.target),
                            "tools": [], "commands": [], "cli_commands": [], "middleware": [],
                            "hooks": [], "skills": [], "provisions": {},
                            "host": host_report(release)}  # fmt: skip
    receipts: list[str] = []
    if target.load is not None:
        try:
            host, plugin, receipts = _load(target, args.hermes)
        except Exception as exc:
            findings.append(
                finding("HPK003", f"plugin {args.target}", error=f"{type(exc).__name__}: {exc}")
            )
        else:
            memory = memory_provider_of(host, plugin)
            model = model_provider_of(host, plugin)
            cron = cron_provider_of(host, plugin)
            data = inventory(host, plugin, memory, model, cron)
            findings += lint_plugin(host, plugin, memory, model, cron)
            if args.probe:
                with quiet_logs():  # the kit logs each refused probe call; the findings say it
                    findings += probe_tools(host, plugin)
                if memory is not None and memory.provider is not None:
                    # the contract drives everything HPK602 reads, and says it per member
                    findings = [f for f in findings if f.rule != "HPK602"]
                    findings += memory_contract_findings(host, plugin, memory.name or plugin.key)
                findings += _contract_findings(host, plugin, model)
            if args.real:
                findings += real_findings(target, plugin, args.timeout, memory, cron)
    render = as_json if args.format == "json" else as_text
    emit(render(data, receipts, findings))
    return 1 if counts(findings)[0] else 0


def _contract_findings(
    host: InMemoryHost, plugin: LoadedPlugin, model: ModelProviderLoad | None
) -> list[Finding]:
    """``--probe``: the contract suite of each provider the plugin registered."""
    from kit_devtools.cli._provider_contracts import provider_contract_findings

    return provider_contract_findings(host, plugin, model)


def _unloaded(target: Target, named: str) -> dict[str, Any]:
    """The report's ``plugin`` for a target the in-memory host could not load at all:
    what TARGET named, as far as it is known."""
    directory = target.load if isinstance(target.load, Path) else None
    source = "directory" if directory else "entrypoint" if target.entry_point else "module"
    key = target.key or named
    path = str(directory) if directory else None
    return {"key": key, "name": key, "source": source, "path": path, "enabled": False,
            "error": None}  # fmt: skip


def real_findings(
    target: Target,
    plugin: LoadedPlugin,
    timeout: float,
    memory: MemoryProviderLoad | None = None,
    cron: CronProviderLoad | None = None,
) -> list[Finding]:
    """``--real``: hermes' own verdict on a plugin directory or an installed entry point,
    against the in-memory one; for a memory-provider folder (``memory``: what the in-memory
    host's memory discovery got), hermes' memory discovery's too, plugin.yaml or not, and
    for a cron scheduler folder (``cron``) its cron discovery's. An
    entry point with a defect hermes does not load (HPK007, HPK008) was checked as if
    fixed: there hermes agrees when it does not load it. hermes that does not start or
    answer within ``timeout`` seconds is HPK011."""
    from kit_devtools.cli._real import cron_disagreements, memory_disagreements, real_verdicts

    where = f"plugin {plugin.key}"
    if target.entry_point is not None:
        real = real_verdicts(None, target.entry_point, timeout)
    elif isinstance(target.load, Path):
        real = real_verdicts(
            target.load, plugin.name, timeout, memory=memory is not None, cron=cron is not None
        )
    else:
        why = "--real loads plugin directories and entry points, not modules"
        return [finding("HPK011", where, why=why)]
    found, differences = _general_real(target, plugin, real.general)
    if memory is not None:
        differences += memory_disagreements(real.memory, memory)
    if cron is not None:
        differences += cron_disagreements(real.cron, cron)
    if differences:
        found.append(finding("HPK010", where, differences="; ".join(differences)))
    return found


def _general_real(
    target: Target, plugin: LoadedPlugin, real: dict[str, Any] | str
) -> tuple[list[Finding], list[str]]:
    """What ``--real`` finds of hermes' general loader's verdict: findings, and the
    differences from the in-memory host (HPK010's). A folder without a manifest hermes'
    general loader never discovers, as the in-memory host never loads it: only its memory
    or cron discovery reads such a folder."""
    from kit_devtools.cli._real import NOT_DISCOVERED, disagreements

    where = f"plugin {plugin.key}"
    unloadable = [f.rule for f in target.findings if f.severity is Severity.ERROR]
    if unloadable:
        if isinstance(real, str) and real != NOT_DISCOVERED:
            return [finding("HPK011", where, why=real)], []
        if isinstance(real, dict) and real.get("enabled"):
            return [], [f"enabled: hermes True, {'/'.join(unloadable)} says it never loads"]
        return [], []
    if real == NOT_DISCOVERED and isinstance(target.load, Path) and not has_manifest(target.load):
        return [], []
    if isinstance(real, str):
        return [finding("HPK011", where, why=real)], []
    return [], disagreements(real, plugin)


def compat(args: argparse.Namespace) -> int:
    """``compat TARGET``: the oldest release the plugin runs on, and what stops it."""
    from kit_devtools.cli.compat import compat_report, render_json, render_text

    target = resolve_target(args.target)
    if target.problem is not None:
        return refuse(target.problem)
    try:
        data, findings = compat_report(target)
    except LookupError as exc:
        return refuse(str(exc))
    emit(render_json(data, findings) if args.json else render_text(data, findings))
    return 1 if counts(findings)[0] else 0


def call(args: argparse.Namespace) -> int:
    """``call TARGET TOOL``: one tool call through the in-memory host's pipeline."""
    target = resolve_target(args.target)
    if target.problem is not None or target.load is None or target.findings:
        problem = target.problem or "; ".join(f.line() for f in target.findings)
        return refuse(problem)
    try:
        tool_args = json.loads(args.args)
    except ValueError as exc:
        return refuse(f"--args is not JSON ({exc}); pass an object, e.g. --args '{{\"q\": 1}}'")
    release = _release(args)
    if isinstance(release, str):
        return refuse(release)
    host, plugin, _ = _load(target, args.hermes)
    if args.tool not in host.tools:
        listed = ", ".join(sorted(plugin.tools)) or "none"
        return refuse(f"{args.tool!r} is not a tool of {plugin.key} (its tools: {listed})")
    simulate_chat_turn(host, args.session_id)
    out = host.call_tool(args.tool, tool_args, task_id=args.task_id, session_id=args.session_id)
    from kit_devtools.cli._model_view import model_view

    shown, note = model_view(out)
    emit(shown)
    if note is not None:
        print(note, file=sys.stderr)
    for line in delivered_lines(host):  # beside the report: stdout stays the tool's result
        print(line, file=sys.stderr)
    return 0
