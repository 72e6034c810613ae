"""The rules of the providers hermes discovers outside its general loader: a memory
provider its memory discovery loads (HPK601, HPK602), a model provider its ``providers/``
discovery gets no profile from (HPK603), and a provider or context engine hermes ignores
with a warning (HPK604)."""

from __future__ import annotations

from kit_devtools.cli._load_rules import missing_module
from kit_devtools.cli._tool_rules import schema_findings
from kit_devtools.cli.findings import E, Finding, Rule, declare, finding
from kit_devtools.testing import (
    InMemoryHost,
    LoadedPlugin,
    MemoryProviderLoad,
    ModelProviderLoad,
)
from kit_devtools.testing._manifest import is_memory_provider_dir, registers_memory_provider
from kit_devtools.testing._providers import PROVIDER_KINDS

__all__ = [
    "memory_provider_findings",
    "memory_provider_of",
    "model_provider_findings",
    "model_provider_of",
    "provision_findings",
]

declare("memory providers", {
    "HPK601": Rule(E, "hermes takes the plugin for a memory provider (its __init__.py"
                   " mentions MemoryProvider or register_memory_provider), but it gives"
                   " hermes no provider: {why}", "a memory provider calls"
                   " ctx.register_memory_provider(provider) in register(), with an instance"
                   " of agent.memory_provider.MemoryProvider; a general plugin adds 'kind:"
                   " standalone' to plugin.yaml",
                   "plugins.memory._load_provider_from_dir: register(collector), else a"
                   " MemoryProvider subclass; with neither, load_memory_provider returns None"
                   " and 'memory.provider' activates nothing, while the general loader skips"
                   " the plugin as exclusive"
                   " (hermes_cli.plugins.PluginManager._discover_and_load_inner)"),
    "HPK602": Rule(E, "the memory provider {name!r} {problem}",
                   "implement it as agent.memory_provider.MemoryProvider declares",
                   "the memory manager calls the provider's name, is_available(),"
                   " get_tool_schemas() and handle_tool_call()"
                   " (agent.memory_manager.MemoryManager);"
                   " a missing or failing one breaks memory for the whole agent"),
})  # fmt: skip

declare("model providers", {
    "HPK603": Rule(E, "hermes takes the plugin for a model provider (plugin.yaml's kind, or"
                   " its __init__.py mentions register_provider and ProviderProfile), and its"
                   " providers/ discovery gets no profile from it: {why}",
                   "register the profile while the module imports:"
                   " providers.register_provider(ProviderProfile(...)), and install it in"
                   " $HERMES_HOME/plugins/model-providers/<name>, the one place hermes imports"
                   " it from; a general plugin adds 'kind: standalone' to plugin.yaml",
                   "hermes' general loader records a model-provider plugin as enabled and"
                   " never imports it (hermes_cli.plugins.PluginManager._discover_and_load_inner);"
                   " providers._discover_providers imports each directory under"
                   " $HERMES_HOME/plugins/model-providers (providers._import_plugin_dir) and"
                   " keeps what it registers"),
})  # fmt: skip


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
    missing = missing_module(plugin, model.exception)
    return [missing or finding("HPK603", f"plugin {plugin.key}", why=model.problem)]


def memory_provider_findings(plugin: LoadedPlugin, memory: MemoryProviderLoad) -> list[Finding]:
    """What hermes' memory discovery and memory manager would trip over."""
    where = f"plugin {plugin.key}"
    if memory.provider is None:
        missing = missing_module(plugin, memory.exception)
        return [missing or finding("HPK601", where, why=memory.how)]
    found = [
        finding("HPK602", where, name=memory.name or plugin.key, problem=problem)
        for problem in memory.problems
    ]
    for schema in memory.tools:
        found += schema_findings(str(schema["name"]), schema)
    return found


declare("providers hermes ignores", {
    "HPK604": Rule(E, "hermes ignores the {kind} registration: {message}",
                   "register an instance of hermes' base class for the kind that its registry"
                   " takes: {fix}",
                   "PluginContext's register_*_provider, register_secret_source and"
                   " register_context_engine log a WARNING and register nothing"
                   " (hermes_cli.plugins.PluginContext): a provider of the wrong type; a TTS"
                   " or speech-to-text name among the built-ins"
                   " (agent.tts_registry.register_provider,"
                   " agent.transcription_registry.register_provider); a dashboard-auth"
                   " provider failing assert_protocol_compliance or already registered, the"
                   " registry's error caught"
                   " (hermes_cli.plugins.PluginContext.register_dashboard_auth_provider,"
                   " hermes_cli.dashboard_auth.registry.register_provider); a secret source"
                   " register_source rejects (agent.secret_sources.registry.register_source)"),
})  # fmt: skip


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


def provision_findings(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    """HPK604 for each provider (or context engine) hermes ignores with a WARNING."""
    return [
        finding("HPK604", f"{e.surface} {e.name}".rstrip(), kind=e.surface, message=e.message,
                fix=_provision_fix(e.surface))
        for e in host.events
        if e.plugin == plugin.name and e.level == "WARNING"
        and (e.surface in PROVIDER_KINDS or e.surface == "context_engine")
    ]  # fmt: skip
