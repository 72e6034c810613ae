"""The context-engine contract: a ``ContextEngine`` driven as hermes' agent drives the one
``context.engine`` selects.

Every release has ``agent.context_engine.ContextEngine`` with the same abstract members
(``name``, ``update_from_response``, ``should_compress``, ``compress``). A plugin registers
its engine with ``ctx.register_context_engine`` (one per process; another class is ignored
with a WARNING: ``hermes_cli.plugins.PluginContext.register_context_engine``), and an agent
whose ``context.engine`` names it (``get_plugin_context_engine()``, selected when
``engine.name`` equals that name; the default ``compressor`` never selects a plugin:
``agent.agent_init.init_agent``, from 0.22.2 ``agent.agent_init._select_context_engine``)
then, in this order:

1. takes its own copy: ``copy.deepcopy`` from 0.18.0, ``clone_for_agent()`` where the base
   has it; a failure falls back to the built-in compressor;
2. ``update_model(model=, context_length=, base_url=, api_key=, provider=[, api_mode=])``
   (``api_mode`` from 0.15.0; 0.13.0 ``run_agent.AIAgent.__init__``), uncaught;
3. ``get_tool_schemas()``, each normalised by ``normalize_tool_schema`` and a nameless one
   skipped with a WARNING;
4. ``on_session_start(session_id, hermes_home=, platform=, model=, context_length=,
   conversation_id=)``, a raise logged at debug level;
5. per API response ``update_from_response(usage)`` and per turn
   ``should_compress(prompt_tokens)`` (``agent.conversation_loop.run_conversation``), and
   when it is true ``compress(messages, ...)`` with the keywords its signature accepts
   (``agent.conversation_compression._supported_compression_kwargs``, called from
   ``agent.conversation_compression.compress_context``; before 0.19.0 ``current_tokens``,
   ``focus_topic`` and (0.16.0 on) ``force``, retried with ``current_tokens`` alone on a
   TypeError: 0.13.0 ``run_agent.AIAgent._compress_context``); the list it returns becomes
   the conversation;
6. ``handle_tool_call(name, args, messages=...)`` for its tools, whose result must be a JSON
   string (``agent.tool_executor.execute_tool_calls_sequential``); ``get_status()`` for
   display;
7. ``on_session_end(session_id, messages)`` at a real session boundary
   (``run_agent.AIAgent.shutdown_memory_provider``).
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any, Final, cast

from kit_devtools.testing._provider_drive import (
    Drive,
    add_suite,
    base_of,
    function,
    hermes_version,
    normalized,
    plugin_owned,
    raised_type_error,
    version_tuple,
)

KIND: Final = "context-engine"
BUILTIN_NAME: Final = "compressor"
"""The built-in engine's name: ``context.engine: compressor`` never selects a plugin."""
ROLES: Final = frozenset({"system", "user", "assistant", "tool"})
SESSION: Final = "hpk-contract-session"
MESSAGES: Final = (
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "What is the capital of France?"},
    {"role": "assistant", "content": "Paris."},
    {"role": "user", "content": "And of Italy?"},
    {"role": "assistant", "content": "Rome."},
    {"role": "user", "content": "Summarise our conversation."},
)
"""An OpenAI-format conversation, as hermes hands ``compress`` one."""
USAGE: Final = {
    "prompt_tokens": 1200,
    "completion_tokens": 80,
    "total_tokens": 1280,
    "input_tokens": 1200,
    "output_tokens": 80,
    "cache_read_tokens": 0,
    "cache_write_tokens": 0,
    "reasoning_tokens": 0,
}
"""The normalised usage dict of one API response (0.19.0 ``update_from_response``)."""
MODEL: Final = {
    "model": "hpk-contract-model",
    "context_length": 128_000,
    "base_url": "",
    "api_key": "",
    "provider": "",
    "api_mode": "",
}


