"""``ProviderTools``: the tools of a memory provider or a context engine, declared with
``@tool``.

hermes never registers a provider's tools: its memory manager asks the active provider
for ``get_tool_schemas()`` (bare function schemas, ``{"name", "description",
"parameters"}``, on every release from 0.13.0; 0.18.0 and later also unwrap
``{"type": "function", "function": ...}``), routes each call of one of those names to
``provider.handle_tool_call(name, args)`` and hands the model the ``str`` it returns
(``agent/memory_manager.py``, ``add_provider``, ``get_all_tool_schemas`` and
``handle_tool_call``); a context engine's tools go the same way, called with
``messages=`` (``agent.tool_executor.execute_tool_calls_sequential``). :class:`ProviderTools` gives
a provider both answers from its ``@tool`` functions, with the schema, checks, defaults, envelope,
logging and redaction of a registered tool, and leaves the provider's base class as it is::

    class NotesProvider(MemoryProvider):
        @tool(toolset="notes")
        def notes_search(self, query: str) -> list[str]:
            \"\"\"Search the notes.

            Args:
                query: words to look for.
            \"\"\"
            return [n for n in self._notes if query in n]

        tools = ProviderTools(notes_search)

        def get_tool_schemas(self):
            return self.tools.schemas()

        def handle_tool_call(self, tool_name, args, **kwargs):
            return self.tools.handle(tool_name, args, **kwargs)

A tool written as a method (its first parameter ``self``) is called with the provider
it is read from: ``self.tools`` is the :class:`ProviderTools` bound to ``self``. Plain
``@tool`` functions work too, bound or not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Self, overload

from kit_core.declarations import declaration_of
from kit_core.envelope import ErrorCode, error_envelope
from kit_core.errors import ToolDefinitionError
from kit_core.toolspec import ToolSpec

__all__ = ["ProviderTools"]

_UNBOUND: Final = object()
_NAME_CHARS: Final = 80


class ProviderTools:
    """The ``@tool`` functions of one provider: their schemas for ``get_tool_schemas()``
    and their calls for ``handle_tool_call()``.

    Args:
        *tools: functions (or provider methods, first parameter ``self``) decorated with
            :func:`~kit_core.tool`, spec or typed style, each a plain ``def``: hermes calls
            ``handle_tool_call`` synchronously and takes the ``str`` it returns.

    Raises:
        ToolDefinitionError: an item is not a ``@tool``, is ``async def``, or shares its
            name with another, naming it and the fix.
    """

    __slots__ = ("_attribute", "_provider", "_tools")

    def __init__(self, *tools: Callable[..., Any]) -> None:
        self._tools = _collect(tools)
        self._provider: object = _UNBOUND
        self._attribute = "tools"

    def __set_name__(self, owner: type, name: str) -> None:
        self._attribute = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Self: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> ProviderTools: ...
    def __get__(self, instance: object, owner: type | None = None) -> ProviderTools:
        """Read from a provider instance (``self.tools``): the tools bound to it."""
        return self if instance is None else self.bind(instance)

    def bind(self, provider: object) -> ProviderTools:
        """The same tools, their methods called with ``provider`` as ``self``."""
        bound = object.__new__(ProviderTools)
        bound._tools = self._tools
        bound._provider = provider
        bound._attribute = self._attribute
        return bound

    @property
    def names(self) -> tuple[str, ...]:
        """The tool names, in the order given."""
        return tuple(self._tools)

    def owns(self, name: object) -> bool:
        """Whether ``name`` is one of these tools' names."""
        return isinstance(name, str) and name in self._tools

    def schemas(self) -> list[dict[str, Any]]:
        """What ``get_tool_schemas()`` returns: each tool's bare function schema
        (``name``, ``description``, ``parameters``), a fresh copy each call, in order."""
        return [spec.schema for spec, _ in self._tools.values()]

    def handle(self, name: str, args: Any = None, /, **kwargs: Any) -> str:
        """What ``handle_tool_call(name, args, **kwargs)`` returns: the tool's answer (a
        JSON ``str``, never raising), or an ``unknown_tool`` error envelope for a name
        these tools do not have."""
        found = self._tools.get(name) if isinstance(name, str) else None
        if found is None:
            return error_envelope(self._unknown(name), ErrorCode.UNKNOWN_TOOL)
        spec, fn = found
        if not spec.is_method:
            return fn(args, **kwargs)
        if self._provider is _UNBOUND:
            message = (
                f"{spec.name} is a method of the provider and these tools are not bound to"
                f" one: call self.{self._attribute}.handle(...) from the provider (the"
                f" ProviderTools read from the instance), or bind them: tools.bind(self)"
            )
            return error_envelope(message, ErrorCode.HANDLER_ERROR)
        return fn(self._provider, args, **kwargs)

    def _unknown(self, name: object) -> str:
        shown = repr(name) if isinstance(name, str) else f"a {type(name).__name__}"
        if len(shown) > _NAME_CHARS:
            shown = shown[: _NAME_CHARS - 1] + "…"
        owned = ", ".join(self._tools) or "none"
        return f"unknown tool {shown}: this provider's tools are {owned}"

    def __repr__(self) -> str:
        bound = "" if self._provider is _UNBOUND else f", bound to {type(self._provider).__name__}"
        return f"ProviderTools({', '.join(self._tools)}{bound})"


def _collect(tools: tuple[object, ...]) -> dict[str, tuple[ToolSpec, Callable[..., Any]]]:
    found: dict[str, tuple[ToolSpec, Callable[..., Any]]] = {}
    for index, item in enumerate(tools, 1):
        what = getattr(item, "__name__", None) or type(item).__name__
        spec = declaration_of(item, ToolSpec)
        if spec is None:
            msg = (
                f"ProviderTools: item {index} ({what}) is not a @tool; put"
                f" @tool(toolset='myprovider') above it, or leave it out"
            )
            raise ToolDefinitionError(msg)
        if spec.is_async:
            msg = (
                f"ProviderTools: {spec.name} is async def, but hermes calls a provider's"
                " handle_tool_call synchronously and takes the str it returns; write it as a"
                " plain def"
            )
            raise ToolDefinitionError(msg)
        seen = found.get(spec.name)
        if seen is not None and seen[1] is not item:
            msg = (
                f"ProviderTools: two tools are named {spec.name!r} (items"
                f" {list(found).index(spec.name) + 1} and {index}); rename one with"
                " @tool(name=...)"
            )
            raise ToolDefinitionError(msg)
        found[spec.name] = (spec, item)  # pyright: ignore[reportArgumentType]
    return found
