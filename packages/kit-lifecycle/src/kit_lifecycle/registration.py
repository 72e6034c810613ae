"""``register_plugin``: every surface of a plugin, checked first, registered in one step."""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, Final

from kit_core import RegistrationError
from kit_core._running_host import (
    awaits_hooks,
    is_host_context,
    keeps_ledger,
    loaded,
    running_hooks,
    running_label,
)
from kit_core.hermes import first_release
from kit_lifecycle._fail_closed import warn_fail_closed
from kit_lifecycle._plan import Plan, collect
from kit_lifecycle._rollback import Rollback, Surface
from kit_lifecycle._secrets import EnvSecrets, secret_env_of
from kit_lifecycle.skills import PluginSkill
from kit_lifecycle.summary import RegistrationSummary, log_registration_summary

__all__ = ["register_plugin"]

_NAMESPACE: Final = re.compile(r"[A-Za-z0-9_-]+")


_SURFACE: Final = {  # registrar: (the Plan table it registers, how a message names it)
    "register_command": ("commands", "slash commands"),
    "register_cli_command": ("cli_commands", "CLI commands"),
    "register_tool": ("tools", "tools"),
    "register_middleware": ("middlewares", "middleware"),
    "register_hook": ("hooks", "hooks"),
    "register_skill": ("skills", "skills"),
}


def _check_host(ctx: Any, plan: Plan, plugin_name: str, *, namespaces: bool = True) -> None:
    for registrar, (table, surface) in _SURFACE.items():
        if getattr(plan, table) and not callable(getattr(ctx, registrar, None)):
            since = first_release(lambda r, member=registrar: r.offers(member))
            if since is not None and is_host_context(ctx):
                msg = (
                    f"{running_label()} has no {registrar}(): it came with"
                    f" {since.label}. Upgrade hermes to {since.version} or later, or leave"
                    f" the {surface} out on this host (register_plugin takes a list"
                    " of the declarations to register)"
                )
            else:
                msg = (
                    f"this hermes plugin context ({type(ctx).__name__}) does not support"
                    f" {registrar}(); pass the PluginContext hermes gives register(ctx), or a"
                    " newer hermes-agent"
                )
            raise RegistrationError(msg)
    host_hooks = running_hooks()
    lacking = sorted(set(plan.hooks) - host_hooks) if host_hooks is not None else []
    if lacking:
        since = {h: first_release(lambda r, h=h: h in r.hooks) for h in lacking}
        added = "; ".join(
            f"{h!r} came with {release.label}" for h, release in since.items() if release
        )
        msg = (
            f"{running_label()} has no hook {', '.join(map(repr, lacking))}"
            f"{f' ({added})' if added else ''}: it would store the callback and never call"
            " it. Upgrade hermes, or leave the hook out on this host (register_plugin takes a"
            " list of the declarations to register)"
        )
        raise RegistrationError(msg)
    _check_async_hooks(plan)
    if plan.skills and namespaces and not _NAMESPACE.fullmatch(plugin_name):
        msg = (
            f"plugin name {plugin_name!r} cannot namespace skills: hermes needs it to match"
            " [A-Za-z0-9_-]+; rename the plugin in plugin.yaml"
        )
        raise RegistrationError(msg)
    _check_tool_names(ctx, plan, plugin_name)


def _check_async_hooks(plan: Plan) -> None:
    """Refuse ``async def`` hook callbacks on a release that never awaits them (it calls
    the callback, drops the coroutine unawaited and the hook does nothing), naming that
    release and the first that awaits them; as the host model observed each release."""
    if awaits_hooks() is not False:
        return
    names = sorted(
        name for name, spec in plan.hooks.items() if inspect.iscoroutinefunction(spec.callback)
    )
    if names:
        since = first_release(lambda r: r.awaits_hooks)
        later = f"; {since.label} and later await them" if since is not None else ""
        msg = (
            f"async def hook {', '.join(map(repr, names))}: {running_label()} calls"
            f" hooks synchronously and drops the coroutine, so the hook never runs{later}."
            " Write it as a plain def, or require that release"
        )
        raise RegistrationError(msg)


