"""``check``'s lint: every rule applied to one plugin loaded into the in-memory host."""

from __future__ import annotations

import difflib
import json
import traceback
from collections.abc import Iterable
from pathlib import PurePath
from typing import Any, Final, cast

from kit_core import ErrorCode, ToolSpec, declaration_of
from kit_core._annotations import signature_of
from kit_core._runtime import MISSING_AWAIT_HINT, SYNC_AWAITABLE_HINT
from kit_core.hermes import HostRelease
from kit_devtools.cli._chat_turn import simulate_chat_turn
from kit_devtools.cli._compat_source import (
    absent_member_findings,
    is_own_package,
    own_import_findings,
    source_root,
)
from kit_devtools.cli._cron_rules import cron_provider_findings
from kit_devtools.cli._handler_source import dict_return
from kit_devtools.cli._manifest_rules import MANIFEST_KEYS, manifest_findings
from kit_devtools.cli._probe_args import arguments_for
from kit_devtools.cli._tool_rules import (
    bridge_line_findings,
    handler_findings,
    is_coroutine_function,
    name_findings,
    schema_findings,
    signature_shape,
)
from kit_devtools.cli.findings import Finding
from kit_devtools.cli.rules import finding
from kit_devtools.testing import (
    InMemoryHost,
    LoadedPlugin,
    MemoryProviderLoad,
    ModelProviderLoad,
)
from kit_devtools.testing._cron_provider import CronProviderLoad
from kit_devtools.testing._failure import ManifestNotRead, PluginRefused
from kit_devtools.testing._failure import where as where_raised
from kit_devtools.testing._hooks import SENT_KEYWORDS
from kit_devtools.testing._manifest import (
    has_manifest,
    is_memory_provider_dir,
    registers_memory_provider,
)
from kit_devtools.testing._pipeline import multimodal
from kit_devtools.testing._providers import PROVIDER_KINDS
from kit_devtools.testing._real_hermes import hermes_installed
from kit_devtools.testing.host_names import MODELLED, hermes_top_level

__all__ = [
    "MANIFEST_KEYS",
    "lint_plugin",
    "load_findings",
    "memory_provider_of",
    "model_provider_of",
    "probe_tools",
]

PROBE_SESSION: Final = "hpk-probe"
"""The task and session id of the probe's calls."""
_HOST_ERRORS: Final = ("[TOOL_ERROR]", "Tool execution failed:", "Error executing")
"""How hermes words a tool whose handler raised (``tools/registry.py`` dispatch)."""


def _events(host: InMemoryHost, plugin: str, surface: str) -> list[Any]:
    return [e for e in host.events if e.plugin == plugin and e.surface == surface]


def _raised_in(exc: BaseException, function: str) -> bool:
    return any(frame.name == function for frame in traceback.extract_tb(exc.__traceback__))


def memory_provider_of(host: InMemoryHost, plugin: LoadedPlugin) -> MemoryProviderLoad | None:
    """The memory provider hermes' memory discovery would load from the plugin directory:
    it selects folders by the text test whatever the manifest says (``plugins/memory``
    ``find_provider_dir``), so a plugin of another kind (``kind: standalone``, loaded by the
    general loader too) is also a memory provider when discovery gets one from it, or when
    its ``__init__.py`` calls ``register_memory_provider``. None for any other plugin."""
    if plugin.path is None or not is_memory_provider_dir(plugin.path):
        return None  # nothing loads an exclusive plugin that is no memory provider
    memory = host.load_memory_provider(plugin.path)
    if plugin.kind == "exclusive" or memory.provider is not None:
        return memory
    return memory if registers_memory_provider(plugin.path) else None


def model_provider_of(host: InMemoryHost, plugin: LoadedPlugin) -> ModelProviderLoad | None:
    """The profiles hermes' ``providers/`` discovery would get from a ``model-provider``
    plugin directory (declared, or re-kinded by hermes from its source); None otherwise."""
    if plugin.kind != "model-provider" or plugin.path is None:
        return None
    return host.load_model_provider(plugin.path)


