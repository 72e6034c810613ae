"""Stand-ins for the hermes modules plugins import lazily, installed only while a host runs.

kit-media (and hand-written plugins) import ``tools.send_message_tool``,
``hermes_cli.plugins``, ``gateway.session_context`` ... at call time. While a host is
active, ``sys.modules`` maps those names to small modules that answer from this host;
afterwards every entry is put back exactly as it was (a real hermes module included),
and nothing imported under a stand-in package is left behind. Where hermes-agent is
installed, what the stand-ins do not model comes from hermes itself (``_real_hermes``).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import sys
import unicodedata
from collections.abc import Callable, Generator
from types import ModuleType, SimpleNamespace
from typing import Any, Final, cast

from kit_core.hermes import CALL_IDENTITY_KEYS
from kit_devtools.testing import (
    _commands,
    _hooks,
    _media,
    _pipeline,
    _real_hermes,
    _upstream_gateway,
)
from kit_devtools.testing._coerce import as_dict
from kit_devtools.testing._standin_state import (
    ACTIVE,
    CREATED,
    CURRENT,
    LOCK,
    MISSING,
    PACKAGES,
    SAVED,
    SESSION_BINDER,
    SESSION_ID,
    SESSION_ID_VARIABLE,
    VERSIONED,
    CurrentHost,
    HostHooks,
    current_host,
    hidden,
    stand_in_module,
)
from kit_devtools.testing.entries import PluginToolOverrideError, RequestMiddlewareResult
from kit_devtools.testing.host_names import (
    BUILTIN_TOOLS,
    MIDDLEWARE_SCHEMA_VERSION,
    MODELLED,
    OBSERVER_SCHEMA_VERSION,
    VALID_MIDDLEWARE,
)


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
    context = {
        "task_id": task_id,
        "session_id": session_id,
        "tool_call_id": tool_call_id,
        "turn_id": turn_id,
        "api_request_id": api_request_id,
        "middleware_trace": middleware_trace,
    }
    return tool_name, args, context


def _plugins_module(host: Any) -> ModuleType:
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

    # what only upstream offers, per the release the current host plays: ainvoke_hook
    # (PluginDispatchMixin.ainvoke_hook, hermes_cli/plugins_dispatch.py L493-529 @006a5aeb),
    # the fail-closed hook table (plugins_dispatch.py L48-49 @006a5aeb) and
    # _dispatch_pre_tool_call_hooks (hermes_cli/plugins.py L1887-1895 @00067189)
    def has_hook(hook_name: str) -> bool:
        return state().has_hook(hook_name)

    computed: dict[str, Callable[[], Any]] = {
        "has_hook": _offered(host, has_hook, lambda r: _HAS_HOOK in r.functions),  # 0.16.0 on
        "ainvoke_hook": _offered(host, ainvoke_hook, lambda r: r.awaits_hooks),
        "_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS": lambda: _fail_closed(state().release),
        "_dispatch_pre_tool_call_hooks": _offered(
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


def _middleware_module(host: Any) -> ModuleType:
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


def _config_module(host: Any) -> ModuleType:
    def load_config() -> dict[str, Any]:
        """The host's ``config``; for a plugin, where hermes is installed, on top of
        hermes' own defaults as hermes' ``load_config`` merges them (``DEFAULT_CONFIG``
        with ``_deep_merge``, ``hermes_cli/config.py`` 7343-7357 in 0.19.0): a plugin
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
        "load_config_readonly": _offered(
            host, load_config_readonly, lambda r: _READ_ONLY in r.functions
        )
    }
    vars(module)["__getattr__"] = _real_hermes.fallback(
        "hermes_cli.config", lambda: hidden("hermes_cli.config"), computed
    )
    return module


def tool_error(message: Any, **extra: Any) -> str:
    """``tools.registry.tool_error``."""
    return json.dumps({"error": str(message), **extra}, ensure_ascii=False)


def tool_result(data: Any = None, **kwargs: Any) -> str:
    """``tools.registry.tool_result``."""
    return json.dumps(data if data is not None else kwargs, ensure_ascii=False)


