"""``ToolSpec``: what ``@tool`` declared, the record a decorated tool carries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from kit_core._snapshot import Snapshot
from kit_core.declarations import Declaration

__all__ = ["ToolSpec"]

_NO_EXAMPLES: Mapping[str, Any] = MappingProxyType({})


class ToolSpec(Declaration):
    """What ``@tool`` declared: everything the host's ``register_tool`` takes, and more.

    Attributes:
        name: the registered tool name.
        toolset: the host toolset the tool belongs to.
        description: the model-facing description, with its ``Required:`` clause.
        requires_env: environment variables the tool needs (metadata for the host;
            their values are also redacted from the tool's logs and errors).
        check_fn: the zero-argument availability probe handed to the host, or None.
        emoji: shown by the host next to the tool.
        is_async: the handler is ``async def`` (registered with ``is_async=True``).
        validate_required: whether the kit checks arguments before the handler runs.
        handler: the author's undecorated function.
        module: the module that defined the handler (its logger logs the calls).
        examples: the declared example of each argument that has one (read-only); the
            model reads them in the description.
        is_method: the handler is a method of a provider class (its first parameter is
            ``self``): it is called with its instance, through the provider's
            :class:`~kit_core.ProviderTools`, and is never registered with the host.
    """

    __slots__ = (
        "_schema",
        "check_fn",
        "description",
        "emoji",
        "examples",
        "handler",
        "is_async",
        "is_method",
        "module",
        "name",
        "requires_env",
        "toolset",
        "validate_required",
    )
    surface: ClassVar[str] = "tool"
    _hidden: ClassVar[frozenset[str]] = frozenset({"handler", "_schema"})
    _compared: ClassVar[bool] = False  # one declaration is one tool: equal only to itself
    name: str
    toolset: str
    description: str
    requires_env: tuple[str, ...]
    check_fn: Callable[[], Any] | None
    emoji: str
    is_async: bool
    validate_required: bool
    handler: Callable[..., Any]
    module: str
    examples: Mapping[str, Any]
    is_method: bool
    _schema: Snapshot  # stored once; everyone gets a copy of their own

    def __init__(
        self,
        *,
        name: str,
        toolset: str,
        description: str,
        requires_env: tuple[str, ...],
        check_fn: Callable[[], Any] | None,
        emoji: str,
        is_async: bool,
        validate_required: bool,
        handler: Callable[..., Any],
        module: str,
        examples: Mapping[str, Any] = _NO_EXAMPLES,
        is_method: bool = False,
        _schema: Snapshot,
    ) -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "toolset", toolset)
        setter(self, "description", description)
        setter(self, "requires_env", requires_env)
        setter(self, "check_fn", check_fn)
        setter(self, "emoji", emoji)
        setter(self, "is_async", is_async)
        setter(self, "validate_required", validate_required)
        setter(self, "handler", handler)
        setter(self, "module", module)
        setter(self, "examples", MappingProxyType(dict(examples)) if examples else _NO_EXAMPLES)
        setter(self, "is_method", is_method)
        setter(self, "_schema", _schema)

    @property
    def schema(self) -> dict[str, Any]:
        """A copy of the function schema handed to the host (``name``, ``description``,
        ``parameters``)."""
        return self._schema.copy()

    @property
    def parameters(self) -> dict[str, Any]:
        """A copy of the JSON Schema of the arguments."""
        return self._schema.copy()["parameters"]

    def definition(self) -> dict[str, Any]:
        """The tool exactly as hermes sends it to the model."""
        return {"type": "function", "function": {**self.schema, "name": self.name}}

    def register_kwargs(self, handler: Callable[..., Any]) -> dict[str, Any]:
        """The keyword arguments of the host's ``ctx.register_tool`` for this tool (with a
        copy of the schema that the host may keep and change)."""
        schema = self._schema.copy()
        return {
            "name": self.name,
            "toolset": self.toolset,
            "schema": schema,
            "handler": handler,
            "check_fn": self.check_fn,
            "requires_env": list(self.requires_env) if self.requires_env else None,
            "is_async": self.is_async,
            "description": schema.get("description", self.description),
            "emoji": self.emoji,
        }