def model_provider_findings(plugin: LoadedPlugin, model: ModelProviderLoad) -> list[Finding]:
    """HPK603 when hermes would get no profile (HPK018 when only hermes is missing)."""
    if model.profiles:
        return []
    missing = _missing_module(plugin, model.exception)
    return [missing or finding("HPK603", f"plugin {plugin.key}", why=model.problem)]


def memory_provider_findings(plugin: LoadedPlugin, memory: MemoryProviderLoad) -> list[Finding]:
    """What hermes' memory discovery and memory manager would trip over."""
    where = f"plugin {plugin.key}"
    if memory.provider is None:
        missing = _missing_module(plugin, memory.exception)
        return [missing or finding("HPK601", where, why=memory.how)]
    found = [
        finding("HPK602", where, name=memory.name or plugin.key, problem=problem)
        for problem in memory.problems
    ]
    for schema in memory.tools:
        found += schema_findings(str(schema["name"]), schema)
    return found


def load_findings(plugin: LoadedPlugin) -> list[Finding]:
    """Why hermes' general loader does not load the plugin, if it does not, and what in
    its source stops hermes importing it (HPK504: an absolute import of its own package,
    found also where it loads here, as in its own tests). ``check`` and ``compat`` both
    diagnose a load with it: an import failure that HPK504 explains is that finding, not
    HPK003; a skill path register_skill fails on is HPK503 (a str) or HPK401."""
    own = own_import_findings(plugin)
    return _load_failure(plugin, explained=bool(own)) + own


def _load_failure(plugin: LoadedPlugin, *, explained: bool) -> list[Finding]:
    """Why the loader does not load the plugin (none when HPK504 ``explained`` an import
    failure of the plugin's own package)."""
    where = f"plugin {plugin.key}"
    if plugin.error is None:
        return []
    exc = plugin.exception
    if isinstance(exc, ManifestNotRead):
        return [finding("HPK020", where, file=exc.file, why=exc.why, fix=exc.fix)]
    if isinstance(exc, PluginRefused):
        return [finding("HPK009", where, reason=exc.reason, fix=exc.fix)]
    if plugin.error == "no register() function" or exc is None:
        return [finding("HPK002", where)]
    if _raised_in(exc, "register_skill"):
        return [_skill_failure(plugin, exc)]
    failed_import = _import_error(exc)
    if explained and failed_import is not None and is_own_package(plugin, failed_import.name or ""):
        return []
    missing = _missing_module(plugin, exc)
    if missing is not None:
        return [missing]
    error = f"{type(exc).__name__}: {exc} (at {where_raised(exc)})"
    if not _raised_in(exc, "register"):  # it failed while the plugin was being imported
        return [finding("HPK003", where, error=error)]
    return [finding("HPK001", where, error=error)]


def _skill_failure(plugin: LoadedPlugin, exc: BaseException) -> Finding:
    """HPK503 for a path register_skill could not call ``exists()`` on (a str), else
    HPK401 for the path it refused; both read from the call that raised."""
    called = _call_of(exc, "register_skill")
    name, path = called.get("name", "?"), called.get("path")
    where = f"skill {name}" if isinstance(name, str) else f"plugin {plugin.key}"
    if isinstance(exc, AttributeError) and path is not None and not isinstance(path, PurePath):
        return finding("HPK503", where, type=type(path).__name__)
    shown = path if path is not None else getattr(exc, "filename", None) or "?"
    return finding("HPK401", where, path=shown, why=f"{type(exc).__name__}: {exc}")


def _call_of(exc: BaseException, function: str) -> dict[str, Any]:
    """The arguments of the innermost frame of ``function`` the exception went through."""
    found: dict[str, Any] = {}
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == function:
            found = dict(tb.tb_frame.f_locals)
        tb = tb.tb_next
    return found


def _import_error(failure: BaseException | None) -> ImportError | None:
    """The ImportError the failure is, or that caused it."""
    exc = failure
    while exc is not None and not isinstance(exc, ImportError):
        exc = exc.__cause__ or exc.__context__
    return exc


