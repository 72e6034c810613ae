"""``register_all``: hand every ``@tool`` of a module to the host in one checked step."""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

from kit_core._method_tool import refuse_registering
from kit_core.declarations import declarations_in, resolve_module
from kit_core.errors import RegistrationError
from kit_core.toolspec import ToolSpec

__all__ = ["collect_tools", "register_all"]


def collect_tools(module: ModuleType | str) -> list[tuple[ToolSpec, Callable[..., Any]]]:
    """Every ``@tool`` of ``module``, sorted by name, found as
    :func:`~kit_core.declarations.declarations_in` finds declarations: module attributes,
    and the items of a tuple or list attribute that holds only declared objects.

    The same tool object reached under two attribute names counts once.

    Raises:
        RegistrationError: two different tools share a name, or one is a provider's
            method (:class:`~kit_core.ProviderTools` answers those).
    """
    found: dict[str, tuple[ToolSpec, Callable[..., Any], str]] = {}
    resolved = resolve_module(module)
    for attribute, value, spec in declarations_in(resolved, ToolSpec):
        refuse_registering(spec.name, spec.is_method, f"{resolved.__name__}.{attribute}")
        seen = found.get(spec.name)
        if seen is not None and seen[1] is not value:
            msg = (
                f"duplicate tool name: {spec.name} (module {resolved.__name__!r} has two"
                f" different tools of that name, {seen[2]!r} and {attribute!r}); rename one"
            )
            raise RegistrationError(msg)
        found.setdefault(spec.name, (spec, cast("Callable[..., Any]", value), attribute))
    return [(spec, fn) for _, (spec, fn, _) in sorted(found.items())]  # by name (the keys)


def register_all(ctx: Any, module: ModuleType | str) -> int:
    """Register every ``@tool`` of ``module`` (a module or its name) with the host.

    Each tool is handed to ``ctx.register_tool`` with every field the host takes
    (name, toolset, schema, handler, check_fn, requires_env, is_async, description,
    emoji). Everything is checked first, so nothing is registered when something
    is wrong. Logs ``hermes_plugin_kit: registered N tool(s); names=...`` at INFO on
    the module's logger.

    Returns:
        How many tools were registered.

    Raises:
        RegistrationError: two different tools share a name, or ``ctx`` cannot
            register tools.
    """
    resolved = resolve_module(module)
    tools = collect_tools(resolved)
    register = getattr(ctx, "register_tool", None)
    if tools and not callable(register):
        msg = (
            f"{type(ctx).__name__} has no register_tool(); pass the PluginContext hermes"
            " hands to your plugin's register(ctx)"
        )
        raise RegistrationError(msg)
    for spec, fn in tools:
        register(**spec.register_kwargs(fn))  # pyright: ignore[reportOptionalCall]
    names = ",".join(spec.name for spec, _ in tools) or "<none>"
    logging.getLogger(resolved.__name__).info(
        "hermes_plugin_kit: registered %d tool(s); names=%s", len(tools), names
    )
    return len(tools)
