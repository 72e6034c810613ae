"""pydantic v2 models as tool arguments and results, without the kit importing pydantic.

A class can only be a ``BaseModel`` once pydantic is imported, so the kit looks pydantic
up in ``sys.modules`` and never imports it: a plugin that uses no model never loads it.
A model parameter is described as the kit describes a dataclass (inline, no ``$ref``),
from its ``model_fields``; its JSON is checked by the kit's own checks, then handed to
``model_validate``, and what that still refuses (a custom validator) is an argument error
(:class:`ModelRefused`). A model in a result is encoded by ``model_dump(mode="json")``.
"""

from __future__ import annotations

import sys
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

from kit_core.args import ArgSpec
from kit_core.typed import Arg

__all__ = ["ModelFields", "ModelRefused", "dumped", "is_model", "is_model_class", "model_fields"]


def _base_model() -> type | None:
    """pydantic's ``BaseModel``, when pydantic v2 is imported (``pydantic.main`` defines
    it; pydantic 1's, without ``model_validate``, is not taken for it)."""
    found: Any = getattr(sys.modules.get("pydantic.main"), "BaseModel", None)
    return found if isinstance(found, type) and hasattr(found, "model_validate") else None


def is_model_class(obj: object) -> bool:
    """Whether ``obj`` is a pydantic v2 model class (never imports pydantic)."""
    if not isinstance(obj, type):
        return False
    base = _base_model()
    return base is not None and issubclass(obj, base)


def is_model(value: object) -> bool:
    """Whether ``value`` is a pydantic v2 model instance (never imports pydantic)."""
    base = _base_model()
    return base is not None and isinstance(value, base)


def dumped(value: object) -> Any:
    """A model instance as JSON values: its type's ``model_dump(mode="json")``."""
    kind: Any = type(value)
    return kind.model_dump(value, mode="json")


class ModelFields:
    """What the kit reads of a model class to describe it as an object: each field's JSON
    key (its alias, when the model validates by alias), its annotation (with the kit's own
    ``Annotated`` metadata and an :class:`Arg` holding the ``Field`` constraints the
    kit's checks have keywords for), which are required, their ``Field`` descriptions and
    their defaults (a ``default_factory`` shows none)."""

    __slots__ = ("defaults", "descriptions", "hints", "required")

    def __init__(self) -> None:
        self.hints: dict[str, Any] = {}
        self.required: list[str] = []
        self.descriptions: dict[str, str] = {}
        self.defaults: dict[str, Any] = {}


_BOUNDS: Final = (
    ("ge", "minimum"),
    ("le", "maximum"),
    ("gt", "exclusiveMinimum"),
    ("lt", "exclusiveMaximum"),
)
_LENGTHS: Final = (("min_length", "minLength", "minItems"), ("max_length", "maxLength", "maxItems"))
_ARRAYS: Final = (list, tuple, set, frozenset, Sequence)


