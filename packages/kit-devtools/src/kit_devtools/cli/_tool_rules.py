"""Lint rules for tools: schema, name, toolset, handler. They read what the host
received, so they work on plugins written without the kit too."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Mapping
from typing import Any, Final, cast

from kit_core import ToolSpec, declaration_of
from kit_core._annotations import signature_of
from kit_core.hermes import HostRelease, reserved_tools
from kit_devtools.cli._handler_source import dict_return
from kit_devtools.cli.findings import Finding
from kit_devtools.cli.rules import finding
from kit_devtools.testing._bridge import short_description
from kit_devtools.testing.host_names import BUILTIN_TOOLSETS, MODELLED

_SNAKE: Final = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_PROVIDER_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _walk(node: object, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if not isinstance(node, dict):
        return
    typed = cast("dict[str, Any]", node)
    yield path, typed
    for key, value in typed.items():
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            for sub, schema in cast("dict[str, Any]", value).items():
                yield from _walk(schema, f"{path}.{sub}")
        elif key in ("items", "additionalProperties", "not"):
            yield from _walk(value, f"{path}[]" if key == "items" else f"{path}.{key}")
        elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
            for index, item in enumerate(cast("list[Any]", value)):
                yield from _walk(item, f"{path}.{key}[{index}]")


_WORDS: Final = re.compile(r"[a-z0-9]+")
_FILLER: Final = frozenset(
    {"a", "an", "the", "this", "that", "it", "of", "to", "for", "and", "or", "in", "on",
     "with", "by", "from", "tool", "function", "helper", "utility", "plugin", "wrapper",
     "use", "used", "call", "calls", "run", "runs", "do", "does", "will", "can", "is"}
)  # fmt: skip
"""Words that say nothing of what a tool does."""
_SELF_DESCRIBED: Final = re.compile(
    r"^(?:(?:this|a|an|the)\s+)?(?:tool|function|helper|utility|wrapper|plugin)\b"
    r"|^use\s+(?:this|it)\b",
    re.IGNORECASE,
)
"""A first sentence that begins by saying what the tool is, not what it does."""


def _stem(word: str) -> str:
    """``notes`` -> ``note``, ``adds`` -> ``add``: enough to match a name's words."""
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def bridge_line_findings(name: str, schema: object, release: HostRelease) -> list[Finding]:
    """HPK118 on a release with the tool-search bridge on by default: the one line the
    model picks the tool by (its first sentence, as ``release`` clips it) begins by
    calling itself a tool, or says little beyond the tool's name. An empty description
    is HPK104's."""
    if not release.bridge_default or not isinstance(schema, Mapping):
        return []
    description = cast("Mapping[str, Any]", schema).get("description")
    if not isinstance(description, str) or not description.strip():
        return []
    line = short_description(description, release)
    named = {_stem(w) for w in _WORDS.findall(name.lower())}
    said = [w for w in _WORDS.findall(line.lower()) if _stem(w) not in named and w not in _FILLER]
    if _SELF_DESCRIBED.match(line):
        why = "it begins by saying what the tool is, not what it does"
    elif not said:
        why = "it says nothing beyond the tool's name"
    else:
        return []
    return [finding("HPK118", f"tool {name}", release=release.label, line=line, why=why)]


def schema_findings(name: str, schema: object) -> list[Finding]:
    """What is wrong with a tool's function schema as the host received it."""
    where = f"tool {name}"
    if not isinstance(schema, Mapping):
        return [finding("HPK101", where, kind=type(schema).__name__)]
    fn = cast("Mapping[str, Any]", schema)
    if fn.get("type") == "function" and isinstance(fn.get("function"), Mapping):
        return [finding("HPK102", where)]
    found: list[Finding] = []
    outside = [k for k in ("properties", "required", "type") if k in fn]
    if outside:
        found.append(finding("HPK103", where, keys=", ".join(map(repr, outside))))
    if not str(fn.get("description") or "").strip():
        found.append(finding("HPK104", where))
    params = fn.get("parameters")
    if not isinstance(params, Mapping):
        if not outside:
            found.append(finding("HPK105", where, problem="missing"))
        return found
    parameters = cast("Mapping[str, Any]", params)
    if parameters.get("type") != "object":
        found.append(finding("HPK105", where, problem=f"type {parameters.get('type')!r}"))
    props = parameters.get("properties")
    properties: Mapping[str, Any] = (
        cast("Mapping[str, Any]", props) if isinstance(props, Mapping) else {}
    )
    required: Any = parameters.get("required")
    names = cast("list[Any]", required) if isinstance(required, list) else []
    absent = [r for r in names if r not in properties]
    if absent:
        found.append(finding("HPK106", where, names=", ".join(map(repr, absent))))
    for key, prop in properties.items():
        described = (
            isinstance(prop, Mapping)
            and str(cast("Mapping[str, Any]", prop).get("description") or "").strip()
        )
        if not described:
            found.append(finding("HPK107", f"{where} argument {key}"))
    for path, node in _walk(parameters, "parameters"):
        if "$ref" in node:
            found.append(finding("HPK108", f"{where} {path}"))
        types = node.get("type")
        is_array = types == "array" or (isinstance(types, list) and "array" in types)
        if is_array and "items" not in node:
            found.append(finding("HPK109", f"{where} {path}"))
    return found