def _check_tool_names(ctx: Any, plan: Plan, plugin_name: str) -> None:
    """Refuse, before anything is registered, a tool name this host would not take,
    saying what the host would do with it.

    The registry asked is ``tools.registry.registry`` where hermes is loaded.

    * hermes-agent 0.19.0 (a context without a registration ledger): ``get_entry(name)``
      answers its one table; a name held in another toolset is rejected by
      ``registry.register`` with an ERROR log and nothing else, so the plugin would load
      without the tool (one held in the plugin's own toolset is replaced).
    * Upstream hermes (a context whose manager keeps ``_ownership_ledger``, as
      :class:`~kit_lifecycle._rollback.Rollback` detects it): plugin tools live in a
      per-home overlay. ``get_entry(name, *, scope=None)`` answers the current home's
      overlay, then the global tools, and ``snapshot_registration(name, *, scope)`` the
      overlay alone (``ToolRegistry.get_entry`` and ``ToolRegistry.snapshot_registration``
      of upstream ``tools.registry``). ``register_tool``
      refuses a name the overlay lacks and the global tools hold, in any toolset, with a
      WARNING, returning None without calling the registry; a name another plugin of the
      same home holds in another toolset reaches ``registry.register``, which rejects it
      with an ERROR, and ``register_tool`` again returns None
      (``hermes_cli.plugins.PluginContext.register_tool``). The kit asks the same two questions,
      with the manager's ``scope_key``. A plugin tool of another hermes home is not seen,
      and does not clash.

    The in-memory host's upstream profile keeps one registry, not an overlay per home (it
    holds one home): its overlay is the host's plugin tools, its global tools the built-in
    ones.
    """
    registry = loaded("tools.registry", "registry")
    get_entry = getattr(registry, "get_entry", None)
    if not callable(get_entry):
        return
    ledger = keeps_ledger(ctx)
    overlay = getattr(registry, "snapshot_registration", None) if ledger else None
    scope = getattr(getattr(ctx, "_manager", None), "scope_key", None)
    hint = f" Namespace it, e.g. tool_name({plugin_name.replace('-', '_')!r}, verb, noun)"
    for name, (spec, _) in plan.tools.items():
        entry = get_entry(name)
        if entry is None:
            continue
        toolset = getattr(entry, "toolset", spec.toolset)
        if callable(overlay) and overlay(name, scope=scope) is None:
            msg = (
                f"tool {name!r} is a built-in tool of this hermes (toolset {toolset!r}); the"
                " host would refuse yours with a WARNING: register_tool returns no"
                " registration and never calls the registry."
            )
        elif toolset == spec.toolset:
            continue
        elif ledger:
            msg = (
                f"tool {name!r} is already registered by another plugin in toolset"
                f" {toolset!r} in this hermes home; the host's registry would reject yours"
                " with an ERROR and register_tool return no registration."
            )
        else:
            msg = (
                f"tool {name!r} is already registered by hermes in toolset {toolset!r}; the"
                " host would refuse yours with only an error log."
            )
        raise RegistrationError(msg + hint)


def _names(ctx: Any, declared: str | None, plugin_name: str | None) -> tuple[str, bool]:
    """The plugin's name, and whether hermes namespaces its skills by it: the author's
    ``plugin_name``, the manifest's name, the context's ``plugin_id`` do; the first module's
    name, used where the context has neither, does not (only a context with a manifest
    namespaces skills: ``PluginContext.register_skill`` takes ``manifest.skill_namespace or
    manifest.name``, from 0.21.3), so it is not
    checked as a namespace."""
    if plugin_name is not None:
        if not isinstance(plugin_name, str) or not plugin_name.strip():
            msg = "plugin_name must be a non-empty string"
            raise RegistrationError(msg)
        return plugin_name.strip(), True
    manifest_name = getattr(getattr(ctx, "manifest", None), "name", None)
    if isinstance(manifest_name, str) and manifest_name.strip():
        return manifest_name.strip(), True
    # a context with a plugin_id and no manifest: hermes' own `hermes plugins validate`
    # capability probe (hermes_cli/plugin_validate.py, the RecordingContext of its
    # _PROBE_SCRIPT run by _run_capability_probe: plugin_id = "hermes_validate_probe_plugin",
    # from 0.21.4; other names raise AttributeError unless PluginContext has such a method).
    # The first module's name there may be a submodule's dotted name, which cannot
    # namespace skills; the plugin_id can. (0.21.3's probe answers every attribute with a
    # no-op callable: not a str, so the module's name is used, and its register_skill is
    # one of those no-ops, which namespaces nothing.)
    plugin_id = getattr(ctx, "plugin_id", None)
    if isinstance(plugin_id, str) and plugin_id.strip():
        return plugin_id.strip(), True
    return declared or "hermes_plugin_kit", False