def _is_array(annotation: Any) -> bool:
    """Whether a field's annotation is an array type (``X | None`` looked through), for
    which a length constraint is ``minItems``/``maxItems``."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        kept = [a for a in typing.get_args(annotation) if a is not type(None)]
        return len(kept) == 1 and _is_array(kept[0])
    return origin in _ARRAYS or annotation in _ARRAYS


def _constraints(metadata: Sequence[object], array: bool) -> dict[str, Any]:
    """The JSON Schema keywords of a field's ``Field``/``annotated_types`` constraints
    (read by attribute name); one the kit's checks have no keyword for is left to
    ``model_validate``."""
    found: dict[str, Any] = {}
    for item in metadata:
        for attribute, keyword in _BOUNDS:
            value = getattr(item, attribute, None)
            if isinstance(value, int | float) and not isinstance(value, bool):
                found[keyword] = value
        for attribute, text, items in _LENGTHS:
            value = getattr(item, attribute, None)
            if isinstance(value, int) and not isinstance(value, bool):
                found[items if array else text] = value
        pattern = getattr(item, "pattern", None)
        if isinstance(pattern, str):
            found["pattern"] = pattern
    return found


def _kit_metadata(metadata: Sequence[object]) -> list[object]:
    """What of a field's metadata the kit itself reads inside ``Annotated`` (a description,
    an :class:`Arg`, a spec helper)."""
    return [m for m in metadata if isinstance(m, str | Arg | ArgSpec)]


def model_fields(cls: type) -> ModelFields:
    """The fields of the model class ``cls`` as :class:`ModelFields`.

    Raises:
        ValueError: a model the kit cannot describe (not fully defined, a ``RootModel``,
            an alias path), saying what to do instead.
    """
    if getattr(cls, "__pydantic_root_model__", False):
        msg = (
            f"{cls.__name__} is a RootModel, whose JSON is its root value, not an object;"
            " annotate the parameter with the root type itself"
        )
        raise ValueError(msg)
    if getattr(cls, "__pydantic_complete__", True) is False:
        msg = (
            f"{cls.__name__} is not fully defined (a type it names is not defined yet);"
            f" define it, then call {cls.__name__}.model_rebuild() before the tool is declared"
        )
        raise ValueError(msg)
    config: Mapping[str, Any] = getattr(cls, "model_config", {})
    by_alias = config.get("validate_by_alias", True) is not False
    core: Any = sys.modules.get("pydantic_core")
    undefined: object = getattr(core, "PydanticUndefined", None)
    found = ModelFields()
    model: Any = cls
    declared: dict[str, Any] = model.model_fields
    for name, field in declared.items():
        alias: object = field.validation_alias if by_alias else None
        if alias is not None and not isinstance(alias, str):
            msg = (
                f"field {name!r} of {cls.__name__} has the validation alias {alias!r}, which"
                " a JSON schema cannot show as one key; use a plain str alias"
            )
            raise ValueError(msg)
        key = alias if isinstance(alias, str) else name
        metadata = cast("list[object]", list(field.metadata))
        extras = _kit_metadata(metadata)
        constraints = _constraints(metadata, _is_array(field.annotation))
        if constraints:
            extras.append(Arg(**constraints))
        found.hints[key] = (
            typing.Annotated[(field.annotation, *extras)] if extras else field.annotation
        )
        if field.is_required():
            found.required.append(key)
        if isinstance(field.description, str) and field.description.strip():
            found.descriptions[key] = field.description.strip()
        if field.default is not undefined and field.default is not None:
            found.defaults[key] = field.default
    return found


PYDANTIC_MESSAGE_CHARS: Final = 300
"""The most of one pydantic error message an argument error quotes."""


class ModelRefused(Exception):
    """``model_validate`` refused a value the kit's checks let through (a custom validator):
    the call is refused as an argument error, not a handler error. Raised by a model
    argument's converter; the typed adapter finds the value in the call's arguments
    (:meth:`locate`), and the tool's runner answers with the rejection envelope
    (``ToolRunner.fail``)."""

    def __init__(self, value: object, model: str, problems: list[tuple[str, str, str]]) -> None:
        super().__init__(model)
        self.value = value
        """The dict given to ``model_validate``: found by identity in the arguments."""
        self.model = model
        self.problems = problems
        """Each pydantic error: its path inside the value, its type, its message."""
        self.arguments: dict[str, Any] = {}
        self.path = ""

    def locate(self, arguments: dict[str, Any]) -> ModelRefused:
        """Find where the refused value is in the call's ``arguments`` (its JSON path)."""
        self.arguments = arguments
        self.path = _path_to(self.value, arguments, "") or "arguments"
        return self

    def rejection(self) -> Any:
        """The :class:`~kit_core._refusal.Rejection` the model receives: each pydantic
        error named by its JSON path, bounded as the kit's own are."""
        from kit_core._refusal import INVALID, Rejection, combined

        found = [
            (
                self.path + inner,
                rule,
                f"{self.path + inner} is invalid ({self.model}): {text}",
                "",
            )
            for inner, rule, text in self.problems
        ] or [(self.path, "model", f"{self.path} is invalid ({self.model})", "")]
        first = Rejection(INVALID, found[0][0], found[0][2])
        return combined(first, found) if len(found) > 1 else first


def _path_to(target: object, value: object, path: str) -> str | None:
    """The JSON path of the object ``target`` inside ``value`` (by identity), or None."""
    if value is target:
        return path
    if isinstance(value, dict):
        for key, item in cast("dict[str, Any]", value).items():
            found = _path_to(target, item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(cast("list[Any]", value)):
            found = _path_to(target, item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def _loc(loc: Sequence[object]) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)


def _validation_error() -> type | None:
    found: Any = getattr(sys.modules.get("pydantic_core"), "ValidationError", None)
    return found if isinstance(found, type) else None


def model_converter(cls: type) -> Callable[[Any], Any]:
    """What turns a checked JSON object into an instance of the model ``cls``; a pydantic
    ``ValidationError`` becomes :class:`ModelRefused`."""
    model: Any = cls
    validate: Callable[[Any], Any] = model.model_validate
    label = cls.__name__

    def to_model(value: Any) -> Any:
        try:
            return validate(value)
        except Exception as exc:
            refused = _validation_error()
            if refused is None or not isinstance(exc, refused):
                raise
            errors: list[Mapping[str, Any]] = cast("Any", exc).errors(include_url=False)
            problems = [
                (
                    _loc(cast("Sequence[object]", e.get("loc", ()))),
                    str(e.get("type", "invalid")),
                    str(e.get("msg", ""))[:PYDANTIC_MESSAGE_CHARS],
                )
                for e in errors
            ]
            raise ModelRefused(value, label, problems) from None

    return to_model