def name_findings(
    name: str, plugin_key: str, toolset: str, release: HostRelease = MODELLED
) -> list[Finding]:
    """What is wrong with a tool's name and toolset, on the release checked."""
    where = f"tool {name}"
    namespace = re.sub(r"[^a-z0-9]+", "_", plugin_key.lower()).strip("_") or "myplugin"
    if not _PROVIDER_NAME.fullmatch(name):
        return [finding("HPK111", where)]
    found: list[Finding] = []
    if name in reserved_tools(release):
        answers = "tool-search bridge" if name in release.bridge_tools else "agent loop"
        why = f"{release.label}'s {answers} handles this name itself"
        found.append(finding("HPK112", where, why=why, suggestion=f"{namespace}_{name}"))
    elif name.startswith("memory_"):
        found.append(finding("HPK117", where, suggestion=f"{namespace}_{name[7:]}"))
    if not _SNAKE.fullmatch(name):
        found.append(finding("HPK113", where))
    elif "_" not in name:
        found.append(finding("HPK114", where, suggestion=f"{namespace}_{name}"))
    if toolset in BUILTIN_TOOLSETS:
        found.append(finding("HPK115", where, toolset=toolset))
    return found


def signature_shape(fn: object) -> tuple[bool, bool] | None:
    """(takes a positional argument, takes **kwargs), or None when it cannot be read."""
    try:
        params = list(signature_of(cast("Any", fn)).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in params
    )
    return positional, any(p.kind is p.VAR_KEYWORD for p in params)


def is_coroutine_function(fn: object) -> bool:
    """Whether calling ``fn`` returns a coroutine (also through ``functools.wraps``)."""
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__wrapped__", None)
    )


def _names_keywords(fn: object, keywords: frozenset[str]) -> bool:
    """Whether ``fn`` takes every one of ``keywords`` by name (besides its first argument)."""
    try:
        params = list(signature_of(cast("Any", fn)).parameters.values())[1:]
    except (TypeError, ValueError):
        return False
    named = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return keywords <= named


def handler_findings(
    name: str,
    handler: object,
    is_async: bool,
    keywords: frozenset[str] = frozenset(),
    *,
    narrows: bool = False,
) -> list[Finding]:
    """What is wrong with how hermes will call a tool's handler (``keywords``: those the
    release checked passes it; ``narrows``: it passes only the keywords the handler names,
    ``HostRelease.narrows_handler_kwargs``)."""
    where = f"tool {name}"
    found: list[Finding] = []
    # a kit tool's wrapper takes (args, **kwargs) whatever it wraps: @tool checked the
    # spec style's shape, and a typed handler is called with keywords by the wrapper
    kit_tool = declaration_of(handler, ToolSpec) is not None
    shape = None if kit_tool else signature_shape(handler)
    # 0.21.5 on, registry.dispatch narrows the keywords to the handler's signature
    # (tools/registry.py _kwargs_accepted_by): one that takes the arguments positionally
    # works without **kwargs, now and with any keyword a later release adds
    if shape is not None and narrows and shape[0]:
        shape = None
    if shape is not None and not all(shape):
        if shape[0] and keywords and _names_keywords(handler, keywords):
            found.append(finding("HPK124", where, keywords=", ".join(sorted(keywords))))
        else:
            found.append(finding("HPK121", where))
    if is_coroutine_function(handler) and not is_async:
        found.append(finding("HPK122", where))
    elif is_async and not is_coroutine_function(handler):
        found.append(finding("HPK123", where))
    returned = None if kit_tool else dict_return(handler)
    if returned is not None:
        found.append(finding("HPK125", where, at=returned.where, statement=returned.statement))
    return found