def _missing_module(plugin: LoadedPlugin, failure: BaseException | None) -> Finding | None:
    """HPK018 when the plugin failed on a hermes module that is absent only because
    hermes-agent is not installed here (in hermes that module is there)."""
    exc = _import_error(failure)
    if exc is None or not exc.name or hermes_installed():
        return None
    name, text = exc.name, f"{type(exc).__name__}: {exc}"
    if name.partition(".")[0] not in hermes_top_level():
        return None
    return finding("HPK018", f"plugin {plugin.key}", module=name, error=text)


def _tool_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found: list[Finding] = []
    refused = {e.name: e for e in _events(host, plugin.name, "tool")}
    # from 0.20.1 a refused register_tool returns None and is not credited to the plugin
    # (``PluginContext.register_tool``, 0.21.3 hermes_cli/plugins.py): only the event says so
    found += [
        finding("HPK116", f"tool {name}", message=event.message)
        for name, event in refused.items()
        if name not in plugin.tools
    ]
    for name in plugin.tools:
        entry = host.tools.get(name)
        if entry is None or entry.plugin != plugin.name:
            message = refused[name].message if name in refused else "not registered"
            found.append(finding("HPK116", f"tool {name}", message=message))
            continue
        found += name_findings(name, plugin.key, entry.toolset, host.release)
        found += schema_findings(name, entry.schema)
        found += bridge_line_findings(name, entry.schema, host.release)
        found += handler_findings(
            name,
            entry.handler,
            entry.is_async,
            host.release.tool_keywords,
            narrows=host.release.narrows_handler_kwargs,
        )
    return found


def _command_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found = [
        finding("HPK202", f"command {e.name}", message=e.message)
        for e in _events(host, plugin.name, "command")
    ]
    for name in plugin.commands:
        entry = host.commands[name]
        if "_" in name:
            suggestion = "/" + name.replace("_", "-")
            found.append(finding("HPK201", f"command {name}", name=name, suggestion=suggestion))
        if signature_shape(entry.handler) == (False, False):
            found.append(finding("HPK203", f"command {name}", what="raw argument text"))
    for name in plugin.cli_commands:
        entry = host.cli_commands[name]
        where = f"CLI command {name}"
        if name in MODELLED.cli_commands:
            found.append(finding("HPK204", where, name=name))
        if entry.setup_fn is None:
            found.append(finding("HPK205", where))
        if entry.handler_fn is not None and signature_shape(entry.handler_fn) == (False, False):
            found.append(finding("HPK203", where, what="parsed argparse.Namespace"))
    return found


def _provision_fix(kind: str) -> str:
    """What hermes' registry of ``kind`` takes, for HPK604's fix."""
    if kind == "context_engine":
        return "agent.context_engine.ContextEngine; hermes takes one context engine"
    _, module, base, _ = PROVIDER_KINDS[kind]
    subclass = f"{module}.{base}"
    return {
        "tts": f"{subclass}, with a name no built-in TTS provider has",
        "transcription": f"{subclass}, with a name no built-in speech-to-text provider has",
        "dashboard_auth": f"{subclass}; set name and display_name, implement every abstract"
        " method (assert_protocol_compliance(YourClass) in a test says so) and give each"
        " provider a name of its own",
        "secret_source": f"{subclass}, with a lowercase name of letters, digits and '_',"
        " api_version = SECRET_SOURCE_API_VERSION, shape 'mapped' or 'bulk', and a name and"
        " scheme no other source has",
    }.get(kind, subclass)


def _provision_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    """HPK604 for each provider (or context engine) hermes ignores with a WARNING."""
    return [
        finding("HPK604", f"{e.surface} {e.name}".rstrip(), kind=e.surface, message=e.message,
                fix=_provision_fix(e.surface))
        for e in host.events
        if e.plugin == plugin.name and e.level == "WARNING"
        and (e.surface in PROVIDER_KINDS or e.surface == "context_engine")
    ]  # fmt: skip


def _unknown_name_hint(name: str, known: Iterable[str]) -> str:
    names = sorted(known)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"one of {', '.join(names)}"


def _callback_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found: list[Finding] = []
    known = {"hook": host.release.hooks, "middleware": host.release.middleware}
    for surface, table, names in (
        ("hook", host.hooks, plugin.hooks),
        ("middleware", host.middleware, plugin.middleware),
    ):
        found.extend(
            finding("HPK303", f"{surface} {e.name}", surface=surface, name=e.name,
                    known=_unknown_name_hint(e.name, known[surface]))
            for e in _events(host, plugin.name, surface)
        )  # fmt: skip
        for name in sorted(set(names)):
            for entry in table.get(name, ()):
                if entry.plugin == plugin.name:
                    found += _callback_shape(surface, name, entry.callback, host.release)
    return found


