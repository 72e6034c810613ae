"""The memory-provider lifecycle of each hermes release, as the contract suite drives it.

What changes from release to release is the host model's (``kit_core.hermes``: each
release's ``memory_*`` facts, observed by ``scripts/host_facts.py``), but for the keywords
agent start passes ``initialize``, read from the agent start that calls ``initialize_all``
(``run_agent.py`` through 0.14.0, ``agent/agent_init.py`` from 0.15.0; :data:`INIT_KWARGS`,
:data:`CALLBACKS`). The in-memory host plays them; a real host reads the
optional members and the thread ``sync_all`` uses from the release itself
(``_memory_drive.release_facts``), and ``initialize``'s keywords from the release's own
builder from 0.21.3 (``_memory_drive.release_init``); before, agent start assembles them
inline, and :attr:`MemoryLifecycle.init_kwargs` stands in (tests/host/test_memory_contract.py
holds it to the builder's keywords on each release that has one).

What every release does (where in 0.13.0 / 0.19.0 / 0.22.2):

- ``agent.memory_provider.MemoryProvider``'s abstract members are ``name``,
  ``is_available``, ``initialize`` and ``get_tool_schemas`` on every release;
- agent start loads the provider named by ``memory.provider``, calls ``is_available()`` and
  only then ``add_provider`` (which reads ``get_tool_schemas()``) and ``initialize_all``
  (``run_agent.AIAgent.__init__`` / ``agent.agent_init.init_agent`` /
  ``agent.agent_init._init_memory``);
- each turn: ``on_turn_start`` and ``prefetch_all`` before the model is called
  (``run_agent.AIAgent.run_conversation`` / ``agent.turn_context.build_turn_context`` /
  ``agent.turn_context._memory_turn_start_and_prefetch``), then at the end of
  ``run_conversation``, on the agent's thread, ``sync_all`` and ``queue_prefetch_all``
  (``run_agent.AIAgent._sync_external_memory_for_turn`` on all three);
- a provider tool call is routed by ``agent.memory_manager.MemoryManager.handle_tool_call``,
  whose result goes to the model as it is;
- the built-in memory tool's writes go to ``on_memory_write``; context compression calls
  ``on_pre_compress`` and ``on_session_switch``; a finished subagent ``on_delegation``;
  the session's end ``on_session_end`` and ``shutdown_all``
  (``run_agent.AIAgent.shutdown_memory_provider``);
- the manager catches and logs whatever a provider raises: the call's work is lost, and
  the agent goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kit_core.hermes import registry_releases, version_key

__all__ = ["CALLBACKS", "INIT_KWARGS", "MemoryLifecycle", "lifecycle"]


INIT_KWARGS: Final = (
    "platform",
    "hermes_home",
    "agent_context",
    "agent_identity",
    "agent_workspace",
)
"""The keywords agent start passes ``initialize(session_id, ...)`` in a CLI session on
every release (0.13.0 ``run_agent.AIAgent.__init__``: then ``agent_identity`` and
``agent_workspace`` from the active profile); the gateway adds user and chat identities,
and ``cwd`` (0.21.4 on) comes only when the session has one."""
CALLBACKS: Final = ("warning_callback", "status_callback")
"""What the CLI's agent start adds to them where the memory manager works on a thread of
its own (0.17.0 ``agent.agent_init.init_agent``): the release that brought the worker
brought these."""


@dataclass(frozen=True, slots=True)
class MemoryLifecycle:
    """What one release's memory manager does with a provider."""

    release: str
    optional: frozenset[str]
    """The members ``MemoryProvider`` gives a default for, which hermes calls."""
    init_kwargs: tuple[str, ...]
    """The keywords agent start passes ``initialize(session_id, ...)`` in a CLI session,
    besides ``session_id``."""
    background_sync: bool
    """``sync_all`` and ``queue_prefetch_all`` run on the manager's single worker thread;
    before 0.17.0 on the agent's thread, which the turn waits for."""
    normalizes_schemas: bool
    """``normalize_tool_schema`` unwraps ``{"type": "function", "function": ...}``; before
    0.18.0 a wrapped schema is wrapped once more and reaches the model with no name."""
    rejects_core_tools: bool
    """``add_provider`` and ``get_all_tool_schemas`` drop a tool named like one of
    ``toolsets._HERMES_CORE_TOOLS``; before 0.17.0 agent start skips a schema whose name
    the agent already has (0.13.0 ``run_agent.AIAgent.__init__``)."""


def lifecycle(version: str) -> MemoryLifecycle:
    """The lifecycle of release ``version``: the model's newest release not after it (the
    oldest modelled for an older one)."""
    releases = registry_releases()
    known = [r for r in releases if version_key(r.version) <= version_key(version)]
    release = known[-1] if known else releases[0]
    return MemoryLifecycle(
        release=version,
        optional=release.memory_optional,
        init_kwargs=(*INIT_KWARGS, *(CALLBACKS if release.memory_background_sync else ())),
        background_sync=release.memory_background_sync,
        normalizes_schemas=release.memory_normalizes_schemas,
        rejects_core_tools=release.memory_rejects_core_tools,
    )
