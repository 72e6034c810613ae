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
from kit_devtools.cli.findings import C, E, Finding, Rule, W, declare, finding
from kit_devtools.testing._bridge import short_description
from kit_devtools.testing.host_names import BUILTIN_TOOLSETS, MODELLED

declare("tool schema", {
    "HPK101": Rule(E, "the schema is a {kind}, not the function object hermes sends to the"
                   " model", "pass {{'name', 'description', 'parameters': {{'type': 'object',"
                   " ...}}}}", "register_tool reads the schema with .get(): a str or a list"
                   " raises there, which disables the plugin (HPK001); an object with get()"
                   " that is no mapping is registered, then get_definitions fails on it"
                   " ('not a mapping', tools/registry.py) and no tool reaches the model"),
    "HPK102": Rule(E, "the schema is wrapped twice: hermes adds the {{'type': 'function',"
                   " 'function': ...}} envelope itself", "pass only the inner function object",
                   "get_definitions wraps the schema again (tools/registry.py): the function"
                   " has no name or parameters the model can use"),
    "HPK103": Rule(E, "{keys} stand outside 'parameters': the model receives a tool with no"
                   " arguments", "move them under schema['parameters']",
                   "get_definitions sends schema['parameters'] only (tools/registry.py)"),
    "HPK104": Rule(W, "the schema has no description: the model sees only"
                   " schema['description'] (register_tool's description= never reaches it),"
                   " so it guesses what the tool does", "set schema['description']",
                   "get_definitions sends the schema's own description (tools/registry.py),"
                   " empty: the tool reaches the model and its calls work;"
                   " register_tool's description= is kept for listings only"),
    "HPK105": Rule(E, "'parameters' is not an object schema ({problem}): hermes sends the"
                   " tool with no arguments",
                   "use 'parameters': {{'type': 'object', 'properties': {{...}}}}",
                   "get_definitions normalises a parameters value that is not an object"
                   " schema (tools/registry.py)"),
    "HPK106": Rule(E, "'required' names {names}, which 'properties' does not define; hermes"
                   " drops them, so the model is never told",
                   "define those properties or drop them from 'required'",
                   "get_definitions prunes 'required' to the defined properties"
                   " (tools/registry.py)"),
    "HPK107": Rule(W, "the argument has no description, so the model guesses what to pass",
                   "add a 'description' (str_arg('...') requires one)",
                   "hermes sends the argument as it is: the call works, the model guesses"),
    "HPK108": Rule(W, "$ref is rejected or mangled by some model providers",
                   "inline the referenced schema",
                   "hermes sends $ref through unchanged; some providers refuse the request"),
    "HPK109": Rule(W, "an array without 'items' is rejected by some model providers (Gemini"
                   " among them)", "add 'items', e.g. {{'type': 'string'}}",
                   "hermes sends the array schema unchanged; some providers refuse it"),
})  # fmt: skip