def _fails_on_keywords(surface: str, name: str, callback: object, release: HostRelease) -> bool:
    """Whether the release's call of the callback raises TypeError (which hermes logs, so
    the callback never runs). Middleware, and a hook before 0.20.1, get every keyword: a
    callback without ``**kwargs`` fails (0.19.0 ``invoke_hook``, ``callback(**kwargs)``).
    A release that narrows hook keywords (``narrows_hook_kwargs``: ``_invoke_hook_callback``,
    ``hermes_cli/plugins.py`` 0.20.1 L5043-5068, ``_hook_callback_kwargs``,
    ``hermes_cli/plugins_dispatch.py`` 0.22.2 L185-198) passes such a callback only the
    keywords it declares, so it fails only when it requires a positional-only parameter or
    one the hook never sends (known for the tool-call hooks, :data:`SENT_KEYWORDS`)."""
    shape = signature_shape(callback)
    if shape is None or shape[1]:
        return False
    if surface != "hook" or not release.narrows_hook_kwargs:
        return True
    sent = SENT_KEYWORDS.get(name)
    parameters = signature_of(cast("Any", callback)).parameters.values()
    for parameter in parameters:
        if parameter.default is not parameter.empty or parameter.kind in (
            parameter.VAR_POSITIONAL,
            parameter.VAR_KEYWORD,
        ):
            continue
        if parameter.kind is parameter.POSITIONAL_ONLY:
            return True
        if sent is not None and parameter.name not in sent:
            return True
    return False


def _callback_shape(
    surface: str, name: str, callback: object, release: HostRelease
) -> list[Finding]:
    where = f"{surface} {name}"
    found: list[Finding] = []
    if _fails_on_keywords(surface, name, callback, release):
        found.append(finding("HPK301", where))
    # upstream awaits an async def hook (_invoke_hook_callback, hermes_cli/plugins_dispatch.py
    # L198-207 @006a5aeb);
    # middleware stays synchronous on every release
    if is_coroutine_function(callback) and not (surface == "hook" and release.awaits_hooks):
        found.append(finding("HPK302", where))
    return found


def _skill_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    found: list[Finding] = []
    for qualified in plugin.skills:
        entry = host.skills.get(qualified)
        path = getattr(entry, "path", None)
        if path is None:
            continue
        if path.is_dir():
            why = "it is a directory; hermes reads the file it is given"
        elif not path.is_file():
            why = "the file is missing"
        else:
            continue
        found.append(finding("HPK401", f"skill {qualified}", path=path, why=why))
    return found


def lint_plugin(
    host: InMemoryHost,
    plugin: LoadedPlugin,
    memory: MemoryProviderLoad | None = None,
    model: ModelProviderLoad | None = None,
    cron: CronProviderLoad | None = None,
) -> list[Finding]:
    """Every finding for ``plugin`` as the in-memory ``host`` loaded it; for a memory or
    model provider, what its discovery gave (``memory``, ``model``: from
    :func:`memory_provider_of` and :func:`model_provider_of`) replaces the general
    loader's verdict, which records it without loading it. A plugin the general loader
    loads and memory discovery takes too (``kind: standalone``) is judged on both; so is a
    cron scheduler provider (``cron``: from :func:`~._cron_rules.cron_provider_of`)."""
    general = model is None and (memory is None or plugin.kind != "exclusive")
    if cron is not None and plugin.path is not None and not has_manifest(plugin.path):
        general = False  # cron discovery alone reads a folder without plugin.yaml
    found = load_findings(plugin) if general else []  # a general plugin, a provider also
    if memory is not None:
        found += memory_provider_findings(plugin, memory)
    if model is not None:
        found += model_provider_findings(plugin, model)
    if cron is not None:  # from a folder the general loader loads too, if it has a manifest
        found += cron_provider_findings(plugin, cron)
    found += manifest_findings(plugin, host.release)
    found += _skill_findings(host, plugin)
    found += _tool_findings(host, plugin)
    found += _command_findings(host, plugin)
    found += _callback_findings(host, plugin)
    found += _provision_findings(host, plugin)
    root = source_root(plugin)
    if root is not None and general:  # a provider's register() alone gets its
        # discovery's collector, not a PluginContext
        found += absent_member_findings(root, host.release, plugin.exception)
    return found