class _Registry:
    """The parts of ``tools.registry.registry`` a plugin reads or dispatches through."""

    def __init__(self, host: Any) -> None:
        self._host = host

    def dispatch(self, name: str, args: Any, **kwargs: Any) -> Any:
        return self._host.dispatch(name, args, **kwargs)

    def get_schema(self, name: str) -> Any:
        entry = self._host.tools.get(name)
        return entry.schema if entry else None

    def get_all_tool_names(self) -> list[str]:
        return sorted(self._host.tools)

    def get_entry(self, name: str, *, scope: str | None = None) -> Any:
        """``registry.get_entry``: the host's plugin tool of that name, else the built-in
        one (an entry with its ``name`` and ``toolset``), else None. hermes-agent 0.19.0
        answers its one table (``tools/registry.py`` L274-277); upstream the current
        home's plugin overlay, then the global tools (``get_entry(name, *, scope=None)``,
        ``ToolRegistry.get_entry`` in ``tools/registry.py``
        @00067189dfecf833d4d009c2dd977ae85cf800e0). The in-memory host holds one home and
        keeps one registry, so ``scope`` is not looked at: no other home's overlay exists to
        hide."""
        entry = self._host.tools.get(name)
        if entry is not None:
            return entry
        toolset = BUILTIN_TOOLS.get(name)
        return None if toolset is None else SimpleNamespace(name=name, toolset=toolset)

    def _snapshot_registration(self, name: str, *, scope: str | None = None) -> Any:
        """Upstream's ``registry.snapshot_registration``: the current home's overlay only,
        no global fallback (``ToolRegistry.snapshot_registration``, ``tools/registry.py``
        @00067189): here the
        host's plugin tools (one home, one registry: ``scope`` is not looked at). Only a
        host playing a release with the registration ledger offers it."""
        return self._host.tools.get(name)

    def __getattr__(self, name: str) -> Any:
        """The rest is hermes' own registry's, where hermes is installed: its own tool
        modules call ``registry.register`` as they import (``tools.web_tools``). The kit
        asking what the registry can do gets the host's answer."""
        if name == "snapshot_registration" and self._host._state.release.registration_ledger:
            return self._snapshot_registration
        real = None
        if not name.startswith("__") and not _real_hermes.asked_by_kit():
            real = hidden("tools.registry") or _real_hermes.real_module("tools.registry")
        if real is None:
            msg = f"'registry' of the in-memory host has no attribute {name!r}"
            raise AttributeError(msg)
        return getattr(real.registry, name)


def _session_module(host: Any) -> ModuleType:
    def get_session_env(name: str, default: str = "") -> str:
        values = host.session_env
        return values[name] if name in values else os.getenv(name, default)

    return stand_in_module(
        "gateway.session_context",
        "The in-memory host's stand-in: InMemoryHost.session_env, then os.environ.",
        get_session_env=get_session_env,
    )


