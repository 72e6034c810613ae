"""``hermes-plugin-kit compat``: the oldest hermes a plugin runs on, and what stops it loading.

The plugin is loaded into the in-memory host (the newest registry release) with a
``PluginContext`` that records what the plugin uses (:mod:`._compat_uses`); the host
model says which release first offers each use (:mod:`._compat_floor`); the floor is
compared with the plugin's ``requires_hermes``. Then the rules that make a plugin fail
on some hermes whatever it registers: names upstream moved (:mod:`._moved_names`), a
``manifest_version`` the installer refuses, hermes' re-kinding text test, non-``Path``
skill paths, hook and middleware callbacks without ``**kwargs``, and absolute imports of
the plugin's own package (:mod:`._compat_source`).

What it cannot see: context members a plugin calls only later (in a tool handler or a
hook), and hermes functions a plugin imports, beyond the moved names.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kit_core.hermes import (
    HostRelease,
    first_release,
    known_releases,
    registry_releases,
    version_key,
)
from kit_devtools.cli._compat_floor import SURFACES, Use, floor_of, uses_of
from kit_devtools.cli._compat_source import (
    absent_member_findings,
    first_place,
    member_since,
    moved_name_findings,
    named_members,
    own_import_findings,
    rekind_finding,
    source_root,
)
from kit_devtools.cli._compat_uses import Recorder, RecordingHost
from kit_devtools.cli._load_rules import load_findings
from kit_devtools.cli._manifest_rules import manifest_version_findings
from kit_devtools.cli._provider_rules import memory_provider_of, model_provider_of
from kit_devtools.cli._report import findings_json as render_json
from kit_devtools.cli._report import findings_lines, not_loaded, plugin_fields, plugin_heading
from kit_devtools.cli._target import Target
from kit_devtools.cli._tool_rules import signature_shape
from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding
from kit_devtools.testing import LoadedPlugin
from kit_devtools.testing._requires_hermes import spec_of, version_satisfies

__all__ = ["compat_report", "render_json", "render_text"]

declare("compat", {
    "HPK506": Rule(E, "{what} is offered by no hermes release the kit knows",
                   "remove it; check the name against hermes' documentation",
                   "no release the host model knows has it: a PluginContext member raises"
                   " AttributeError in register(), which disables the plugin; a hook or"
                   " middleware name is stored with a warning and never called"
                   " (hermes_cli.plugins.PluginContext.register_hook,"
                   " hermes_cli.plugins.PluginContext.register_middleware)"),
    "HPK510": Rule(W, "plugin.yaml has no requires_hermes: upstream hermes loads the plugin on"
                   " any release, and an operator cannot tell that it needs {floor} or later",
                   "add requires_hermes: \">={floor}\"",
                   "upstream enforces requires_hermes only where it is written"
                   " (hermes_cli.plugins_manifest.requires_hermes_error)"),
    "HPK511": Rule(W, "requires_hermes {spec!r} admits hermes-agent {below}, older than the"
                   " plugin's floor {floor} ({reason})", "raise it: requires_hermes:"
                   " \">={floor}\"", "upstream admits the plugin on releases below its"
                   " floor, where it then fails"),
})  # fmt: skip


def _skill_path_findings(
    recorder: Recorder, release: HostRelease
) -> tuple[list[Finding], list[Use]]:
    """HPK503 for each skill registered with a path that is no ``Path``, where ``release``
    (the one the plugin was loaded into) refuses it; where it takes one (``skill_path_str``:
    ``hermes_cli.plugins.PluginContext.register_skill`` calls ``Path(path)`` first), a use
    that raises the floor to the first release that does."""
    found: list[Finding] = []
    uses: list[Use] = []
    for call in recorder.calls:
        if call.member != "register_skill" or not call.called:
            continue
        path: object = call.keyword_values.get("path")
        if path is None and len(call.arguments) >= 2:
            path = call.arguments[1]
        if path is not None and not isinstance(path, Path):
            name = call.keyword_values.get("name", call.arguments[0] if call.arguments else "?")
            kind = type(path).__name__
            if not release.skill_path_str:
                found.append(finding("HPK503", f"skill {name}", type=kind))
                continue
            since = first_release(lambda r: r.skill_path_str)
            uses.append(Use("context", "register_skill", f"register_skill({name!r}, <{kind}>)",
                            since))  # fmt: skip
    return found, uses


def _callback_findings(host: RecordingHost, plugin: LoadedPlugin) -> list[Finding]:
    found: list[Finding] = []
    for surface, table, names in (
        ("hook", host.hooks, plugin.hooks),
        ("middleware", host.middleware, plugin.middleware),
    ):
        for name in sorted(set(names)):
            for entry in table.get(name, ()):
                shape = signature_shape(entry.callback)
                if entry.plugin == plugin.name and shape is not None and not shape[1]:
                    found.append(finding("HPK301", f"{surface} {name}"))
    return found


def _requires_hermes(
    plugin: LoadedPlugin, floor: HostRelease, because: Sequence[Use]
) -> tuple[list[Finding], list[str]]:
    where = f"plugin {plugin.key} plugin.yaml"
    spec = spec_of(plugin.manifest or {})
    if not spec:
        return [finding("HPK510", where, floor=floor.version)], []
    below = [
        r
        for r in registry_releases()
        if version_key(r.version) < version_key(floor.version)
        and version_satisfies(spec, r.version)
    ]
    if below:
        reason = "; ".join(f"{u.detail} came with {u.since.version}" for u in because if u.since)
        return [finding("HPK511", where, spec=spec, below=below[0].version,
                        floor=floor.version, reason=reason or "see the uses")], []  # fmt: skip
    if not version_satisfies(spec, floor.version):
        note = (
            f"requires_hermes {spec!r} excludes the floor {floor.version}, where everything"
            f' the plugin uses is offered: ">={floor.version}" would do'
        )
        return [], [note]
    return [], []


def _late_member_notes(root: Path, floor: HostRelease, uses: Sequence[Use]) -> list[str]:
    """Context members the source names that came after the floor and were not used in
    ``register()``: if the plugin calls one later, its floor is higher."""
    used = {u.name for u in uses if u.kind == "context"}
    members = {m for r in known_releases() for m in r.context} - used
    notes: list[str] = []
    for member, places in sorted(named_members(root, members).items()):
        since = member_since(member, floor)
        if since is None:
            continue
        notes.append(
            f"the source names .{member} ({first_place(places)}), a PluginContext member that"
            f" came with {since.label}, and register() did not use it: if the plugin calls"
            f" it later (in a handler or a hook), its floor is {since.version}"
        )
    return notes


def compat_report(target: Target) -> tuple[dict[str, Any], list[Finding]]:
    """The report of ``compat`` on a resolved target: JSON-ready data, and the findings."""
    if target.load is None:
        msg = "nothing to load"
        raise ValueError(msg)
    recorder = Recorder()
    host = RecordingHost(recorder)
    findings = list(target.findings)
    logging.getLogger().addHandler(handler := logging.NullHandler())
    try:
        plugin = host.load(target.load, key=target.key)
    finally:
        logging.getLogger().removeHandler(handler)
    # a memory or model provider is loaded by its own discovery, not the general loader
    # (a general plugin that memory discovery takes too is measured as a general plugin)
    memory, model = memory_provider_of(host, plugin), model_provider_of(host, plugin)
    provider = (
        memory is not None and memory.provider is not None and plugin.kind == "exclusive"
    ) or bool(model is not None and model.profiles)
    # the load diagnosed as check diagnoses it (HPK504 for an own-package import included)
    findings += own_import_findings(plugin) if provider else load_findings(plugin)
    directory = Path(plugin.path) if plugin.source == "directory" and plugin.path else None
    manifest: dict[str, Any] = dict(plugin.manifest or {}) if directory else {}
    surfaces = {surface: tuple(getattr(plugin, surface)) for surface, _ in SURFACES}
    uses = uses_of(recorder.calls, plugin.hooks, plugin.middleware, surfaces, manifest)
    skill_findings, skill_uses = _skill_path_findings(recorder, host.release)
    uses += skill_uses
    findings += [finding("HPK506", u.detail, what=u.detail) for u in uses
                 if u.raises_floor and u.since is None]  # fmt: skip
    # a str skill path register() failed on is load_findings' HPK503 already; the recording
    # also finds one whose error register() caught
    findings += [f for f in skill_findings if f not in findings]
    findings += _callback_findings(host, plugin)
    notes: list[str] = []
    floor = floor_of(uses) if plugin.enabled and not provider else None
    if directory is not None:
        findings += manifest_version_findings(
            manifest, f"plugin {plugin.key} plugin.yaml", host.release
        )
        rekind = None if provider else rekind_finding(directory, manifest)
        findings += [rekind] if rekind is not None else []
        if floor is not None:
            more, notes = _requires_hermes(plugin, *floor)
            findings += more
    root = source_root(plugin)
    if root is not None:
        findings += moved_name_findings(root)
        # what the plugin reaches for that its oldest release lacks: off there, silently (a
        # provider's register() gets its discovery's collector, not a PluginContext)
        if not provider:
            release = floor[0] if floor else host.release
            findings += absent_member_findings(root, release, plugin.exception)
        if floor is not None:
            notes += _late_member_notes(root, floor[0], uses)
    if provider:
        notes.append(
            "a provider: hermes' own provider discovery loads it (a model provider only from"
            " $HERMES_HOME/plugins/model-providers/<name>), not the general plugin loader, so"
            " its floor is not measured"
        )
    elif not plugin.enabled:
        notes.append("the plugin did not load, so its floor is unknown: fix the errors first")
        # the member whose absence raised the error that stopped the load, if one did
        failed = plugin.exception if isinstance(plugin.exception, AttributeError) else None
        for member in dict.fromkeys(recorder.missing):
            if failed is None or repr(member) not in str(failed):
                continue
            since = first_release(lambda r, m=member: r.offers(m))
            offered = f"it came with {since.label}" if since else "no release the kit knows has it"
            notes.append(
                f"register() looked up ctx.{member}, which {host.release.label} lacks: {offered}"
            )
    data: dict[str, Any] = {
        "plugin": {"key": plugin.key, **plugin_fields(plugin)},
        "loaded_into": host.release.label,
        "floor": None,
        "requires_hermes": spec_of(manifest) or None,
        "uses": [u.as_dict() for u in uses],
        "notes": notes,
        "oldest": registry_releases()[0].version,
    }
    if floor is not None:
        release, because = floor
        data["floor"] = {
            "version": release.version,
            "label": release.label,
            "distribution": release.distribution,
            "because": [u.detail for u in because],
        }
    return data, findings


def render_text(data: dict[str, Any], findings: Sequence[Finding]) -> str:
    plugin = data["plugin"]
    state = "loaded" if plugin["enabled"] else not_loaded(plugin["error"])
    heading = plugin_heading(plugin["key"], plugin["source"], plugin["path"], state)
    lines = [f"{heading} into {data['loaded_into']} (in memory)"]
    floor = data["floor"]
    if floor is None:
        lines.append("floor: unknown")
    else:
        why = ", ".join(floor["because"]) or "nothing it uses is newer than the oldest release"
        lines.append(f"floor: {floor['label']} ({why})")
    lines.append(f"requires_hermes: {data['requires_hermes'] or '-'}")
    lines.append("uses (the release that brought each):")
    for use in data["uses"]:
        since = use["since"] or "no known release"
        late = not use["raises_floor"] and use["since"] != data["oldest"]
        tail = " (older releases ignore it)" if late else ""
        lines.append(f"  {since:>8}  {use['detail']}{tail}")
    lines += [f"note: {n}" for n in data["notes"]]
    return "\n".join(lines + findings_lines(findings))
