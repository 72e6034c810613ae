"""``check``'s lint: what register() registered, as the in-memory host received it (a tool
hermes refused, HPK116; commands, HPK201-HPK205; hooks and middleware, HPK301-HPK303;
skills, HPK401), and :func:`lint_plugin`, every rule applied to one plugin."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any, cast

from kit_core._annotations import signature_of
from kit_core.hermes import HostRelease
from kit_devtools.cli._compat_source import absent_member_findings, source_root
from kit_devtools.cli._cron_rules import cron_provider_findings
from kit_devtools.cli._load_rules import load_findings
from kit_devtools.cli._manifest_rules import manifest_findings
from kit_devtools.cli._provider_rules import (
    memory_provider_findings,
    model_provider_findings,
    provision_findings,
)
from kit_devtools.cli._tool_rules import (
    bridge_line_findings,
    handler_findings,
    is_coroutine_function,
    name_findings,
    schema_findings,
    signature_shape,
)
from kit_devtools.cli.findings import E, Finding, Rule, declare, finding
from kit_devtools.testing import (
    InMemoryHost,
    LoadedPlugin,
    MemoryProviderLoad,
    ModelProviderLoad,
)
from kit_devtools.testing._cron_provider import CronProviderLoad
from kit_devtools.testing._hooks import SENT_KEYWORDS
from kit_devtools.testing._manifest import has_manifest
from kit_devtools.testing.host_names import MODELLED

__all__ = ["lint_plugin"]


def _events(host: InMemoryHost, plugin: str, surface: str) -> list[Any]:
    return [e for e in host.events if e.plugin == plugin and e.surface == surface]


declare("tool name, toolset, handler", {
    "HPK116": Rule(E, "hermes refused the tool: {message}",
                   "rename it; built-in names are taken",
                   "register_tool refuses a name a built-in or another plugin holds"
                   " (hermes_cli.plugins.PluginContext.register_tool,"
                   " tools.registry.ToolRegistry.register)"),
})  # fmt: skip


def _tool_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found: list[Finding] = []
    refused = {e.name: e for e in _events(host, plugin.name, "tool")}
    # from 0.20.1 a refused register_tool returns None and is not credited to the plugin
    # (``hermes_cli.plugins.PluginContext.register_tool``): only the event says so
    found += [
        finding("HPK116", f"tool {name}", message=event.message)
        for name, event in refused.items()
        if name not in plugin.tools
    ]
    for name in plugin.tools:
        entry = host.tools.get(name)
        if entry is None or entry.plugin != plugin.name:
            message = refused[name].message if name in refused else "not registered"
            found.append(finding("HPK116", f"tool {name}", message=message))
            continue
        found += name_findings(name, plugin.key, entry.toolset, host.release)
        found += schema_findings(name, entry.schema)
        found += bridge_line_findings(name, entry.schema, host.release)
        found += handler_findings(
            name,
            entry.handler,
            entry.is_async,
            host.release.tool_keywords,
            narrows=host.release.narrows_handler_kwargs,
        )
    return found


declare("commands", {
    "HPK201": Rule(E, "'_' in a command name: messaging platforms look commands up with '_'"
                   " turned into '-', so /{name} is unreachable there", "use {suggestion}",
                   "the gateway resolves a slash command with '_' replaced by '-' before"
                   " get_plugin_command_handler (gateway/run.py)"),
    "HPK202": Rule(E, "hermes skipped the command: {message}", "choose another name",
                   "register_command refuses an empty name or a built-in command's"
                   " (hermes_cli.plugins.PluginContext.register_command)"),
    "HPK203": Rule(E, "the handler cannot take the {what}", "give it one positional parameter",
                   "hermes calls a slash command's handler(raw_args) and a CLI command's"
                   " handler_fn(args): a TypeError instead of the command"),
    "HPK204": Rule(E, "'hermes {name}' is a built-in subcommand: hermes never runs the"
                   " plugin's, and adding it fails, which hides every plugin terminal command"
                   " added after it", "choose another name",
                   "hermes_cli/main.py skips plugin discovery for a built-in subcommand;"
                   " otherwise it adds the plugins' commands in one loop, where argparse"
                   " raises 'conflicting subparser' (Python 3.11+) and the loop ends"
                   " ('Plugin CLI discovery failed', logged at debug)"),
    "HPK205": Rule(E, "the CLI command has no setup_fn: hermes calls setup_fn(subparser)"
                   " unconditionally and the failure hides the command, and every plugin"
                   " terminal command added after it",
                   "pass setup_fn=lambda parser: None",
                   "the CLI's plugin subcommand wiring calls setup_fn(parser)"
                   " (hermes_cli/main.py; hermes_cli.plugins.PluginContext.register_cli_command)"),
})  # fmt: skip


def _command_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found = [
        finding("HPK202", f"command {e.name}", message=e.message)
        for e in _events(host, plugin.name, "command")
    ]
    for name in plugin.commands:
        entry = host.commands[name]
        if "_" in name:
            suggestion = "/" + name.replace("_", "-")
            found.append(finding("HPK201", f"command {name}", name=name, suggestion=suggestion))
        if signature_shape(entry.handler) == (False, False):
            found.append(finding("HPK203", f"command {name}", what="raw argument text"))
    for name in plugin.cli_commands:
        entry = host.cli_commands[name]
        where = f"CLI command {name}"
        if name in MODELLED.cli_commands:
            found.append(finding("HPK204", where, name=name))
        if entry.setup_fn is None:
            found.append(finding("HPK205", where))
        if entry.handler_fn is not None and signature_shape(entry.handler_fn) == (False, False):
            found.append(finding("HPK203", where, what="parsed argparse.Namespace"))
    return found


declare("hooks and middleware", {
    "HPK301": Rule(E, "the callback does not take **kwargs: hermes adds keywords"
                   " (telemetry_schema_version at least), the TypeError is swallowed and the"
                   " callback silently never runs", "add **kwargs to its parameters",
                   "invoke_hook calls callback(**kwargs) and logs the exception"
                   " (hermes_cli.plugins.PluginManager.invoke_hook)"),
    "HPK302": Rule(E, "{host} calls this {surface} synchronously: an async def body never runs"
                   " (or its coroutine becomes the result)",
                   "make it a plain def",
                   "invoke_hook and the middleware chains call the callback without awaiting"
                   " (hermes_cli.plugins.PluginManager.invoke_hook, hermes_cli.middleware)"),
    "HPK303": Rule(E, "{surface} {name!r} is not one hermes knows: it is stored and never"
                   " called", "{known}",
                   "register_hook and register_middleware warn on an unknown name and store"
                   " it; nothing invokes it (hermes_cli.plugins.PluginContext.register_hook,"
                   " hermes_cli.plugins.PluginContext.register_middleware)"),
})  # fmt: skip


def _unknown_name_hint(name: str, known: Iterable[str]) -> str:
    names = sorted(known)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"one of {', '.join(names)}"


def _callback_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found: list[Finding] = []
    known = {"hook": host.release.hooks, "middleware": host.release.middleware}
    for surface, table, names in (
        ("hook", host.hooks, plugin.hooks),
        ("middleware", host.middleware, plugin.middleware),
    ):
        found.extend(
            finding("HPK303", f"{surface} {e.name}", surface=surface, name=e.name,
                    known=_unknown_name_hint(e.name, known[surface]))
            for e in _events(host, plugin.name, surface)
        )  # fmt: skip
        for name in sorted(set(names)):
            for entry in table.get(name, ()):
                if entry.plugin == plugin.name:
                    found += _callback_shape(surface, name, entry.callback, host.release)
    return found


def _fails_on_keywords(surface: str, name: str, callback: object, release: HostRelease) -> bool:
    """Whether the release's call of the callback raises TypeError (which hermes logs, so
    the callback never runs). Middleware, and a hook before 0.20.1, get every keyword: a
    callback without ``**kwargs`` fails (``callback(**kwargs)`` in 0.19.0's
    ``hermes_cli.plugins.PluginManager.invoke_hook``). A release that narrows hook keywords
    (``narrows_hook_kwargs``: ``hermes_cli.plugins.PluginManager._invoke_hook_callback``,
    ``hermes_cli.plugins.PluginManager._hook_callback_kwargs``) passes such a callback only
    the keywords it declares, so it fails only when it requires a positional-only parameter
    or one the hook never sends (known for the tool-call hooks, :data:`SENT_KEYWORDS`)."""
    shape = signature_shape(callback)
    if shape is None or shape[1]:
        return False
    if surface != "hook" or not release.narrows_hook_kwargs:
        return True
    sent = SENT_KEYWORDS.get(name)
    return any(  # a required parameter the narrowed call cannot fill
        p.kind is p.POSITIONAL_ONLY or (sent is not None and p.name not in sent)
        for p in signature_of(cast("Any", callback)).parameters.values()
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    )


def _callback_shape(
    surface: str, name: str, callback: object, release: HostRelease
) -> list[Finding]:
    where = f"{surface} {name}"
    found: list[Finding] = []
    if _fails_on_keywords(surface, name, callback, release):
        found.append(finding("HPK301", where))
    # upstream awaits an async def hook
    # (``hermes_cli.plugins.PluginManager._invoke_hook_callback``);
    # middleware stays synchronous on every release
    if is_coroutine_function(callback) and not (surface == "hook" and release.awaits_hooks):
        found.append(finding("HPK302", where, host=release.label, surface=surface))
    return found


declare("skills", {
    "HPK401": Rule(E, "the skill path {path} is not a file hermes can serve ({why})",
                   "point plugin_skill/register_skill at the skill's file itself (its"
                   " SKILL.md)",
                   "register_skill raises FileNotFoundError for a path that does not"
                   " exist, which disables the plugin"
                   " (hermes_cli.plugins.PluginContext.register_skill); a directory is"
                   " registered, and skill_view fails reading it; a file of any name is read"
                   " (tools.skills_tool._serve_plugin_skill)"),
})  # fmt: skip


def _skill_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found: list[Finding] = []
    for qualified in plugin.skills:
        entry = host.skills.get(qualified)
        path = getattr(entry, "path", None)
        if path is None:
            continue
        if path.is_dir():
            why = "it is a directory; hermes reads the file it is given"
        elif not path.is_file():
            why = "the file is missing"
        else:
            continue
        found.append(finding("HPK401", f"skill {qualified}", path=path, why=why))
    return found


def lint_plugin(
    host: InMemoryHost,
    plugin: LoadedPlugin,
    memory: MemoryProviderLoad | None = None,
    model: ModelProviderLoad | None = None,
    cron: CronProviderLoad | None = None,
) -> list[Finding]:
    """Every finding for ``plugin`` as the in-memory ``host`` loaded it; for a memory or
    model provider, what its discovery gave (``memory``, ``model``: from
    :func:`~._provider_rules.memory_provider_of` and
    :func:`~._provider_rules.model_provider_of`) replaces the general loader's verdict, which
    records it without loading it. A plugin the general loader loads and memory discovery
    takes too (``kind: standalone``) is judged on both; so is a cron scheduler provider
    (``cron``: from :func:`~._cron_rules.cron_provider_of`)."""
    general = model is None and (memory is None or plugin.kind != "exclusive")
    if cron is not None and plugin.path is not None and not has_manifest(plugin.path):
        general = False  # cron discovery alone reads a folder without plugin.yaml
    found = load_findings(plugin) if general else []  # a general plugin, a provider also
    if memory is not None:
        found += memory_provider_findings(plugin, memory)
    if model is not None:
        found += model_provider_findings(plugin, model)
    if cron is not None:  # from a folder the general loader loads too, if it has a manifest
        found += cron_provider_findings(plugin, cron)
    found += manifest_findings(plugin, host.release)
    found += _skill_findings(host, plugin)
    found += _tool_findings(host, plugin)
    found += _command_findings(host, plugin)
    found += _callback_findings(host, plugin)
    found += provision_findings(host, plugin)
    root = source_root(plugin)
    if root is not None and general:  # a provider's register() alone gets its
        # discovery's collector, not a PluginContext
        found += absent_member_findings(root, host.release, plugin.exception)
    return found