def probe_tools(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    """Call each of the plugin's tools through the host pipeline: with empty arguments,
    then with arguments built from its schema (what a model could send), in a simulated
    chat turn (a media tool delivers to its chat, recorded)."""
    found: list[Finding] = []
    simulate_chat_turn(host, PROBE_SESSION)
    for name in plugin.tools:
        entry = host.tools.get(name)
        if entry is None or entry.plugin != plugin.name:
            continue
        spec = declaration_of(entry.handler, ToolSpec)
        examples = spec.examples if spec is not None else None
        built = arguments_for(entry.schema.get("parameters"), examples)
        calls: list[tuple[str, dict[str, Any]]] = [("empty arguments", {})]
        if built:
            calls.append((f"arguments built from its schema {json.dumps(built)}", built))
        for called_with, args in calls:
            problem = _probe_problem(host, name, called_with, args)
            if problem is not None:
                found.append(problem)
                break
    return found


_RAISED: Final = (ErrorCode.HANDLER_ERROR, ErrorCode.RESULT_TOO_LARGE)
"""The error codes of a handler that raised (an image too large for hermes included)."""


def _probe_problem(
    host: InMemoryHost, name: str, called_with: str, args: dict[str, Any]
) -> Finding | None:
    out = host.call_tool(name, args, task_id=PROBE_SESSION, session_id=PROBE_SESSION)
    where = f"tool {name}"
    if not isinstance(out, str):
        if multimodal(out) is not None:
            return None  # hermes' multimodal envelope: a valid result
        return finding("HPK132", where, called_with=called_with, kind=f"a {type(out).__name__}")
    try:
        data = json.loads(out)
    except ValueError:
        return None  # a plain string is a valid tool result
    if not isinstance(data, dict):
        return None
    reply = cast("dict[str, Any]", data)
    unawaited = _unawaited(host, name, reply)
    if unawaited is not None:
        return None if unawaited == "HPK122" else finding(unawaited, where, called_with=called_with)
    if reply.get("error_type") == "tool_result_contract":
        dict_result = reply.get("result_type") == "dict"
        if dict_result and dict_return(host.tools[name].handler) is not None:
            return None  # HPK125 names the return statement
        kind = f"a {reply.get('result_type')}"
        return finding("HPK132", where, called_with=called_with, kind=kind)
    error = str(reply.get("error", ""))
    if error.startswith(_HOST_ERRORS):  # the exception escaped to hermes
        return finding("HPK131", where, called_with=called_with, error=error)
    if reply.get("error_code") in _RAISED:  # the kit caught it
        return finding("HPK133", where, called_with=called_with, error=error)
    return None


def _unawaited(host: InMemoryHost, name: str, reply: dict[str, Any]) -> str | None:
    """The rule of a call whose handler gave back an awaitable nothing awaits: HPK134 for a
    plain ``def`` handler (it should be ``async def``, or await what it calls), HPK135 for
    an ``async def`` one (an ``await`` is missing), HPK122 for an ``async def`` handler
    registered without ``is_async`` (the static rule says it); None for any other reply.
    A kit tool says which in its ``result_not_serializable`` envelope; hermes' result
    contract names the coroutine of a hand-written handler."""
    if reply.get("error_code") == ErrorCode.RESULT_NOT_SERIALIZABLE:
        error = str(reply.get("error", ""))
        if MISSING_AWAIT_HINT in error:
            return "HPK135"
        return "HPK134" if SYNC_AWAITABLE_HINT in error else None
    if reply.get("error_type") != "tool_result_contract" or reply.get("result_type") != "coroutine":
        return None
    entry = host.tools[name]
    if not is_coroutine_function(entry.handler):
        return "HPK134"
    return "HPK135" if entry.is_async else "HPK122"