def _model_tools_module(host: Any) -> ModuleType:
    def handle_function_call(
        function_name: str, function_args: Any, task_id: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        names = ("tool_call_id", "session_id", "turn_id", "api_request_id", "user_task")
        kwargs.update(zip(names, args, strict=False))
        known = {k: kwargs[k] for k in names if k in kwargs}
        return host.call_tool(function_name, function_args, task_id=task_id, **known)

    def _emit_post_tool_call_hook(  # hermes' name and keywords (0.17.0 model_tools.py L812)
        *,
        function_name: str,
        function_args: Any,
        result: Any,
        task_id: str | None = None,
        session_id: str | None = None,
        tool_call_id: str | None = None,
        turn_id: str | None = None,
        api_request_id: str | None = None,
        duration_ms: int = 0,
        status: str | None = None,
        error_type: str | None = None,
        error_message: str | None = None,
        middleware_trace: list[dict[str, Any]] | None = None,
    ) -> None:
        values = (task_id, session_id, tool_call_id, turn_id, api_request_id)
        context: dict[str, Any] = dict(zip(CALL_IDENTITY_KEYS, values, strict=True))
        given = (status, error_type, error_message) if status is not None else None
        _pipeline.emit_post_tool_call(
            host._state, function_name, function_args, result, context,
            list(middleware_trace or []), duration_ms, given,
        )  # fmt: skip

    module = stand_in_module(
        "model_tools",
        "The in-memory host's stand-in for model_tools.",
        handle_function_call=handle_function_call,
    )
    emitter = _offered(host, _emit_post_tool_call_hook, lambda r: _pipeline.EMITTER in r.functions)
    computed = {"_emit_post_tool_call_hook": emitter}
    vars(module)["__getattr__"] = _real_hermes.fallback(
        "model_tools", lambda: hidden("model_tools"), computed
    )
    return module


_HAS_HOOK: Final = "hermes_cli.plugins.has_hook"
_READ_ONLY: Final = "hermes_cli.config.load_config_readonly"


def _offered(host: Any, value: Callable[..., Any], has: Callable[[Any], bool]) -> Callable[[], Any]:
    """``value`` where the release the host plays has it (``has(release)``); elsewhere an
    AttributeError, as on that release."""

    def answer() -> Any:
        if not has(host._state.release):
            raise AttributeError(value.__name__)
        return value

    return answer


def build(host: Any) -> dict[str, ModuleType]:
    """The stand-in modules, answering from ``host`` (looked up on every call)."""
    return {
        "hermes_cli.plugins": _plugins_module(host),
        "hermes_cli.middleware": _middleware_module(host),
        "hermes_cli.config": _config_module(host),
        "tools.registry": stand_in_module(
            "tools.registry",
            "The in-memory host's stand-in for tools.registry.",
            registry=_Registry(host),
            tool_error=tool_error,
            tool_result=tool_result,
        ),
        "tools.send_message_tool": stand_in_module(
            "tools.send_message_tool",
            "The in-memory host's recorded send_message.",
            send_message_tool=lambda args, **kw: _media.send_message(host, args, **kw),  # pyright: ignore[reportUnknownLambdaType]
            _media_caption_split=_media.media_caption_split,
        ),
        "gateway.session_context": _session_module(host),
        "gateway.platforms.base": stand_in_module(
            "gateway.platforms.base",
            "The in-memory host's stand-in for hermes' media path policy.",
            validate_media_delivery_path=_media.validate_media_delivery_path,
        ),
        "gateway.response_filters": _response_filters_module(host),
        "hermes_constants": stand_in_module(
            "hermes_constants",
            "The in-memory host's stand-in: get_hermes_home() is the calling host's home.",
            # per call, from the host this call runs under (HERMES_HOME is one per process)
            get_hermes_home=lambda: current_host().hermes_home,
        ),
        "model_tools": _model_tools_module(host),
    }


def _response_filters_module(host: Any) -> ModuleType:
    """The gateway's silence filter, with what the played release offers and nothing else:
    ``is_intentional_silence_response`` where the release has it (from 0.17.0),
    ``SILENT_REPLY_TOKEN`` where it has a silence token (0.17.0-0.21.5; 0.22.2 removed it),
    and the human-turn guard's ``silence_predicates`` (0.21.4-0.22.2) as the releases'
    ``gateway/response_filters.py`` implement them (see :mod:`_upstream_gateway`). Asking
    for one the release lacks is an AttributeError, as on that release."""
    module = stand_in_module(
        "gateway.response_filters",
        "The in-memory host's stand-in for the gateway's silence filter.",
    )

    def offered(name: str, answer: Callable[[Any], Any]) -> Callable[[], Any]:
        def value() -> Any:
            release = host._state.release
            found = answer(release)
            if found is _ABSENT:
                msg = (
                    f"module 'gateway.response_filters' has no attribute {name!r} ({release.label})"
                )
                raise AttributeError(msg)
            return found

        return value

    def filter_of(release: Any) -> Any:
        return (
            _is_intentional_silence_response if _SILENCE_FUNCTION in release.functions else _ABSENT
        )

    def guard_member(name: str) -> Callable[[Any], Any]:
        return lambda release: _upstream_gateway.members(release).get(name, _ABSENT)

    computed = {
        "is_intentional_silence_response": offered("is_intentional_silence_response", filter_of),
        "SILENT_REPLY_TOKEN": offered("SILENT_REPLY_TOKEN", lambda r: r.silence_token or _ABSENT),
    }
    names = [*_upstream_gateway.PREDICATES, *_upstream_gateway.CONSTANTS]
    computed.update({name: offered(name, guard_member(name)) for name in names})
    vars(module)["__getattr__"] = _real_hermes.fallback(
        "gateway.response_filters", lambda: hidden("gateway.response_filters"), computed
    )
    return module


_ABSENT: Final = object()
_SILENCE_FUNCTION: Final = "gateway.response_filters.is_intentional_silence_response"


_SILENT_MARKERS: Final = frozenset({"[SILENT]", "SILENT", "NO_REPLY", "NO REPLY"})


def _is_intentional_silence_response(response: Any) -> bool:
    """Whether the gateway would deliver nothing for this final reply: the whole reply is
    one silence marker, at most 64 characters (hermes-agent 0.19.0
    ``gateway/response_filters.py`` 19-24 and 56-70; edge punctuation is trimmed as there,
    square brackets kept)."""
    if not isinstance(response, str) or not response.strip() or len(response.strip()) > 64:
        return False
    text = response.strip()
    start, end = 0, len(text)
    while start < end and text[start] not in "[]" and unicodedata.category(text[start])[0] == "P":
        start += 1
    while (
        end > start and text[end - 1] not in "[]" and unicodedata.category(text[end - 1])[0] == "P"
    ):
        end -= 1
    candidates = {text, text[start:end].strip()}
    return any(" ".join(c.upper().split()) in _SILENT_MARKERS for c in candidates)


def _install() -> None:
    _real_hermes.remember()
    for name in PACKAGES:
        real = sys.modules.get(name)
        if real is not None and name != VERSIONED:
            continue  # hermes' own package stays; its stand-in submodules go in below
        package = stand_in_module(name, "A stand-in package of the in-memory host.")
        package.__path__ = list(getattr(real, "__path__", ())) or _real_hermes.search_path(name)
        if package.__spec__ is not None:
            package.__spec__.submodule_search_locations = package.__path__
        if name == VERSIONED:  # in front of hermes' own package, if imported: the version
            # is the one of the release the current host plays, the rest is hermes'
            vars(package)["__getattr__"] = _real_hermes.fallback(
                name,
                lambda: hidden(VERSIONED),
                {"__version__": lambda: current_host().release.version},
            )
        SAVED[name] = MISSING if real is None else real
        sys.modules[name] = package
        if real is None:
            CREATED.append(name)
    for name, module in build(CurrentHost()).items():
        SAVED[name] = sys.modules.get(name, MISSING)
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent in CREATED:
            setattr(sys.modules[parent], child, module)


def _restore() -> None:
    prefixes = tuple(f"{p}." for p in CREATED)
    for name in [n for n in sys.modules if prefixes and n.startswith(prefixes)]:
        if name not in SAVED:
            del sys.modules[name]
    for name, old in reversed(SAVED.items()):
        if old is MISSING:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = old
    SAVED.clear()
    CREATED.clear()
    _real_hermes.forget()


@contextlib.contextmanager
def activated(host: Any) -> Generator[None, None, None]:
    """Make ``host`` the one the stand-ins answer from; install them in ``sys.modules``
    for the first active host and put everything back when the last one finishes.

    A ``HERMES_SESSION_ID`` in the host's ``session_env`` is also bound, for the call, to
    a context variable of that name, as hermes binds the turn's session id
    (``gateway/session_context.py:81`` and ``142-154``, hermes-agent 0.19.0): code that
    reads the bound session, as kit-media does to arm suppression, finds it there. Only
    on a release that binds it (:data:`SESSION_BINDER`, from 0.15.0): before, the
    variable stays unset, as there.
    """
    session_id = host.session_env.get(SESSION_ID_VARIABLE)
    binds = SESSION_BINDER in host._state.release.functions
    session_token = SESSION_ID.set(session_id) if binds and isinstance(session_id, str) else None
    token = CURRENT.set(host)
    with LOCK:
        if not ACTIVE:
            _install()
        ACTIVE.append(host)
    try:
        yield
    finally:
        with LOCK:
            for index in range(len(ACTIVE) - 1, -1, -1):
                if ACTIVE[index] is host:
                    del ACTIVE[index]
                    break
            if not ACTIVE:
                _restore()
        try:
            CURRENT.reset(token)
            if session_token is not None:
                SESSION_ID.reset(session_token)
        except ValueError:  # left in another context (a generator closed elsewhere)
            CURRENT.set(None)
