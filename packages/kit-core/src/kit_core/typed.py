"""What a typed tool handler writes in its signature besides plain types.

A handler declared with typed parameters instead of ``(args, **kwargs)`` gets its
arguments from its signature (see :func:`kit_core.tool`). Two names help it:

- :class:`Arg`, put in ``Annotated[T, Arg(...)]``: the argument's description, example
  and constraints, in the same words as the spec helpers (``minimum``, ``maximum``,
  ``min_length``, ``max_length``, ``pattern``, ``min_items``, ``max_items``, ``example``;
  any other JSON Schema keyword by its own name). ``Annotated[T, "text"]`` is the short
  form of a description alone.
- :class:`ToolContext`, the type of one optional parameter that receives what hermes
  passes besides the model's arguments (``task_id``, ``session_id``, ``user_task``, and
  anything else a caller adds), so those never become model arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, cast

from kit_core._record import Record
from kit_core._snapshot import ATOMS, deep_copy
from kit_core.args import SNAKE_KEYWORDS
from kit_core.errors import ToolDefinitionError

__all__ = ["Arg", "ToolContext"]

_SNAKE: Final = {**SNAKE_KEYWORDS, "min_length": "minLength"}
_DERIVED: Final = frozenset(
    {"type", "anyOf", "nullable", "items", "properties", "required", "additionalProperties"}
)
"""Keywords the annotation itself decides: an :class:`Arg` that sets them is refused."""


class Arg(Record):
    """An argument's description, example and constraints, for ``Annotated[T, Arg(...)]``.

    Attributes:
        description: what the model reads to decide what to pass (``None``: from the
            handler's docstring).
        example: a sample value, shown to the model and quoted in errors.
        keywords: the JSON Schema keywords, snake-case spellings already turned into
            JSON Schema's (``min_length`` into ``minLength``).
    """

    __slots__ = ("description", "example", "keywords")
    description: str | None
    example: Any
    keywords: Mapping[str, Any]

    def __init__(
        self, description: str | None = None, *, example: Any = None, **keywords: Any
    ) -> None:
        if description is not None and (
            not isinstance(description, str) or not description.strip()
        ):
            msg = f"Arg(description) must be a non-empty str or left out, got {description!r}"
            raise ToolDefinitionError(msg)
        schema: dict[str, Any] = {}
        for key, value in keywords.items():
            name = _SNAKE.get(key, key)
            if name in _DERIVED:
                msg = (
                    f"Arg({key}=...) is decided by the annotation itself; write the type"
                    " (list[str], X | None, a TypedDict, ...) instead"
                )
                raise ToolDefinitionError(msg)
            if value is not None:
                schema[name] = value if type(value) in ATOMS else deep_copy(value)
        object.__setattr__(self, "description", description.strip() if description else None)
        object.__setattr__(
            self, "example", example if type(example) in ATOMS else deep_copy(example)
        )
        object.__setattr__(self, "keywords", MappingProxyType(schema))

    def __hash__(self) -> int:
        """A hash fit for ``typing``, which hashes ``Annotated`` metadata (in ``X | None``,
        ``Optional[...]``, its caches): from the fields, lists and dicts frozen."""
        return hash((self.description, _frozen(self.example), _frozen(dict(self.keywords))))


def _frozen(value: object) -> object:
    """``value`` made hashable: lists and tuples as tuples, dicts as frozensets of items."""
    if isinstance(value, list | tuple):
        items = cast("Sequence[object]", value)
        return tuple(_frozen(v) for v in items)
    if isinstance(value, dict):
        pairs = cast("dict[object, object]", value)
        return frozenset((k, _frozen(v)) for k, v in pairs.items())
    return value


class ToolContext(Record):
    """What hermes passes a tool besides the model's arguments, for a typed handler that
    declares one parameter of this type.

    Attributes:
        task_id: the agent task the call belongs to (``None`` when the caller gave none).
        session_id: the conversation's session (hermes 0.17.0 and later; ``None`` before).
        user_task: the user's request that started the task, when hermes passes it.
        extra: every other keyword the caller passed.
    """

    __slots__ = ("extra", "session_id", "task_id", "user_task")
    task_id: str | None
    session_id: str | None
    user_task: str | None
    extra: Mapping[str, Any]

    def __init__(
        self,
        task_id: str | None = None,
        session_id: str | None = None,
        user_task: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        object.__setattr__(self, "task_id", task_id)
        object.__setattr__(self, "session_id", session_id)
        object.__setattr__(self, "user_task", user_task)
        object.__setattr__(self, "extra", MappingProxyType(dict(extra or {})))

    @classmethod
    def from_keywords(cls, keywords: Mapping[str, Any]) -> ToolContext:
        """The context of one call, from the keywords the caller passed."""
        rest = dict(keywords)
        return cls(
            rest.pop("task_id", None),
            rest.pop("session_id", None),
            rest.pop("user_task", None),
            rest,
        )
