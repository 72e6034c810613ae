"""What ``register_plugin`` will register: its declarations gathered from modules and
decorated callables, by surface and name, with where each came from."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any, cast

from kit_core import (
    Declaration,
    HookSpec,
    RegistrationError,
    ToolSpec,
    declaration_of,
    declarations_in,
)
from kit_core._method_tool import refuse_registering
from kit_core.declarations import resolve_module
from kit_lifecycle.commands import CommandSpec, CommandType
from kit_lifecycle.middleware import MiddlewareSpec
from kit_lifecycle.skills import PluginSkill, relative_path_hint

__all__ = ["Plan", "collect"]


class Plan:
    """What will be registered, by surface and name, after every check passed."""

    __slots__ = (
        "cli_commands",
        "commands",
        "hooks",
        "middlewares",
        "places",
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
        self.seen: dict[int, object] = {}
        """Every object filed, by id (held, so an id is never reused meanwhile)."""
        self.places: dict[tuple[str, str], str] = {}
        """Where each filed declaration was found, by (surface, name), for errors."""

    def add(self, obj: object, declaration: Declaration | None = None, where: str = "") -> bool:
        """File one declaration (``obj``'s, read here unless given), found at ``where``;
        False when ``obj`` carries none. One object reached twice counts once.

        Raises:
            RegistrationError: a duplicate name (naming both places), or a declaration
                of a surface ``register_plugin`` does not register.
        """
        if id(obj) in self.seen:
            return True
        if declaration is None:
            declaration = declaration_of(obj)
        if declaration is None:
            return False
        where = where or _place_of(obj)
        if isinstance(declaration, ToolSpec):
            refuse_registering(declaration.name, declaration.is_method, where)
            handler = cast("Callable[..., Any]", obj)
            self._put(self.tools, declaration.name, (declaration, handler), "tool name", where)
        elif isinstance(declaration, CommandSpec):
            cmd = declaration
            kinds = [(self.commands, "command name"), (self.cli_commands, "CLI command name")]
            (table, what), (other, other_what) = (
                kinds if cmd.type is CommandType.SLASH else kinds[::-1]
            )
            if cmd.name in other:
                first = self.places.get((other_what, cmd.name), "?")
                msg = (
                    f"command name {cmd.name} is declared both as a slash command and a CLI"
                    f" command ({first} and {where}); give them different names so each is"
                    " clear in the receipt and in help"
                )
                raise RegistrationError(msg)
            self._put(table, cmd.name, cmd, what, where)
        elif isinstance(declaration, MiddlewareSpec):
            self._put(self.middlewares, declaration.kind, declaration, "middleware kind", where)
        elif isinstance(declaration, HookSpec):
            self._put(self.hooks, declaration.name, declaration, "hook name", where)
        else:
            msg = (
                f"{obj!r} carries a {type(declaration).__name__} declaration"
                f" (surface {declaration.surface!r}), which register_plugin does not register;"
                " register it with the kit package that declared it"
            )
            raise RegistrationError(msg)
        self.seen[id(obj)] = obj
        return True

    def add_skills(self, skills: object, logger: logging.Logger) -> None:
        """File the ``skills=`` declarations: present ones to register, missing optional
        ones skipped with a warning.

        Raises:
            RegistrationError: not plugin_skill() declarations, a duplicate name (naming
                both SKILL.md paths), or a required SKILL.md that is missing.
        """
        if isinstance(skills, PluginSkill):
            skills = (skills,)
        if not isinstance(skills, Iterable) or isinstance(skills, str | bytes | Mapping):
            msg = (
                "skills must be a list of plugin_skill() declarations (or left out), got"
                f" {type(cast(object, skills)).__name__}"
            )
            raise RegistrationError(msg)
        filed: dict[str, PluginSkill] = {}
        for skill in cast("Iterable[object]", skills):
            if not isinstance(skill, PluginSkill):
                msg = f"skills must contain plugin_skill() declarations, got {skill!r}"
                raise RegistrationError(msg)
            first = filed.get(skill.name)
            if first is not None:
                msg = (
                    f"duplicate skill name: {skill.name} (at {first.path} and at {skill.path});"
                    " give each skill its own name"
                )
                raise RegistrationError(msg)
            filed[skill.name] = skill
            if skill.present:
                self.skills[skill.name] = skill
            elif skill.optional:
                logger.warning(
                    "hermes_plugin_kit: optional skill missing; name=%s; path=%s%s",
                    skill.name,
                    skill.path,
                    relative_path_hint(skill.path),
                )
                self.skipped.append(skill)
            else:
                msg = (
                    f"skill {skill.name!r}: SKILL.md not found at {skill.path}"
                    f"{relative_path_hint(skill.path)}; ship the file with the plugin, or"
                    " declare it with optional=True"
                )
                raise RegistrationError(msg)

    def _put(self, table: dict[str, Any], name: str, value: Any, what: str, where: str) -> None:
        if name in table:
            first = self.places.get((what, name), "?")
            msg = (
                f"duplicate {what}: {name} (two different declarations), at {first} and at"
                f" {where}; declare one callable per {what} and combine the behaviour inside it"
            )
            raise RegistrationError(msg)
        table[name] = value
        self.places[(what, name)] = where


def _place_of(obj: object) -> str:
    """Where a decorated callable was defined, as ``module.qualname``."""
    module = getattr(obj, "__module__", None)
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if isinstance(module, str) and isinstance(name, str):
        return f"{module}.{name}"
    return repr(obj)


def _add_module(plan: Plan, module: ModuleType) -> None:
    for attribute, value, declaration in declarations_in(module):
        plan.add(value, declaration, f"{module.__name__}.{attribute}")


def collect(declarations: object) -> tuple[Plan, str | None]:
    """The plan of ``declarations`` (a module, a module's name, or an iterable of
    modules, module names and decorated callables) and the name of the first module
    it came from.

    Raises:
        RegistrationError: something that is neither, or a duplicate name.
    """
    plan = Plan()
    if isinstance(declarations, ModuleType | str):
        module = resolve_module(declarations, "register its declarations")
        _add_module(plan, module)
        return plan, module.__name__
    if not isinstance(declarations, Iterable) or isinstance(declarations, bytes | Mapping):
        msg = (
            "declarations must be a module, a loaded module's name, or an iterable of modules"
            " and decorated callables; got"
            f" {type(cast(object, declarations)).__name__}"
        )
        raise RegistrationError(msg)
    first: str | None = None
    for index, item in enumerate(cast("Iterable[object]", declarations)):
        if isinstance(item, ModuleType | str):
            module = resolve_module(item, f"register its declarations (declarations[{index}])")
            _add_module(plan, module)
            first = first or module.__name__
            continue
        if not callable(item) or not plan.add(
            item, where=f"declarations[{index}] {_place_of(item)}"
        ):
            raise RegistrationError(_not_a_declaration(index, item))
        first = first or getattr(item, "__module__", None)
    return plan, first


def _not_a_declaration(index: int, item: object) -> str:
    """Why ``item`` cannot be registered, and what to pass instead."""
    if isinstance(item, PluginSkill):
        fix = "pass skills in skills=, not among the declarations"
    elif callable(item):
        fix = (
            "decorate it with @tool, @command, @middleware or @hook, or leave it out"
            " (only decorated callables are registered)"
        )
    else:
        fix = "pass modules, module names and decorated callables (skills go in skills=)"
    return (
        f"declarations[{index}] ({item!r}) is neither a module nor a @tool, @command,"
        f" @middleware or @hook declaration; {fix}"
    )