declare("tool name, toolset, handler", {
    "HPK111": Rule(E, "model providers accept only letters, digits, '_' and '-' in function"
                   " names, at most 64 characters", "rename it <namespace>_<verb>_<noun>",
                   "hermes registers the name as it is and sends it to the model; the"
                   " provider refuses every request that carries it"),
    "HPK112": Rule(E, "{why}, so the model can never reach the plugin's tool",
                   "give it your plugin's namespace, e.g. {suggestion}",
                   "the agent loop answers these names before the registry"
                   " (model_tools._AGENT_LOOP_TOOLS, model_tools.handle_function_call;"
                   " agent.tool_executor.execute_tool_calls_sequential);"
                   " tool_search, tool_describe and tool_call from 0.16.0, when hermes'"
                   " tool-search bridge came (tools/tool_search.py); before, they were free"),
    "HPK113": Rule(C, "the name is not lowercase snake_case",
                   "use tool_name(namespace, verb, noun)",
                   "the kit's naming convention: hermes accepts any provider-valid name"),
    "HPK114": Rule(C, "the name has no namespace: one registry holds every plugin's tools and"
                   " hermes' own", "name it {suggestion}",
                   "the kit's naming convention: hermes accepts it until another plugin"
                   " takes the same name (the later one is refused)"),
    "HPK115": Rule(W, "toolset {toolset!r} is one of hermes' own: the tool is merged into it"
                   " and switched on and off with it",
                   "use a toolset named after your plugin",
                   "a plugin toolset named like a static one is not a plugin toolset"
                   " (toolsets._get_plugin_toolset_names): the operator cannot switch it on"
                   " its own"),
    "HPK117": Rule(C, "the memory_ prefix is the kit's convention for hermes' own memory"
                   " tools: hermes reserves exact names only and runs this tool, but an"
                   " active memory provider's tool of the same name shadows it",
                   "if the tool is not a memory provider's, name it {suggestion}",
                   "model_tools._AGENT_LOOP_TOOLS holds exact names;"
                   " the agent loop also answers the active memory provider's tools first"
                   " (agent.tool_executor.execute_tool_calls_sequential)"),
    "HPK118": Rule(C, "with the tool-search bridge, on by default on {release}, the model"
                   " picks tools from one line each, and this tool's reads {line!r}: {why}",
                   "start the description with one short sentence saying what the tool"
                   " does and to what (the model sees 60 characters of it), details after"
                   " it",
                   "tool_search's description lists each deferred tool as '<name>: <first"
                   " sentence>' clipped to 60 characters (tools.tool_search._short_desc,"
                   " 0.20.0 on); the full schema comes only through tool_describe"),
    "HPK121": Rule(E, "the handler cannot take (args, **kwargs): hermes passes the arguments"
                   " positionally and task_id, session_id and user_task as keywords",
                   "define it as def handler(args, **kwargs)",
                   "registry.dispatch calls handler(args, **kwargs) and turns the TypeError"
                   " into a tool error (tools.registry.ToolRegistry.dispatch)"),
    "HPK122": Rule(E, "an async def handler registered without is_async=True returns an"
                   " un-awaited coroutine, which hermes turns into an error",
                   "pass is_async=True to register_tool",
                   "registry.dispatch calls the handler without awaiting and rejects the"
                   " coroutine result (tools.registry.ToolRegistry.dispatch)"),
    "HPK123": Rule(E, "is_async=True but the handler is not async def: hermes hands its"
                   " result to an event loop, which refuses a string, so every call fails",
                   "drop is_async or make the handler async",
                   "registry.dispatch runs _run_async(handler(...)) for is_async tools"
                   " (tools.registry.ToolRegistry.dispatch, model_tools._run_async)"),
    "HPK124": Rule(W, "the handler names hermes' keywords ({keywords}) instead of taking"
                   " **kwargs: it works on this hermes, and every call fails on a release"
                   " that passes one more", "add **kwargs to its parameters",
                   "registry.dispatch(name, args, task_id=..., session_id=..., user_task=...)"
                   " (model_tools.handle_function_call); the keywords grew between releases"
                   " (the host model's tool_keywords)"),
    "HPK125": Rule(E, "the handler returns a dict ({at}: {statement}), not the JSON string"
                   " hermes expects: hermes replaces it with a tool_result_contract error, so"
                   " the model never gets the result",
                   "return json.dumps(...) of it, or declare the tool with @tool (the kit"
                   " encodes what the handler returns)",
                   "_normalize_handler_result refuses a result that is not a string or a"
                   " multimodal envelope (tools/registry.py); before 0.19.0 hermes hands the"
                   " dict itself on where the agent loop expects the tool message's text;"
                   " read from the handler's source, without running it"),
})  # fmt: skip

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


def _mapping(value: object) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


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
    properties = _mapping(parameters.get("properties"))
    required: Any = parameters.get("required")
    names = cast("list[Any]", required) if isinstance(required, list) else []
    absent = [r for r in names if r not in properties]
    if absent:
        found.append(finding("HPK106", where, names=", ".join(map(repr, absent))))
    for key, prop in properties.items():
        if not str(_mapping(prop).get("description") or "").strip():
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