def drive(engine: Any, version: str, builtins: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Drive ``engine`` as hermes ``version`` drives the selected context engine (the
    built-in name is ``compressor`` on every release: ``builtins`` is unused)."""
    done = Drive()
    base = base_of(engine, "agent.context_engine", "ContextEngine")
    if isinstance(base, type) and not isinstance(engine, base):
        done.broke(
            "class",
            "must inherit agent.context_engine.ContextEngine",
            f"{type(engine).__name__} does not: register_context_engine ignores it with a WARNING",
            "subclass hermes' ContextEngine",
        )
        return done.result()
    name = done.call("name", lambda: engine.name, rule="must be readable", fix="return a str")
    why = "no context.engine value selects it"
    if not done.blank("name", name, why, "return a short identifier such as 'lcm'") and (
        name == BUILTIN_NAME
    ):
        done.broke(
            "name",
            "must not be the built-in engine's name",
            "'compressor' selects the built-in ContextCompressor, never a plugin engine",
            "pick another name",
        )
    agent_engine = _copy(done, engine, base, version_tuple(version))
    _per_agent(done, agent_engine, version_tuple(version))
    return done.result()


def _copy(done: Drive, engine: Any, base: Any, version: tuple[int, ...]) -> Any:
    """The agent's own copy of the engine, as the release makes it (the engine itself where
    the release copies nothing, or where the copy failed: the rest is driven on it)."""
    if callable(getattr(base, "clone_for_agent", None)):
        how, call = "clone_for_agent", engine.clone_for_agent
    elif version >= (0, 18, 0):
        how, call = "__deepcopy__", lambda: copy.deepcopy(engine)
    else:
        return engine
    copied = done.call(
        how,
        call,
        rule="must copy: each agent takes its own copy, and hermes falls back to the built-in"
        " compressor when it fails",
        fix="hold uncopyable state (locks, connections) outside the engine, or override"
        " clone_for_agent()/__deepcopy__ to copy only mutable budget state",
    )
    return engine if copied is None else copied


def _per_agent(done: Drive, engine: Any, version: tuple[int, ...]) -> None:
    # api_mode from 0.15.0 (``agent.agent_init.init_agent``; 0.13.0 ``run_agent.AIAgent.__init__``)
    declared = [k for k in MODEL if k != "api_mode" or version >= (0, 15, 0)]
    done.call(
        "update_model",
        lambda: engine.update_model(**{k: MODEL[k] for k in declared}),
        rule=f"must accept hermes' keywords ({', '.join(declared)}); the agent does not start"
        " otherwise",
        fix="keep the base's signature (and **kwargs for what later releases add)",
    )
    tools = _tools(done, engine)
    done.call(
        "on_session_start",
        lambda: engine.on_session_start(
            SESSION,
            hermes_home=os.environ.get("HERMES_HOME", ""),
            platform="cli",
            model=MODEL["model"],
            context_length=getattr(engine, "context_length", 0),
            conversation_id=None,
        ),
        rule="must not raise (hermes logs it at debug level; the session starts without the"
        " engine's state)",
        fix="take session_id and **kwargs, and handle a missing store",
    )
    done.call(
        "update_from_response",
        lambda: engine.update_from_response(dict(USAGE)),
        rule="must take hermes' usage dict after every API response (uncaught: a raise"
        " fails the turn)",
        fix="read prompt_tokens/completion_tokens/total_tokens; treat the others as optional",
    )
    verdict = done.call(
        "should_compress",
        lambda: engine.should_compress(USAGE["prompt_tokens"]),
        rule="must answer after every turn",
        fix="return a bool from should_compress(prompt_tokens=None)",
    )
    if verdict is not None and not isinstance(verdict, bool):
        done.broke(
            "should_compress",
            "must return a bool",
            f"it returned {type(verdict).__name__} {verdict!r}",
            "return True or False",
        )
    messages = _compress(done, engine, version)
    for tool in tools:
        _tool_call(done, engine, tool, messages)
    status = done.call(
        "get_status", engine.get_status, rule="must not raise", fix="return the status dict"
    )
    if status is not None and not isinstance(status, dict):
        done.broke(
            "get_status",
            "must return a dict",
            f"it returned {type(status).__name__}",
            "return the base's fields (last_prompt_tokens, threshold_tokens, ...)",
        )
    done.call(
        "on_session_end",
        lambda: engine.on_session_end(SESSION, messages),
        rule="must take (session_id, messages) at the session's end (hermes swallows a"
        " raise: the state is never flushed)",
        fix="keep the base's signature; flush state there",
    )


def _tools(done: Drive, engine: Any) -> list[str]:
    schemas = done.call(
        "get_tool_schemas",
        engine.get_tool_schemas,
        rule="must not raise",
        fix="return a list of tool schemas ([] for none)",
    )
    if schemas is None:
        return []
    if not isinstance(schemas, list | tuple):
        done.broke(
            "get_tool_schemas",
            "must return a list",
            f"it returned {type(schemas).__name__}",
            "return a list of {'name', 'description', 'parameters'} schemas",
        )
        return []
    normalize = function("agent.memory_manager", "normalize_tool_schema") or normalized
    names: list[str] = []
    for raw in cast("list[Any]", schemas):
        schema = normalize(raw)
        if schema is None:
            done.broke(
                "get_tool_schemas",
                "every schema must have a name",
                f"{raw!r} has none: hermes skips it with a WARNING",
                "give each schema a non-empty 'name'",
            )
            continue
        names.append(str(schema["name"]))
    return names


def _compress(done: Drive, engine: Any, version: tuple[int, ...]) -> list[dict[str, Any]]:
    """``compress`` as the release calls it; the conversation hermes goes on with."""
    messages = [dict(m) for m in MESSAGES]
    options: dict[str, Any] = {
        "current_tokens": USAGE["prompt_tokens"],
        "focus_topic": None,
        "force": False,
        "memory_context": "",
    }
    choose = function("agent.conversation_compression", "_supported_compression_kwargs")
    done.checked.append("compress")
    try:
        if choose is not None and version >= (0, 19, 0):
            compressed = engine.compress(
                copy.deepcopy(messages), **choose(engine.compress, **options)
            )
        else:
            compressed = _older_compress(engine, messages, options, version)
    except Exception as exc:
        fix = "keep compress(messages, current_tokens=None, focus_topic=None, **kwargs)"
        if not raised_type_error(exc):
            fix = "return the messages unchanged when compaction cannot run"
        done.broke("compress", "must compact hermes' messages", _raised(exc), fix)
        return messages
    problem = _shape_problem(compressed)
    if problem is not None:
        done.broke(
            "compress",
            "must return an OpenAI-format message list",
            f"{problem}: hermes replaces the conversation with it",
            "return a list of {'role': ..., 'content': ...} dicts",
        )
        return messages
    return compressed


def _older_compress(
    engine: Any, messages: list[dict[str, Any]], options: dict[str, Any], version: tuple[int, ...]
) -> Any:
    """Before ``_supported_compression_kwargs`` (0.19.0): ``current_tokens``,
    ``focus_topic`` and from 0.16.0 ``force``, retried with ``current_tokens`` alone on a
    TypeError."""
    wanted = ["current_tokens", "focus_topic", *(["force"] if version >= (0, 16, 0) else [])]
    try:
        return engine.compress(copy.deepcopy(messages), **{k: options[k] for k in wanted})
    except TypeError:
        return engine.compress(copy.deepcopy(messages), current_tokens=options["current_tokens"])


def _shape_problem(compressed: Any) -> str | None:
    if not isinstance(compressed, list):
        return f"it returned {type(compressed).__name__}, not a list"
    for index, message in enumerate(compressed):  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        if not isinstance(message, dict):
            return f"item {index} is {type(message).__name__}, not a dict"  # pyright: ignore[reportUnknownArgumentType]
        role = message.get("role")  # pyright: ignore[reportUnknownVariableType, reportUnknownMemberType]
        if role not in ROLES:
            return f"item {index} has the role {role!r}, not one of {', '.join(sorted(ROLES))}"
    return None


def _tool_call(done: Drive, engine: Any, tool: str, messages: list[dict[str, Any]]) -> None:
    member = f"handle_tool_call({tool!r})"
    done.checked.append(member)
    try:
        result = engine.handle_tool_call(tool, {}, messages=messages)
    except Exception as exc:
        done.broke(
            member,
            "must return a JSON string, not raise (hermes logs an error)",
            _raised(exc),
            "catch the failure and return json.dumps({'error': ...})",
        )
        return
    if not isinstance(result, str):
        done.broke(
            member,
            "must return a JSON string",
            f"it returned {type(result).__name__}",
            "return json.dumps(...) of the result",
        )
        return
    try:
        json.loads(result)
    except ValueError:
        done.broke(
            member,
            "must return a JSON string",
            f"{result[:60]!r} is not JSON",
            "return json.dumps(...) of the result",
        )


def _raised(exc: BaseException) -> str:
    return f"raised {type(exc).__name__}: {exc}"


def drive_registered(kind: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """In hermes' worker: the engine a home plugin registered, driven by this release."""
    get = function("hermes_cli.plugins", "get_plugin_context_engine")
    engine = get() if get is not None else None
    if engine is None or not plugin_owned(engine, str(options.get("module", ""))):
        return []
    name = getattr(engine, "name", type(engine).__name__)
    return [{"provider": str(name), **drive(engine, hermes_version())}]


add_suite(KIND, drive)
