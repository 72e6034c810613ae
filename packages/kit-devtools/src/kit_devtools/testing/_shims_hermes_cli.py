"""The in-memory host's stand-ins for ``hermes_cli.plugins``, ``hermes_cli.middleware`` and
``hermes_cli.config``, answering from the host they are built for (:mod:`_shims` puts them
in ``sys.modules``): hook and middleware invocation, the pre-tool-call guard, plugin
commands, and the host's ``config``; what the release the host plays lacks is an
AttributeError, and what the stand-ins do not model is hermes' own where it is installed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from types import ModuleType
from typing import Any, Final, cast

from kit_core.hermes import CALL_IDENTITY_KEYS
from kit_devtools.testing import _commands, _hooks, _real_hermes
from kit_devtools.testing._coerce import as_dict
from kit_devtools.testing._standin_state import HostHooks, hidden, offered, stand_in_module
from kit_devtools.testing.entries import PluginToolOverrideError, RequestMiddlewareResult
from kit_devtools.testing.host_names import (
    MIDDLEWARE_SCHEMA_VERSION,
    MODELLED,
    OBSERVER_SCHEMA_VERSION,
    VALID_MIDDLEWARE,
)

_HAS_HOOK: Final = "hermes_cli.plugins.has_hook"
_READ_ONLY: Final = "hermes_cli.config.load_config_readonly"


def _guard_args(
    tool_name: str,
    args: Any,
    task_id: str = "",
    session_id: str = "",
    tool_call_id: str = "",
    turn_id: str = "",
    api_request_id: str = "",
    middleware_trace: list[dict[str, Any]] | None = None,
) -> tuple[str, Any, dict[str, Any]]:
    identity = (task_id, session_id, tool_call_id, turn_id, api_request_id)
    context: dict[str, Any] = dict(zip(CALL_IDENTITY_KEYS, identity, strict=True))
    return tool_name, args, {**context, "middleware_trace": middleware_trace}


def plugins_module(host: Any) -> ModuleType:
    def state() -> Any:
        return host._state

    def resolve_pre_tool_block(*args: Any, **kwargs: Any) -> Any:
        name, tool_args, context = _guard_args(*args, **kwargs)
        return _hooks.resolve_pre_tool_block(state(), name, tool_args, **context)

    def get_pre_tool_call_directive(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        name, tool_args, context = _guard_args(*args, **kwargs)
        action, message, _ = _hooks.pre_tool_call_directive(state(), name, tool_args, **context)
        return action, message

    def get_pre_tool_call_block_message(*args: Any, **kwargs: Any) -> Any:
        action, message = get_pre_tool_call_directive(*args, **kwargs)
        return message if action == "block" else None

    def invoke_middleware(kind: str, **kwargs: Any) -> list[Any]:
        return _hooks.invoke_middleware(state(), kind, **kwargs)

    def has_middleware(kind: str) -> bool:
        return bool(state().middleware.get(kind))

    def get_plugin_command_handler(name: str) -> Any:
        entry = state().commands.get(name)
        return entry.handler if entry else None

    def get_plugin_commands() -> dict[str, dict[str, Any]]:
        return {
            name: {
                "handler": e.handler,
                "description": e.description,
                "plugin": e.plugin,
                "args_hint": e.args_hint,
            }
            for name, e in state().commands.items()
        }

    async def ainvoke_hook(hook_name: str, **kwargs: Any) -> list[Any]:
        return host.invoke_hook(hook_name, **kwargs)

    def dispatch_pre_tool_call_hooks(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        name, tool_args, context = _guard_args(*args, **kwargs)
        return _hooks.dispatch_pre_tool_call(state(), name, tool_args, **context)

    from kit_devtools.testing.context import HostContext  # here: context imports this module

    module = stand_in_module(
        "hermes_cli.plugins",
        "The in-memory host's stand-in for hermes_cli.plugins.",
        # the class of the contexts the host hands out (a member the release lacks is
        # refused there in hermes' words, and kit-lifecycle names the release that has it)
        PluginContext=HostContext,
        VALID_HOOKS=HostHooks(),
        ENTRY_POINTS_GROUP=MODELLED.entry_point_group,
        PluginToolOverrideError=PluginToolOverrideError,
        invoke_hook=lambda hook_name, **kwargs: host.invoke_hook(hook_name, **kwargs),  # pyright: ignore[reportUnknownLambdaType]
        invoke_middleware=invoke_middleware,
        has_middleware=has_middleware,
        resolve_pre_tool_block=resolve_pre_tool_block,
        get_pre_tool_call_directive=get_pre_tool_call_directive,
        get_pre_tool_call_block_message=get_pre_tool_call_block_message,
        get_plugin_command_handler=get_plugin_command_handler,
        get_plugin_commands=get_plugin_commands,
        resolve_plugin_command_result=_commands.resolve_command_result,
    )

    # what only upstream offers, per the release the current host plays: ainvoke_hook,
    # the fail-closed hook table and _dispatch_pre_tool_call_hooks
    def has_hook(hook_name: str) -> bool:
        return state().has_hook(hook_name)

    computed: dict[str, Callable[[], Any]] = {
        "has_hook": offered(host, has_hook, lambda r: _HAS_HOOK in r.functions),  # 0.16.0 on
        "ainvoke_hook": offered(host, ainvoke_hook, lambda r: r.awaits_hooks),
        "_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS": lambda: _fail_closed(state().release),
        "_dispatch_pre_tool_call_hooks": offered(
            host, dispatch_pre_tool_call_hooks, lambda r: r.modify_directive
        ),
    }
    vars(module)["__getattr__"] = _real_hermes.fallback(
        "hermes_cli.plugins", lambda: hidden("hermes_cli.plugins"), computed
    )
    return module


def _fail_closed(release: Any) -> set[str]:
    """``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``: the hooks blocked on a timeout (0.20.6 on)."""
    if not release.timeout_fail_closed_hooks:
        raise AttributeError("_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS")
    return set(release.timeout_fail_closed_hooks)


def middleware_module(host: Any) -> ModuleType:
    def apply_tool_request_middleware(tool_name: str, args: Any, **context: Any) -> Any:
        return _hooks.apply_request_middleware(
            host._state,
            "tool_request",
            "args",
            args,
            tool_name=tool_name,
            **context,
        )

    def run_tool_execution_middleware(
        tool_name: str, args: Any, next_call: Callable[[Any], Any], **context: Any
    ) -> Any:
        return _hooks.run_execution_chain(
            host._state,
            "tool_execution",
            next_call,
            tool_name=tool_name,
            args=args,
            original_args=context.pop("original_args", args),
            **context,
        )

    return stand_in_module(
        "hermes_cli.middleware",
        "The in-memory host's stand-in for hermes_cli.middleware.",
        VALID_MIDDLEWARE=set(VALID_MIDDLEWARE),
        OBSERVER_SCHEMA_VERSION=OBSERVER_SCHEMA_VERSION,
        MIDDLEWARE_SCHEMA_VERSION=MIDDLEWARE_SCHEMA_VERSION,
        RequestMiddlewareResult=RequestMiddlewareResult,
        apply_tool_request_middleware=apply_tool_request_middleware,
        run_tool_execution_middleware=run_tool_execution_middleware,
        apply_llm_request_middleware=lambda *a, **k: host.apply_llm_request_middleware(*a, **k),  # pyright: ignore[reportUnknownLambdaType]
        run_llm_execution_middleware=lambda *a, **k: host.run_llm_execution_middleware(*a, **k),  # pyright: ignore[reportUnknownLambdaType]
    )


def cfg_get(cfg: Any, *keys: str, default: Any = None) -> Any:
    """``hermes_cli.config.cfg_get``: nested lookup, ``default`` on any miss."""
    node: Any = as_dict(cfg)
    if node is None:
        return default
    for key in keys:
        mapping = as_dict(node)
        if mapping is None or key not in mapping:
            return default
        node = mapping[key]
    return node


def config_module(host: Any) -> ModuleType:
    def load_config() -> dict[str, Any]:
        """The host's ``config``; for a plugin, where hermes is installed, on top of
        hermes' own defaults as hermes' ``load_config`` merges them (``DEFAULT_CONFIG``
        with ``_deep_merge``): a plugin
        reading ``model`` gets hermes' ``""``, not nothing. The kit gets the host's."""
        config = copy.deepcopy(host._state.config)
        if _real_hermes.asked_by_kit():
            return config
        real = hidden("hermes_cli.config") or _real_hermes.real_module("hermes_cli.config")
        merge: Any = getattr(real, "_deep_merge", None)
        defaults: Any = getattr(real, "DEFAULT_CONFIG", None)
        if not callable(merge) or not isinstance(defaults, dict):
            return config
        return cast(
            "dict[str, Any]", merge(copy.deepcopy(cast("dict[str, Any]", defaults)), config)
        )

    def load_config_readonly() -> dict[str, Any]:
        return load_config()

    module = stand_in_module(
        "hermes_cli.config",
        "The in-memory host's stand-in for hermes_cli.config (its config= mapping).",
        load_config=load_config,
        cfg_get=cfg_get,
    )
    # load_config_readonly from 0.15.0 (0.13.0 and 0.14.0 have load_config alone)
    computed = {
        "load_config_readonly": offered(
            host, load_config_readonly, lambda r: _READ_ONLY in r.functions
        )
    }
    vars(module)["__getattr__"] = _real_hermes.fallback(
        "hermes_cli.config", lambda: hidden("hermes_cli.config"), computed
    )
    return module
