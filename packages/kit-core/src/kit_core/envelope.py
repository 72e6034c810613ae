"""The JSON result envelope every kit tool returns to the host.

=====================  ==========================================================
handler outcome        what the model receives (always a ``str``)
=====================  ==========================================================
returns a ``str``      that string, unchanged (it is taken as already encoded)
returns anything else  ``{"success": true, "data": <value>}``
raises                 ``{"success": false, "error": "<tool> failed: <message>",
                       "error_code": "handler_error"}``
returns a failure      ``{"success": false, "error": "<tool> failed: <message>",
                       "error_code": "<its code>"}``: a :class:`ToolFailure`, or an
                       object whose ``tool_failure()`` gives one (:class:`ReportsFailure`,
                       e.g. a failed ``kit_media.MediaDeliveryResult``)
call refused           ``{"success": false, "error": "<argument> is required (e.g. …)",
                       "error_code": "missing_argument"}`` (or ``invalid_argument``);
                       with several errors, ``error`` lists them after the first
                       (``… | limit must be >= 1; got integer 0``) and ``"errors":
                       [{"argument", "rule", "message"}, …]`` follows
value not encodable    ``{"success": false, "error": "…", "error_code":
                       "result_not_serializable"}``
returns a ``Rich``     hermes' multimodal envelope, a ``dict`` (:mod:`kit_core.content`);
                       ``result_too_large`` when an image or file is over hermes' limit
returns hermes'        that ``dict``, unchanged
multimodal envelope
=====================  ==========================================================

Values JSON has no type for are encoded this way: ``datetime``, ``date`` and
``time`` as ISO 8601 strings; ``UUID`` and ``Decimal`` as strings (no precision is
lost); paths as strings; enums as their value; sets and frozensets as lists
(sorted when their items can be sorted); tuples as lists; ``bytes`` as text when
they are UTF-8, else as ``"base64:<data>"``; dataclass instances as objects of
their fields; pydantic models as their ``model_dump(mode="json")`` (pydantic is never
imported for it: only a model that exists needs it); other mappings (a
``MappingProxyType``) as objects. NaN and infinities are refused: JSON has no spelling
for them.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Protocol, cast

from kit_core._pydantic import dumped, is_model

__all__ = [
    "ErrorCode",
    "ReportsFailure",
    "ToolFailure",
    "encode_success",
    "error_envelope",
    "failure_of",
    "to_json_value",
]


class ErrorCode(enum.StrEnum):
    """The machine-readable ``error_code`` of an error envelope."""

    MISSING_ARGUMENT = "missing_argument"
    INVALID_ARGUMENT = "invalid_argument"
    HANDLER_ERROR = "handler_error"
    RESULT_NOT_SERIALIZABLE = "result_not_serializable"
    RESULT_TOO_LARGE = "result_too_large"
    """An image or file of a :class:`~kit_core.content.Rich` result is larger than hermes
    passes to a model."""
    UNKNOWN_TOOL = "unknown_tool"
    """A provider's ``handle_tool_call`` was asked for a tool it does not have
    (:class:`~kit_core.ProviderTools`)."""


@dataclasses.dataclass(frozen=True, slots=True)
class ToolFailure:
    """A failed outcome a tool handler returns instead of raising: the model receives
    ``{"success": false, "error": "<tool> failed: <message>", "error_code": <code>}``
    and the kit logs the call as failed, as it does for a handler that raised.

    ``message`` says what went wrong and, where it can, what to do instead; ``code`` is a
    short machine-readable ``error_code`` such as ``"not_found"``.
    """

    message: str
    code: str

    def __post_init__(self) -> None:
        if not isinstance(self.message, str) or not self.message.strip():
            msg = f"ToolFailure message must be a non-empty str, got {self.message!r}"
            raise TypeError(msg)
        if not isinstance(self.code, str) or not self.code.strip():
            msg = f"ToolFailure code must be a non-empty str such as 'not_found', got {self.code!r}"
            raise TypeError(msg)

    def tool_failure(self) -> ToolFailure:
        """Itself: a ``ToolFailure`` is the failure it reports."""
        return self


class ReportsFailure(Protocol):
    """A result object that can say it is a failure (kit-media's ``MediaDeliveryResult``
    is one). A kit tool whose handler returns it gives the model the error envelope of
    the :class:`ToolFailure` that ``tool_failure()`` returns, or the usual success
    envelope when it returns ``None``."""

    def tool_failure(self) -> ToolFailure | None:
        """The failure this result reports, or ``None`` when it is a success."""
        ...


def failure_of(result: object) -> ToolFailure | None:
    """The :class:`ToolFailure` ``result`` reports through ``tool_failure()`` (looked up
    on its type, so a mock or proxy answering every attribute does not count), or None.

    Raises:
        Exception: whatever ``tool_failure()`` raised.
    """
    ask = getattr(type(result), "tool_failure", None)
    if ask is None or not callable(ask):
        return None
    failure = ask(result)
    return failure if isinstance(failure, ToolFailure) else None


@functools.cache
def _encodable_types() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """The types the encoder's ``default`` turns into ISO strings and into plain strings.

    Imported on first use, not with the kit: only a result holding a value JSON has no
    type for needs them (and a host has usually imported them long before).
    """
    import datetime as dt
    import decimal
    import uuid
    from pathlib import PurePath

    return (dt.datetime, dt.date, dt.time), (uuid.UUID, decimal.Decimal, PurePath)


def to_json_value(value: Any) -> Any:
    """Convert one value JSON cannot encode into one it can (the encoder's ``default``).

    Raises:
        TypeError: for a type the kit does not know how to encode.
    """
    iso, textual = _encodable_types()
    if isinstance(value, iso):
        return value.isoformat()
    if isinstance(value, textual):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, set | frozenset):
        items = list(cast("set[Any]", value))
        try:
            return sorted(items)
        except TypeError:
            return items
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(cast("bytes", value))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            import base64

            return "base64:" + base64.b64encode(raw).decode("ascii")
    if is_model(value):
        return dumped(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return dict(cast("Mapping[Any, Any]", value))
    msg = f"object of type {type(value).__name__!r} is not JSON serializable"
    raise TypeError(msg)


_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=to_json_value)
_PLAIN_ENCODER: Final = json.JSONEncoder(ensure_ascii=False)
# What _ENCODER.encode runs underneath, called directly: the same C encoder and the same
# arguments, without re-creating the helper closures of JSONEncoder.iterencode on every
# call. One encoder without a circular-reference memo serves every call and thread (it
# keeps no state between calls); a result it cannot encode is encoded again by
# _ENCODER, whose memo names a reference cycle instead of exceeding the recursion limit.
_make_encoder: Final[Callable[..., Callable[[Any, int], Iterable[str]]] | None] = getattr(
    json.encoder, "c_make_encoder", None
)
_encode_str: Final = json.encoder.encode_basestring
_SHARED_ENCODER: Final = (
    None
    if _make_encoder is None  # an interpreter without the C accelerator
    else _make_encoder(None, to_json_value, _encode_str, None, ": ", ", ", False, False, False)
)


def encode_success(data: Any) -> str:
    """``{"success": true, "data": data}`` as a JSON string.

    Raises:
        TypeError: ``data`` holds a value of a type the kit cannot encode.
        ValueError: ``data`` holds NaN, an infinity, or a reference cycle.
    """
    envelope = {"success": True, "data": data}
    if _SHARED_ENCODER is not None:
        try:
            return "".join(_SHARED_ENCODER(envelope, 0))
        except Exception:  # encoded again below, for the error a memo gives
            pass
    return _ENCODER.encode(envelope)


def error_envelope(
    message: str, code: ErrorCode | str, errors: list[dict[str, str]] | None = None
) -> str:
    """``{"success": false, "error": message, "error_code": code}`` as a JSON string, with
    ``"errors": [{"argument": …, "rule": …, "message": …}, …]`` after them when a refused
    call has several argument errors."""
    text = str(code)
    if errors:
        return _PLAIN_ENCODER.encode(
            {"success": False, "error": message, "error_code": text, "errors": errors}
        )
    if message.__class__ is str and text.__class__ is str:
        error, error_code = _encode_str(message), _encode_str(text)
        return f'{{"success": false, "error": {error}, "error_code": {error_code}}}'
    return _PLAIN_ENCODER.encode({"success": False, "error": message, "error_code": text})
