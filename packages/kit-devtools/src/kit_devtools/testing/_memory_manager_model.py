"""The in-memory host's model of hermes' ``MemoryManager``, for one external provider.

What the contract suite (``_memory_drive``) relies on, per release
(:class:`~kit_devtools.testing._memory_lifecycle.MemoryLifecycle`): each call of a provider
member caught and logged as hermes catches it (``agent.memory_manager.MemoryManager``), the
tool routing table of ``agent.memory_manager.MemoryManager.add_provider``, the schemas
``get_all_tool_schemas`` offers (as they come before 0.18.0, through
``normalize_tool_schema`` after; core tool names dropped from 0.17.0), ``handle_tool_call``
returning what the provider returns, and an error string for an unknown name. The manager's
worker thread is not modelled: the suite times each call on a thread of its own, whichever
thread hermes runs it on.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any, cast

from kit_devtools.testing._memory_lifecycle import MemoryLifecycle
from kit_devtools.testing._provider_drive import normalized

__all__ = ["ModelManager"]


def _accepts(method: Callable[..., Any], keyword: str) -> bool:
    """Whether ``method`` takes ``keyword`` (the manager's signature test, 0.19.0
    ``agent.memory_manager.MemoryManager._provider_sync_accepts_messages``; uninspectable:
    yes)."""
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return True
    return keyword in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


class ModelManager:
    """``MemoryManager`` as the release of ``lifecycle`` runs it: each member of the
    provider read inside the guard that catches its call, as hermes reads it (a provider
    without the base class may lack an optional hook)."""

    def __init__(self, lifecycle: MemoryLifecycle, core_tools: frozenset[str]) -> None:
        self.lifecycle = lifecycle
        self.core_tools = core_tools
        self.provider: Any = None
        self.routes: dict[str, Any] = {}
        self.logged: list[str] = []
        """What hermes would log, one line per caught failure."""

    def _guarded(self, what: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except Exception as exc:
            self.logged.append(f"Memory provider {what} failed: {exc}")
            return None

    def add_provider(self, provider: Any) -> None:
        schemas = list(provider.get_tool_schemas())  # raises out, as hermes' does
        self.provider = provider
        for raw in schemas:
            schema: Any = normalized(raw) if self.lifecycle.normalizes_schemas else raw
            name = cast("dict[str, Any]", schema).get("name") if isinstance(schema, dict) else None
            if not isinstance(name, str) or not name:
                continue
            if self.lifecycle.rejects_core_tools and name in self.core_tools:
                continue
            self.routes.setdefault(name, provider)

    def get_all_tool_schemas(self) -> list[dict[str, Any]]:
        def collect() -> list[dict[str, Any]]:
            found: list[dict[str, Any]] = []
            for raw in self.provider.get_tool_schemas():
                if self.lifecycle.normalizes_schemas:
                    schema = normalized(raw)
                else:  # as it comes; AttributeError on a non-dict, as 0.13.0's
                    schema = raw if raw.get("name", "") else None
                if schema is None:
                    continue
                if self.lifecycle.rejects_core_tools and schema["name"] in self.core_tools:
                    continue
                if all(s.get("name") != schema.get("name") for s in found):
                    found.append(schema)
            return found

        return self._guarded("get_tool_schemas()", collect) or []

    def initialize_all(self, session_id: str, **kwargs: Any) -> None:
        self._guarded(
            "initialize", lambda: self.provider.initialize(session_id=session_id, **kwargs)
        )

    def build_system_prompt(self) -> str:
        block = self._guarded("system_prompt_block()", lambda: self.provider.system_prompt_block())
        return block if isinstance(block, str) and block.strip() else ""

    def on_turn_start(self, turn_number: int, message: str, **kwargs: Any) -> None:
        self._guarded(
            "on_turn_start", lambda: self.provider.on_turn_start(turn_number, message, **kwargs)
        )

    def prefetch_all(self, query: str, *, session_id: str = "") -> str:
        found = self._guarded(
            "prefetch", lambda: self.provider.prefetch(query, session_id=session_id)
        )
        return found if isinstance(found, str) else ""

    def queue_prefetch_all(self, query: str, *, session_id: str = "") -> None:
        self._guarded(
            "queue_prefetch", lambda: self.provider.queue_prefetch(query, session_id=session_id)
        )

    def sync_all(
        self,
        user_content: str,
        assistant_content: str,
        *,
        session_id: str = "",
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        def sync() -> None:  # the member read inside the guard, as hermes reads it
            method = self.provider.sync_turn
            extra: dict[str, Any] = {"session_id": session_id}
            if messages is not None and _accepts(method, "messages"):
                extra["messages"] = messages
            method(user_content, assistant_content, **extra)

        self._guarded("sync_turn", sync)

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> Any:
        provider = self.routes.get(tool_name)
        if provider is None:
            return json.dumps({"error": f"No memory provider handles tool '{tool_name}'"})
        try:
            return provider.handle_tool_call(tool_name, args, **kwargs)
        except Exception as exc:
            self.logged.append(f"Memory provider handle_tool_call({tool_name}) failed: {exc}")
            return json.dumps({"error": f"Memory tool '{tool_name}' failed: {exc}"})

    def on_memory_write(
        self, action: str, target: str, content: str, metadata: dict[str, Any] | None = None
    ) -> None:
        def write() -> None:
            method = self.provider.on_memory_write
            if _accepts(method, "metadata"):
                method(action, target, content, metadata=dict(metadata or {}))
            else:
                method(action, target, content)

        self._guarded("on_memory_write", write)

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        found = self._guarded("on_pre_compress", lambda: self.provider.on_pre_compress(messages))
        return found if isinstance(found, str) else ""

    def on_session_switch(self, new_session_id: str, **kwargs: Any) -> None:
        self._guarded(
            "on_session_switch", lambda: self.provider.on_session_switch(new_session_id, **kwargs)
        )

    def on_delegation(self, task: str, result: str, **kwargs: Any) -> None:
        self._guarded("on_delegation", lambda: self.provider.on_delegation(task, result, **kwargs))

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self._guarded("on_session_end", lambda: self.provider.on_session_end(messages))

    def shutdown_all(self) -> None:
        self._guarded("shutdown", lambda: self.provider.shutdown())
