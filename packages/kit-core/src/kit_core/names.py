"""Tool names: the rules the host and the model impose, checked with instructive errors."""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from kit_core.errors import ToolDefinitionError

__all__ = [
    "MAX_TOOL_NAME_LENGTH",
    "RESERVED_TOOL_PREFIXES",
    "tool_name",
    "validate_tool_name",
]

MAX_TOOL_NAME_LENGTH: Final = 64
"""OpenAI-style function names are limited to 64 characters."""

RESERVED_TOOL_PREFIXES: Final = ("memory_",)
"""Prefixes kept for hermes' own tools (``memory_`` belongs to the built-in memory tool)."""

_SNAKE_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def is_snake_case(value: str) -> bool:
    """``[a-z][a-z0-9]*(?:_[a-z0-9]+)*`` in full, by string tests: compiled at import, the
    pattern cost more than every check a plugin makes."""
    return (
        "a" <= value[:1] <= "z"
        and value[-1] != "_"
        and "__" not in value
        and all(char in _SNAKE_CHARS for char in value)
    )


def _suggest(name: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name))
    suggestion = "_".join(w.lower() for w in words)
    if suggestion and not suggestion[0].isalpha():
        suggestion = "tool_" + suggestion
    return suggestion


def _check_snake(kind: str, value: str) -> None:
    if is_snake_case(value):
        return
    suggestion = _suggest(value)
    hint = f"; for example {suggestion!r}" if suggestion and suggestion != value else ""
    msg = (
        f"{kind} {value!r} must be lowercase snake_case: a letter, then letters, digits and"
        f" single underscores, not ending in '_'{hint}"
    )
    raise ToolDefinitionError(msg)


def validate_tool_name(name: object, *, namespace: str | None = None) -> str:
    """Check a tool name against the host's and the model's rules and return it.

    Rules: lowercase snake_case, at most 64 characters, not a name the agent loop
    answers itself on some release the host model knows (``kit_core.hermes.reserved_tools``),
    not the ``memory_`` prefix, and, when
    ``namespace`` is given, starting with ``<namespace>_``.

    Raises:
        ToolDefinitionError: naming the broken rule and how to fix it.
    """
    if not isinstance(name, str) or not name:
        msg = f"tool name is required: pass a str such as 'myplugin_read_item', got {name!r}"
        raise ToolDefinitionError(msg)
    _check_snake("tool name", name)
    if len(name) > MAX_TOOL_NAME_LENGTH:
        msg = (
            f"tool name {name!r} is {len(name)} characters; model providers accept at most"
            f" {MAX_TOOL_NAME_LENGTH}. Shorten the verb or noun"
        )
        raise ToolDefinitionError(msg)
    if name in _reserved():
        msg = (
            f"tool name {name!r} is reserved: {_how_answered(name)} ({_answered_since(name)}),"
            f" so the model could never reach a plugin tool of that name; prefix it with your"
            f" plugin's namespace, e.g. tool_name('myplugin', ...)"
        )
        raise ToolDefinitionError(msg)
    for prefix in RESERVED_TOOL_PREFIXES:
        if name.startswith(prefix):
            msg = (
                f"tool name {name!r} uses the reserved Hermes core namespace {prefix!r} (the"
                f" built-in memory tool); choose a plugin/domain namespace instead, e.g."
                f" 'notes_{name[len(prefix) :]}'"
            )
            raise ToolDefinitionError(msg)
    if namespace is not None:
        _check_namespace(namespace)
        if not name.startswith(namespace + "_") or name == namespace + "_":
            msg = (
                f"tool name {name!r} must start with its namespace {namespace + '_'!r} followed"
                f" by a verb or noun; build it with tool_name({namespace!r}, verb, noun)"
            )
            raise ToolDefinitionError(msg)
    return name


@cache
def _reserved() -> frozenset[str]:
    """The names some release answers before its registry (the host model is imported on
    the first declaration, not when kit_core is)."""
    from kit_core.hermes import modelled_reserved_tools

    return modelled_reserved_tools()


def _how_answered(name: str) -> str:
    """What hermes does with a call of a reserved name: answers it itself, or (an old
    built-in name on the releases that renamed it) renames it to the new tool."""
    from kit_core.hermes import LEGACY_TOOL_ALIASES, registry_releases, reserved_tools

    answered = [r for r in registry_releases() if name in reserved_tools(r)]
    renamed = LEGACY_TOOL_ALIASES.get(name)
    if renamed is not None and all(name not in r.agent_loop_tools for r in answered):
        return f"hermes renames a call of it to its built-in {renamed!r}, before its tool registry"
    return "hermes answers it itself, before its tool registry"


def _answered_since(name: str) -> str:
    """``hermes-agent 0.16.0 and later``: the releases whose loop answers ``name``."""
    from kit_core.hermes import first_release, registry_releases, reserved_tools

    first = first_release(lambda release: name in reserved_tools(release))
    if first is None or first is registry_releases()[0]:
        return "every hermes-agent release"
    return f"{first.label} and later"


def _check_namespace(namespace: object) -> None:
    if not isinstance(namespace, str) or not namespace:
        msg = f"tool namespace must be a non-empty str such as 'discord', got {namespace!r}"
        raise ToolDefinitionError(msg)
    _check_snake("tool namespace", namespace)
    if namespace in _reserved() or namespace + "_" in RESERVED_TOOL_PREFIXES:
        msg = (
            f"tool namespace {namespace!r} is reserved by the Hermes agent loop; use your"
            f" plugin's own domain, e.g. 'notes'"
        )
        raise ToolDefinitionError(msg)


def tool_name(namespace: str, verb: str, noun: str) -> str:
    """Build ``<namespace>_<verb>_<noun>`` and validate it.

    Leading and trailing underscores of each part are dropped, and so are empty
    parts: ``tool_name("discord", "read", "thread")`` is ``"discord_read_thread"``.

    Raises:
        ToolDefinitionError: when the result breaks a naming rule.
    """
    parts = [str(part).strip("_") for part in (namespace, verb, noun)]
    _check_namespace(parts[0])
    return validate_tool_name("_".join(p for p in parts if p), namespace=parts[0])
