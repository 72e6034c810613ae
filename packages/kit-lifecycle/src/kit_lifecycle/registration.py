"""``register_plugin``: every surface of a plugin, checked first, registered in one step."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any, Final, cast

from kit_core import (
    Declaration,
    HookSpec,
    RegistrationError,
    ToolSpec,
    declaration_of,
    declarations_in,
)
from kit_core._host_model import first_release
from kit_core.declarations import resolve_module
from kit_lifecycle._fail_closed import warn_fail_closed
from kit_lifecycle._host import (
    host_tool_registry,
    is_host_context,
    running_host_hooks,
    running_host_release,
)
from kit_lifecycle._rollback import Rollback
from kit_lifecycle._secrets import SecretEnv, secret_env_of
from kit_lifecycle.commands import CommandSpec, CommandType
from kit_lifecycle.middleware import MiddlewareSpec
from kit_lifecycle.skills import PluginSkill
from kit_lifecycle.summary import RegistrationSummary, log_registration_summary

__all__ = ["register_plugin"]

_NAMESPACE: Final = re.compile(r"[A-Za-z0-9_-]+")


class _Plan:
    """What will be registered, by surface and name, after every check passed."""

    __slots__ = (
        "cli_commands",
        "commands",
        "hooks",
        "middlewares",
        "seen",
        "skills",
        "skipped",
        "tools",
    )

    def __init__(self) -> None:
        self.tools: dict[str, tuple[ToolSpec, Callable[..., Any]]] = {}
        self.commands: dict[str, CommandSpec] = {}
        self.cli_commands: dict[str, CommandSpec] = {}
        self.middlewares: dict[str, MiddlewareSpec] = {}
        self.hooks: dict[str, HookSpec] = {}
        self.skills: dict[str, PluginSkill] = {}
        self.skipped: list[PluginSkill] = []
        self.seen: set[int] = set()

    def add(self, obj: object, declaration: Declaration | None = None) -> bool:
        """File one declaration (``obj``'s, read here unless given); False when ``obj``
        carries none.

        Raises:
            RegistrationError: a duplicate name, or a declaration of a surface
                ``register_plugin`` does not register.
        """
        if id(obj) in self.seen:
            return True
        if declaration is None:
            declaration = declaration_of(obj)
        if declaration is None:
            return False
        if isinstance(declaration, ToolSpec):
            handler = cast("Callable[..., Any]", obj)
            _put(self.tools, declaration.name, (declaration, handler), "tool name")
        elif isinstance(declaration, CommandSpec):
            cmd = declaration
            slash = cmd.type is CommandType.SLASH
            table, other = (
                (self.commands, self.cli_commands) if slash else (self.cli_commands, self.commands)
            )
            if cmd.name in other:
                msg = (
                    f"command name {cmd.name} is declared both as a slash command and a CLI"
                    " command; give them different names so each is clear in the receipt and"
                    " in help"
                )
                raise RegistrationError(msg)
            _put(table, cmd.name, cmd, "command name" if slash else "CLI command name")
        elif isinstance(declaration, MiddlewareSpec):
            _put(self.middlewares, declaration.kind, declaration, "middleware kind")
        elif isinstance(declaration, HookSpec):
            _put(self.hooks, declaration.name, declaration, "hook name")
        else:
            msg = (
                f"{obj!r} carries a {type(declaration).__name__} declaration"
                f" (surface {declaration.surface!r}), which register_plugin does not register;"
                " register it with the kit package that declared it"
            )
            raise RegistrationError(msg)
        self.seen.add(id(obj))
        return True


def _put(table: dict[str, Any], name: str, value: Any, what: str) -> None:
    if name in table:
        msg = (
            f"duplicate {what}: {name} (two different declarations); declare one callable"
            f" per {what} and combine the behaviour inside it"
        )
        raise RegistrationError(msg)
    table[name] = value


def _module(declarations: object) -> ModuleType | None:
    if isinstance(declarations, ModuleType | str):
        return resolve_module(declarations, "register its declarations")
    return None


def _collect(declarations: object) -> tuple[_Plan, str | None]:
    plan = _Plan()
    module = _module(declarations)
    if module is not None:
        for _, value, declaration in declarations_in(module):
            plan.add(value, declaration)
        return plan, module.__name__
    if not isinstance(declarations, Iterable) or isinstance(declarations, bytes | Mapping):
        msg = (
            "declarations must be a module, a loaded module's name, or an iterable of decorated"
            f" callables; got {type(cast(object, declarations)).__name__}"
        )
        raise RegistrationError(msg)
    first: str | None = None
    for index, item in enumerate(cast("Iterable[object]", declarations)):
        if not callable(item) or not plan.add(item):
            msg = (
                f"declarations[{index}] ({item!r}) is not a @tool, @command, @middleware or"
                " @hook declaration; pass only decorated callables (skills go in skills=)"
            )
            raise RegistrationError(msg)
        first = first or getattr(item, "__module__", None)
    return plan, first


def _plan_skills(plan: _Plan, skills: Iterable[PluginSkill], logger: logging.Logger) -> None:
    if isinstance(skills, PluginSkill):
        skills = (skills,)
    if not isinstance(skills, Iterable) or isinstance(skills, bytes | Mapping):
        msg = (
            "skills must be a list of plugin_skill() declarations (or left out), got"
            f" {type(cast(object, skills)).__name__}"
        )
        raise RegistrationError(msg)
    for skill in skills:
        if not isinstance(skill, PluginSkill):
            msg = f"skills must contain plugin_skill() declarations, got {skill!r}"
            raise RegistrationError(msg)
        if skill.name in plan.skills or any(s.name == skill.name for s in plan.skipped):
            msg = f"duplicate skill name: {skill.name}"
            raise RegistrationError(msg)
        if skill.present:
            plan.skills[skill.name] = skill
        elif skill.optional:
            logger.warning(
                "hermes_plugin_kit: optional skill missing; name=%s; path=%s",
                skill.name,
                skill.path,
            )
            plan.skipped.append(skill)
        else:
            msg = (
                f"skill {skill.name!r}: SKILL.md not found at {skill.path}; ship the file with"
                " the plugin, or declare it with optional=True"
            )
            raise RegistrationError(msg)


_SURFACE = {
    "register_command": "slash commands",
    "register_cli_command": "CLI commands",
    "register_tool": "tools",
    "register_middleware": "middleware",
    "register_hook": "hooks",
    "register_skill": "skills",
}


def _check_host(ctx: Any, plan: _Plan, plugin_name: str) -> None:
    needs = {
        "register_command": plan.commands,
        "register_cli_command": plan.cli_commands,
        "register_tool": plan.tools,
        "register_middleware": plan.middlewares,
        "register_hook": plan.hooks,
        "register_skill": plan.skills,
    }
    for registrar, items in needs.items():
        if items and not callable(getattr(ctx, registrar, None)):
            since = first_release(lambda r, member=registrar: r.offers(member))
            if since is not None and is_host_context(ctx):
                msg = (
                    f"{running_host_release()} has no {registrar}(): it came with"
                    f" {since.label}. Upgrade hermes to {since.version} or later, or leave"
                    f" the {_SURFACE[registrar]} out on this host (register_plugin takes a list"
                    " of the declarations to register)"
                )
            else:
                msg = (
                    f"this hermes plugin context ({type(ctx).__name__}) does not support"
                    f" {registrar}(); pass the PluginContext hermes gives register(ctx), or a"
                    " newer hermes-agent"
                )
            raise RegistrationError(msg)
    host_hooks = running_host_hooks()
    lacking = sorted(set(plan.hooks) - host_hooks) if host_hooks is not None else []
    if lacking:
        since = {h: first_release(lambda r, h=h: h in r.hooks) for h in lacking}
        added = "; ".join(
            f"{h!r} came with {release.label}" for h, release in since.items() if release
        )
        msg = (
            f"{running_host_release()} has no hook {', '.join(map(repr, lacking))}"
            f"{f' ({added})' if added else ''}: it would store the callback and never call"
            " it. Upgrade hermes, or leave the hook out on this host (register_plugin takes a"
            " list of the declarations to register)"
        )
        raise RegistrationError(msg)
    if plan.skills and not _NAMESPACE.fullmatch(plugin_name):
        msg = (
            f"plugin name {plugin_name!r} cannot namespace skills: hermes needs it to match"
            " [A-Za-z0-9_-]+; rename the plugin in plugin.yaml"
        )
        raise RegistrationError(msg)
    get_entry = getattr(host_tool_registry(), "get_entry", None)
    if not callable(get_entry):
        return
    for name, (spec, _) in plan.tools.items():
        entry = get_entry(name)
        toolset = getattr(entry, "toolset", spec.toolset)
        if entry is not None and toolset != spec.toolset:
            msg = (
                f"tool {name!r} is already registered by hermes in toolset {toolset!r}; the host"
                " would refuse yours with only an error log. Namespace it, e.g."
                f" tool_name({plugin_name.replace('-', '_')!r}, verb, noun)"
            )
            raise RegistrationError(msg)


def _names(ctx: Any, declared: str | None, plugin_name: str | None) -> str:
    if plugin_name is not None:
        if not isinstance(plugin_name, str) or not plugin_name.strip():
            msg = "plugin_name must be a non-empty string"
            raise RegistrationError(msg)
        return plugin_name.strip()
    manifest_name = getattr(getattr(ctx, "manifest", None), "name", None)
    if isinstance(manifest_name, str) and manifest_name.strip():
        return manifest_name.strip()
    return declared or "hermes_plugin_kit"


def register_plugin(
    ctx: Any,
    declarations: ModuleType | str | Iterable[Callable[..., Any]],
    skills: Iterable[PluginSkill] = (),
    *,
    plugin_name: str | None = None,
    logger: logging.Logger | None = None,
) -> RegistrationSummary:
    """Register a plugin's tools, commands, middleware, hooks and skills with the host.

    ``declarations`` is a module, a loaded module's name, or an iterable of decorated
    callables (pass only the active ones for runtime-gated surfaces); all three give
    the same result for the same declarations. Everything is checked before anything
    is registered: duplicate tool, command, CLI command, middleware kind, hook and skill
    names, a name used for both a slash and a CLI command, missing required skills,
    registrars the context lacks, and tool names hermes already holds. Then the
    surfaces are registered in a fixed order (commands, CLI commands, tools,
    middleware, hooks, skills; each sorted by name) and one INFO receipt is logged with
    :func:`log_registration_summary`.

    The receipt names the plugin from ``plugin_name``, else the host manifest, else the
    module; it goes to ``logger``, else the module's logger.

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
    plan, declared = _collect(declarations)
    log = logger or logging.getLogger(declared or "hermes_plugin_kit")
    name = _names(ctx, declared, plugin_name)
    _plan_skills(plan, skills, log)
    _check_host(ctx, plan, name)
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


def _bind_secrets(plan: _Plan) -> SecretEnv:
    """Bind the ``requires_env`` names of the plan's tools to every kit-built command,
    middleware and hook callback in it; return every secret name of the plugin."""
    tool_names = {env for spec, _ in plan.tools.values() for env in spec.requires_env}
    plugin = SecretEnv(tool_names)
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


def _register(ctx: Any, plan: _Plan, rollback: Rollback) -> None:
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
    for mw in sorted(plan.middlewares.values(), key=lambda m: m.kind):
        rollback.run(
            "middleware",
            mw.kind,
            lambda mw=mw: ctx.register_middleware(mw.kind, mw.callback),
            mw.callback,
        )
    for hk in sorted(plan.hooks.values(), key=lambda h: h.name):
        rollback.run(
            "hook", hk.name, lambda hk=hk: ctx.register_hook(hk.name, hk.callback), hk.callback
        )
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
