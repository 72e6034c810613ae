"""The in-memory host's stand-ins for ``tools.registry`` (the registry a plugin reads or
dispatches through, ``tool_error`` and ``tool_result``) and ``model_tools`` (a model tool
call through the host's pipeline, and the post-tool-call hook's emitter where the release
has it), answering from the host they are built for (:mod:`_shims` puts them in
``sys.modules``).
"""

from __future__ import annotations

import json
from types import ModuleType, SimpleNamespace
from typing import Any

from kit_core.hermes import CALL_IDENTITY_KEYS
from kit_devtools.testing import _pipeline, _real_hermes
from kit_devtools.testing._standin_state import hidden, offered, stand_in_module
from kit_devtools.testing.host_names import BUILTIN_TOOLS


def tool_error(message: Any, **extra: Any) -> str:
    """``tools.registry.tool_error``."""
    return json.dumps({"error": str(message), **extra}, ensure_ascii=False)


def tool_result(data: Any = None, **kwargs: Any) -> str:
    """``tools.registry.tool_result``."""
    return json.dumps(data if data is not None else kwargs, ensure_ascii=False)


class Registry:
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
        answers its one table; upstream the current home's plugin overlay, then the global
        tools. The in-memory host holds one home and keeps one registry, so ``scope`` is
        not looked at: no other home's overlay exists to hide."""
        entry = self._host.tools.get(name)
        if entry is not None:
            return entry
        toolset = BUILTIN_TOOLS.get(name)
        return None if toolset is None else SimpleNamespace(name=name, toolset=toolset)

    def _snapshot_registration(self, name: str, *, scope: str | None = None) -> Any:
        """Upstream's ``registry.snapshot_registration``: the current home's overlay only,
        no global fallback; here the host's plugin tools (one home, one registry: ``scope``
        is not looked at). Only a host playing a release with the registration ledger
        offers it."""
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


def model_tools_module(host: Any) -> ModuleType:
    def handle_function_call(
        function_name: str, function_args: Any, task_id: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        names = ("tool_call_id", "session_id", "turn_id", "api_request_id", "user_task")
        kwargs.update(zip(names, args, strict=False))
        known = {k: kwargs[k] for k in names if k in kwargs}
        return host.call_tool(function_name, function_args, task_id=task_id, **known)

    def _emit_post_tool_call_hook(  # hermes' name and keywords (0.17.0)
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
    emitter = offered(host, _emit_post_tool_call_hook, lambda r: _pipeline.EMITTER in r.functions)
    computed = {"_emit_post_tool_call_hook": emitter}
    vars(module)["__getattr__"] = _real_hermes.fallback(
        "model_tools", lambda: hidden("model_tools"), computed
    )
    return module
