"""The JSON result envelope every kit tool returns to the host.

=====================  ==========================================================
handler outcome        what the model receives (always a ``str``)
=====================  ==========================================================
returns a ``str``      that string, unchanged (it is taken as already encoded)
returns anything else  ``{"success": true, "data": <value>}``
raises                 ``{"success": false, "error": "<tool> failed: <message>",
                       "error_code": "handler_error"}``
call refused           ``{"success": false, "error": "<argument> is required (e.g. …)",
                       "error_code": "missing_argument"}`` (or ``invalid_argument``)
value not encodable    ``{"success": false, "error": "…", "error_code":
                       "result_not_serializable"}``
=====================  ==========================================================

Values JSON has no type for are encoded this way: ``datetime``, ``date`` and
``time`` as ISO 8601 strings; ``UUID`` and ``Decimal`` as strings (no precision is
lost); paths as strings; enums as their value; sets and frozensets as lists
(sorted when their items can be sorted); tuples as lists; ``bytes`` as text when
they are UTF-8, else as ``"base64:<data>"``; dataclass instances as objects of
their fields. NaN and infinities are refused: JSON has no spelling for them.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import decimal
import enum
import json
import uuid
from pathlib import PurePath
from typing import Any, Final, cast

__all__ = [
    "ErrorCode",
    "encode_success",
    "error_envelope",
    "to_json_value",
]


class ErrorCode(enum.StrEnum):
    """The machine-readable ``error_code`` of an error envelope."""

    MISSING_ARGUMENT = "missing_argument"
    INVALID_ARGUMENT = "invalid_argument"
    HANDLER_ERROR = "handler_error"
    RESULT_NOT_SERIALIZABLE = "result_not_serializable"


def to_json_value(value: Any) -> Any:
    """Convert one value JSON cannot encode into one it can (the encoder's ``default``).

    Raises:
        TypeError: for a type the kit does not know how to encode.
    """
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID | decimal.Decimal | PurePath):
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
            return "base64:" + base64.b64encode(raw).decode("ascii")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    msg = f"object of type {type(value).__name__!r} is not JSON serializable"
    raise TypeError(msg)


_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=to_json_value)
_PLAIN_ENCODER: Final = json.JSONEncoder(ensure_ascii=False)


def encode_success(data: Any) -> str:
    """``{"success": true, "data": data}`` as a JSON string.

    Raises:
        TypeError: ``data`` holds a value of a type the kit cannot encode.
        ValueError: ``data`` holds NaN, an infinity, or a reference cycle.
    """
    return _ENCODER.encode({"success": True, "data": data})


def error_envelope(message: str, code: ErrorCode | str) -> str:
    """``{"success": false, "error": message, "error_code": code}`` as a JSON string."""
    return _PLAIN_ENCODER.encode({"success": False, "error": message, "error_code": str(code)})