def register_plugin(
    ctx: Any,
    declarations: ModuleType | str | Iterable[ModuleType | str | Callable[..., Any]],
    skills: Iterable[PluginSkill] = (),
    *,
    plugin_name: str | None = None,
    logger: logging.Logger | None = None,
) -> RegistrationSummary:
    """Register a plugin's tools, commands, middleware, hooks and skills with the host.

    ``declarations`` is a module, a loaded module's name, or an iterable mixing modules,
    module names and decorated callables (``[tools_module, commands_module, extra_fn]``;
    pass only the active ones for runtime-gated surfaces); each gives the same result
    for the same declarations. One object reached twice (a callable a module imports
    from another, or listed beside its module) counts once. Everything is checked
    before anything is registered: duplicate tool, command, CLI command, middleware
    kind, hook and skill names (two different declarations of one name are an error
    naming both places), a name used for both a slash and a CLI command, missing required skills,
    registrars the context lacks, and tool names hermes already holds. Then the
    surfaces are registered in a fixed order (commands, CLI commands, tools,
    middleware, hooks, skills; each sorted by name) and one INFO receipt is logged with
    :func:`log_registration_summary`.

    The receipt names the plugin from ``plugin_name``, else the host manifest, else the
    first module; it goes to ``logger``, else the first module's logger.

    When a host registrar raises midway (a SKILL.md removed after the checks, a
    registrar refusing a value) or the receipt cannot be logged, what was registered
    is undone, newest first, as far as the host allows (see
    :class:`~kit_lifecycle.PartialRegistrationError`), and one error says what failed,
    what was rolled back and what is left registered.

    The ``requires_env`` names of the plugin's tools are bound to every command,
    middleware and hook it registers: their log lines and the exceptions leaving them
    never show those variables' current values, and neither does the error above.

    Raises:
        RegistrationError: naming what is wrong, before anything was registered.
        PartialRegistrationError: a host registrar or the receipt failed midway.
    """
    if logger is not None and not isinstance(logger, logging.Logger):
        msg = f"logger must be a logging.Logger, got {type(logger).__name__}"
        raise RegistrationError(msg)
    plan, declared = collect(declarations)
    log = logger or logging.getLogger(declared or "hermes_plugin_kit")
    name, namespaces = _names(ctx, declared, plugin_name)
    plan.add_skills(skills, log)
    _check_host(ctx, plan, name, namespaces=namespaces)
    warn_fail_closed(plan.hooks, name, log)
    secrets = _bind_secrets(plan)
    summary = RegistrationSummary(
        tools=tuple(plan.tools),
        hooks=tuple(plan.hooks),
        skills=tuple(plan.skills),
        skipped_optional_skills=tuple(s.name for s in plan.skipped),
        commands=tuple(plan.commands),
        middlewares=tuple(plan.middlewares),
        cli_commands=tuple(plan.cli_commands),
    )
    rollback = Rollback(ctx)
    try:
        _register(ctx, plan, rollback)
        rollback.run("receipt", name, lambda: log_registration_summary(log, name, summary))
    except BaseException as exc:
        error = rollback.failure(exc, name, secrets.values())
        if not isinstance(exc, Exception):  # an interrupt stays one, with the report noted
            exc.add_note(str(error))
            raise
        raise error from exc
    return summary


def _bind_secrets(plan: Plan) -> EnvSecrets:
    """Bind the ``requires_env`` names of the plan's tools to every kit-built command,
    middleware and hook callback in it; return every secret name of the plugin."""
    tool_names = {env for spec, _ in plan.tools.values() for env in spec.requires_env}
    plugin = EnvSecrets(tool_names)
    callbacks = [
        *(cmd.handler for cmd in (*plan.commands.values(), *plan.cli_commands.values())),
        *(mw.callback for mw in plan.middlewares.values()),
        *(hk.callback for hk in plan.hooks.values()),
    ]
    for callback in callbacks:
        env = secret_env_of(callback)
        if env is not None:
            env.add(tool_names)
            plugin.add(env.names)
    return plugin


def _register(ctx: Any, plan: Plan, rollback: Rollback) -> None:
    """Hand every planned surface to the host, one registrar call at a time."""
    for cmd in sorted(plan.commands.values(), key=lambda c: c.name):
        rollback.run(
            "command",
            cmd.name,
            lambda cmd=cmd: ctx.register_command(
                name=cmd.name,
                handler=cmd.handler,
                description=cmd.description,
                args_hint=cmd.args_hint,
            ),
        )
    for cmd in sorted(plan.cli_commands.values(), key=lambda c: c.name):
        rollback.run(
            "CLI command",
            cmd.name,
            lambda cmd=cmd: ctx.register_cli_command(
                name=cmd.name,
                help=cmd.help,
                setup_fn=cmd.setup_fn or _no_arguments,
                handler_fn=cmd.handler,
                description=cmd.description,
            ),
        )
    register_tool: Any = ctx.register_tool if plan.tools else None
    for _, (spec, fn) in sorted(plan.tools.items()):  # by name (the keys, all different)
        kwargs = spec.register_kwargs(fn)
        rollback.run_with("tool", spec.name, register_tool, kwargs, kwargs["handler"])
    surfaces: tuple[Surface, ...] = ("middleware", "hook")
    for surface in surfaces:  # register_middleware(kind, callback), register_hook(name, callback)
        table = plan.middlewares if surface == "middleware" else plan.hooks
        registrar = f"register_{surface}"
        for key, cb in sorted((key, spec.callback) for key, spec in table.items()):
            rollback.run(surface, key, lambda r=registrar, k=key, cb=cb: getattr(ctx, r)(k, cb), cb)
    for skill in sorted(plan.skills.values(), key=lambda s: s.name):
        rollback.run(
            "skill",
            skill.name,
            lambda skill=skill: ctx.register_skill(
                name=skill.name, path=skill.path, description=skill.description
            ),
        )


def _no_arguments(parser: Any) -> None:
    """The setup_fn of a CLI command that takes no arguments of its own."""
