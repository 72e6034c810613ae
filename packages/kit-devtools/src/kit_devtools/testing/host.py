"""``InMemoryHost``: hermes-agent 0.19.0's plugin host, in memory, standard library only.

It loads a plugin the way hermes' plugin manager does and then answers like hermes:
the tool definitions the model receives, ``handle_function_call``'s whole pipeline,
hook and middleware invocation, slash and terminal commands, and a recorded
``send_message`` for media plugins. ``tests/host/test_parity.py`` runs the same plugins
through this host and the real one and requires the same answers.

What it does not simulate: built-in tools (known by name only, so shadowing is refused
as in hermes), Tool Search's dispatch (``model_view`` shows what the bridge sends), the
human approval gate (an ``approve`` directive blocks, as
in a process with no user to ask), ``check_fn`` caching, and ``plugins.enabled``
(``load`` is the operator enabling a plugin).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

from kit_core.hermes import CALL_IDENTITY_KEYS, HostRelease
from kit_devtools.testing import (
    _bridge,
    _commands,
    _cron_provider,
    _hooks,
    _loader,
    _memory_provider,
    _model_provider,
    _pipeline,
    _plugin_load,
    _schema,
    _shims,
)
from kit_devtools.testing._cron_provider import CronProviderLoad
from kit_devtools.testing._home import HermesHome
from kit_devtools.testing._memory_provider import MemoryProviderLoad
from kit_devtools.testing._model_provider import ModelProviderLoad
from kit_devtools.testing._state import HostState
from kit_devtools.testing._upstream_config import upstream_manifest
from kit_devtools.testing._upstream_context import UpstreamContext
from kit_devtools.testing.context import HostContext
from kit_devtools.testing.entries import (
    CliCommandEntry,
    CommandEntry,
    HookEntry,
    HostEvent,
    LoadedPlugin,
    MiddlewareEntry,
    RequestMiddlewareResult,
    SkillEntry,
    ToolEntry,
)
from kit_devtools.testing.host_names import BUILTIN_COMMANDS, profile

__all__ = ["InMemoryHost"]


class InMemoryHost:
    """A fresh hermes plugin host with no plugin loaded.

    Args:
        config: the host's ``config.yaml`` as a mapping. hermes reads
            ``plugins.entries.<plugin>.allow_tool_override`` from it, and plugins read
            their settings (``hermes_cli.config.load_config_readonly()`` answers it).
        hermes_home: the hermes home plugin code sees (``HERMES_HOME`` while the host runs
            it). By default a temporary one laid out as hermes lays out its own, holding
            ``config`` as ``config.yaml``, removed with the host; pass a path to use a real
            one.
        strict: ``load()`` raises :class:`PluginLoadError` when the plugin does not load
            (the pytest fixture ``plugin_host`` is strict); otherwise the failure is kept on
            the result, as hermes keeps it, and ``check`` reports it.
        hermes: the release the host plays: the installed hermes (the default; else the
            newest release of the host model), any release the model holds (``"0.21.3"``),
            a series (``"0.21"``: its newest) or ``"newest"``; each was installed from the
            registry and booted. Plugin code sees that release's
            ``hermes_cli.__version__`` and ``VALID_HOOKS``.
    """

    def __init__(
        self,
        *,
        config: Mapping[str, Any] | None = None,
        strict: bool = False,
        hermes_home: str | Path | None = None,
        hermes: str | None = None,
    ) -> None:
        self.strict = strict
        self._state = HostState(config, profile(hermes))
        self._home = HermesHome(hermes_home, config or {}, self._state.release.home_folders)
        self._plugins: dict[str, LoadedPlugin] = self._state.loaded  # ctx.has_plugin reads it
        self.send_message_reply: Callable[[dict[str, Any]], Any] | None = None
        """Answers ``send_message`` instead of the default success reply when set."""

    def __repr__(self) -> str:
        return f"InMemoryHost(plugins={sorted(self._plugins)!r}, tools={sorted(self.tools)!r})"

    # -- what was registered --------------------------------------------------------------

    @property
    def release(self) -> HostRelease:
        """The hermes release this host plays (``release.label`` names it)."""
        return self._state.release

    @property
    def hermes_home(self) -> Path:
        """The hermes home plugins see (provisioned on first use)."""
        return self._home.path

    @property
    def provisions(self) -> Mapping[str, Mapping[str, tuple[str, Any]]]:
        """Providers, the context engine, platforms, Slack actions and auxiliary tasks, by
        kind and name: ``(plugin, what it registered)``."""
        return MappingProxyType({k: MappingProxyType(v) for k, v in self._state.provisions.items()})

    @property
    def plugins(self) -> Mapping[str, LoadedPlugin]:
        """Every plugin loaded so far, by key."""
        return MappingProxyType(self._plugins)

    @property
    def tools(self) -> Mapping[str, ToolEntry]:
        """The registry's plugin tools by name (refused registrations are not in it)."""
        return MappingProxyType(self._state.tools)

    @property
    def hooks(self) -> Mapping[str, tuple[HookEntry, ...]]:
        """Hook callbacks by hook name, in the order they run."""
        return MappingProxyType({k: tuple(v) for k, v in self._state.hooks.items()})

    @property
    def middleware(self) -> Mapping[str, tuple[MiddlewareEntry, ...]]:
        """Middleware callbacks by kind, in the order they run (first is outermost)."""
        return MappingProxyType({k: tuple(v) for k, v in self._state.middleware.items()})

    @property
    def commands(self) -> Mapping[str, CommandEntry]:
        """Slash commands by normalised name."""
        return MappingProxyType(self._state.commands)

    @property
    def cli_commands(self) -> Mapping[str, CliCommandEntry]:
        """``hermes <name>`` terminal commands by name."""
        return MappingProxyType(self._state.cli_commands)

    @property
    def skills(self) -> Mapping[str, SkillEntry]:
        """Plugin skills by qualified name ``"<plugin>:<name>"``."""
        return MappingProxyType(self._state.skills)

    @property
    def events(self) -> tuple[HostEvent, ...]:
        """What hermes would have logged at WARNING or ERROR, in order."""
        return tuple(self._state.events)

    @property
    def sent_messages(self) -> list[dict[str, Any]]:
        """The arguments of every ``send_message`` call, in order (a live list)."""
        return self._state.sent_messages

    @property
    def session_env(self) -> dict[str, str]:
        """Session values (``HERMES_SESSION_PLATFORM``, ``_CHAT_ID``, ...) as the gateway
        binds them for a turn; ``get_session_env`` falls back to ``os.environ``.
        ``HERMES_SESSION_ID`` is also bound to its context variable during each call, so
        a media delivery that names no session arms suppression under it, as in hermes."""
        return self._state.session_env

    # -- loading --------------------------------------------------------------------------

    @contextlib.contextmanager
    def activate(self) -> Generator[InMemoryHost, None, None]:
        """Make the hermes modules plugins import lazily resolve to this host.

        Calls through the host activate it by themselves; use this to call plugin code
        directly. ``sys.modules`` is exactly restored on exit. Re-entrant.
        """
        with _shims.activated(self), self._home.bound():
            yield self

    def load(self, target: str | Path | ModuleType, *, key: str | None = None) -> LoadedPlugin:
        """Load a plugin and call its ``register(ctx)`` with a fresh :class:`HostContext`.

        ``target``: a plugin directory (``plugin.yaml`` and ``__init__.py``; imported
        afresh as ``hermes_plugins.<slug>``), a module, an importable module name, or the
        name of an entry point of group ``hermes_agent.plugins``.

        An error while importing or in ``register`` is kept on the result
        (``enabled=False``, ``error``, ``exception``), and what was registered before it
        stays registered, as in hermes; a strict host then raises :class:`PluginLoadError`
        saying why and where. Raises LookupError when ``target`` names nothing.
        """
        found = _loader.resolve(target, key, self.release)
        return _plugin_load.load(
            self._state,
            found,
            self._plugins,
            strict=self.strict,
            activate=self.activate,
            context=self._context,
        )

    def load_memory_provider(self, directory: str | Path) -> MemoryProviderLoad:
        """Load a memory-provider plugin directory as hermes' memory discovery does when
        the operator names it in ``memory.provider`` (hermes' general loader, and so
        :meth:`load`, never imports one): ``register(ctx)`` with a context that keeps what
        ``register_memory_provider`` receives, else the module's ``MemoryProvider``
        subclass. The result says which provider hermes would get, the tools it offers
        the model, and what hermes' memory manager would trip over."""
        with self.activate():
            folder = Path(directory).expanduser().resolve()
            return _memory_provider.load(folder, self._state.release.version)

    def load_cron_provider(self, directory: str | Path) -> CronProviderLoad:
        """Load a cron scheduler provider folder as hermes' cron discovery does when the
        operator names it in ``cron.provider`` (hermes-agent 0.18.0 on):
        ``register(ctx)`` with a context that keeps what ``register_cron_scheduler``
        receives, else the module's ``CronScheduler`` subclass; and what hermes' cron
        resolver would trip over (it falls back to its built-in ticker)."""
        with self.activate():
            folder = Path(directory).expanduser().resolve()
            return _cron_provider.load(folder, self._state.release.version)

    def load_model_provider(self, directory: str | Path) -> ModelProviderLoad:
        """Import a model-provider plugin directory as hermes' ``providers/`` discovery
        does (hermes' general loader, and so :meth:`load`, records it as enabled and
        never imports it) and return the names of the ``ProviderProfile`` objects it
        registers with ``providers.register_provider`` (hermes' own registry is left as
        it was), or why it registers none."""
        with self.activate():
            return _model_provider.load(Path(directory).expanduser().resolve())

    def _context(self, manifest: Any, data: Mapping[str, Any]) -> HostContext:
        """The ``PluginContext`` of the release the host plays: upstream's where the release
        has the registration ledger (:mod:`kit_devtools.testing._upstream_context`)."""
        if self._state.release.registration_ledger:
            return UpstreamContext(self._state, self.dispatch, upstream_manifest(manifest, data))
        return HostContext(self._state, self.dispatch, manifest)

    # -- tools ------------------------------------------------------------------------------

    def definitions(self, toolsets: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """Each available tool exactly as the model receives it, sorted by name.

        ``{"type": "function", "function": {**schema, "name": name}}`` for every tool of
        ``toolsets`` (all when None) whose ``check_fn`` passes (one that raises fails),
        then hermes' schema sanitizer. Each call returns fresh copies.
        """
        wanted = None if toolsets is None else set(toolsets)
        found: list[dict[str, Any]] = []
        with self.activate():
            for name in sorted(self._state.tools):
                entry = self._state.tools[name]
                if wanted is not None and entry.toolset not in wanted:
                    continue
                if entry.check_fn is not None and not _available(entry.check_fn):
                    continue
                schema: Any = entry.schema
                definition = {"type": "function", "function": {**schema, "name": name}}
                adds = self.release.sanitizer_adds_required
                found.append(_schema.sanitize_definition(definition, adds_required=adds))
        return found

    def model_view(self, toolsets: Sequence[str] | None = None) -> _bridge.ModelView:
        """What the model is sent for these tools with the default configuration: on a
        release with the tool-search bridge on by default (``release.bridge_default``,
        0.20.0 on) the bridge, each tool's one-line entry in ``tool_search``'s description
        and what ``tool_describe`` answers; otherwise the tools themselves
        (:mod:`kit_devtools.testing._bridge` says what is re-done)."""
        found = self.definitions(toolsets)
        toolset_of = {name: entry.toolset for name, entry in self._state.tools.items()}
        return _bridge.model_view(self.release, found, toolset_of)

    def call_tool(
        self,
        name: str,
        args: Any,
        *,
        task_id: str | None = None,
        tool_call_id: str | None = None,
        session_id: str | None = None,
        turn_id: str | None = None,
        api_request_id: str | None = None,
        user_task: str | None = None,
    ) -> Any:
        """One model tool call through ``handle_function_call``'s whole pipeline.

        Returns what hermes would hand back: normally a JSON string; whatever a
        ``tool_execution`` middleware returned, unnormalised, when one short-circuits.
        ``args`` is coerced in place, as hermes does.
        """
        identity = (task_id, session_id, tool_call_id, turn_id, api_request_id)
        context: dict[str, Any] = dict(zip(CALL_IDENTITY_KEYS, identity, strict=True))
        with self.activate():
            return _pipeline.handle_function_call(
                self._state, name, args, context=context, user_task=user_task
            )

    def dispatch(self, name: str, args: Any, **kwargs: Any) -> Any:
        """``registry.dispatch`` alone (what ``ctx.dispatch_tool`` does): the handler with
        ``kwargs``, async handlers run to completion, the result normalised, no hooks."""
        with self.activate():
            return _pipeline.dispatch(self._state, name, args, **kwargs)

    # -- hooks and middleware -------------------------------------------------------------

    def invoke_hook(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """``invoke_hook``: every callback with ``kwargs`` + ``telemetry_schema_version``,
        in registration order; non-None results (an async callback's coroutine is
        returned un-awaited, as hermes does); exceptions become events."""
        with self.activate():
            return _hooks.invoke_hook(self._state, hook_name, **kwargs)

    def apply_llm_request_middleware(
        self, request: dict[str, Any], **context: Any
    ) -> RequestMiddlewareResult:
        """``hermes_cli.middleware.apply_llm_request_middleware``: the rewrite pass."""
        with self.activate():
            return _hooks.apply_request_middleware(
                self._state, "llm_request", "request", request, **context
            )

    def run_llm_execution_middleware(
        self, request: dict[str, Any], next_call: Callable[[Any], Any], **context: Any
    ) -> Any:
        """``run_llm_execution_middleware``: ``llm_execution`` callbacks around ``next_call``."""
        with self.activate():
            if not self._state.middleware.get("llm_execution"):
                return next_call(request)
            original = context.pop("original_request", request)
            return _hooks.run_execution_chain(
                self._state,
                "llm_execution",
                next_call,
                request=request,
                original_request=original,
                **context,
            )

    # -- commands ---------------------------------------------------------------------------

    def run_command(self, name: str, raw_args: str = "") -> Any:
        """Run slash command ``/name raw_args`` as the CLI does: the handler gets the raw
        argument text; an async handler is awaited. KeyError for an unknown name."""
        clean = name.lstrip("/")
        entry = self._state.commands.get(clean)
        if entry is None:
            raise _commands.unknown_command(
                clean, self._state.commands, clean.lower() in BUILTIN_COMMANDS
            )
        with self.activate():
            return _commands.resolve_command_result(entry.handler(raw_args))

    def run_cli(self, argv: Sequence[str]) -> Any:
        """Run ``hermes <argv>`` against the plugins' terminal commands: build the
        argparse tree as hermes does and return ``args.func(args)``."""
        with self.activate():
            return _commands.run_cli(self._state.cli_commands, list(argv))


def _available(check_fn: Callable[[], Any]) -> bool:
    try:
        return bool(check_fn())
    except Exception:
        return False
