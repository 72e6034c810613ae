"""``check --probe`` on a provider plugin: each provider the plugin gives hermes (a context
engine, TTS or transcription provider, model-provider profile) run through its contract
suite (:mod:`kit_devtools.testing.contracts`) on the in-memory host that loaded it, every
violation a finding (HPK621-HPK624) naming the release it applies to."""

from __future__ import annotations

from typing import Any, Final

from kit_devtools.cli.findings import E, Finding, Rule, declare, finding
from kit_devtools.testing import InMemoryHost, LoadedPlugin, ModelProviderLoad
from kit_devtools.testing._contract_run import PROVISION
from kit_devtools.testing.contracts import check_provider

__all__ = ["provider_contract_findings"]

declare("provider contracts", {
    "HPK621": Rule(E, "the context engine {name!r} breaks its contract on hermes {releases}:"
                   " {member}: {broken}: {detail}", "{fix}",
                   "the agent drives the engine context.engine names: its copy, update_model,"
                   " get_tool_schemas, on_session_start, update_from_response,"
                   " should_compress, compress, handle_tool_call, get_status, on_session_end"
                   " (agent.agent_init.init_agent,"
                   " agent.conversation_compression._supported_compression_kwargs,"
                   " agent.conversation_compression.compress_context,"
                   " agent.tool_executor.execute_tool_calls_sequential)"),
    "HPK622": Rule(E, "the TTS provider {name!r} breaks its contract on hermes {releases}:"
                   " {member}: {broken}: {detail}", "{fix}",
                   "text_to_speech dispatches to the provider tts.provider names:"
                   " synthesize(text, output_path, voice=, model=, speed=, format=), then"
                   " needs a non-empty file (tools.tts_tool._dispatch_to_plugin_provider,"
                   " tools.tts_tool.text_to_speech_tool)"),
    "HPK623": Rule(E, "the transcription provider {name!r} breaks its contract on hermes"
                   " {releases}: {member}: {broken}: {detail}", "{fix}",
                   "transcribe_audio dispatches to the provider stt.provider names:"
                   " is_available(), transcribe(file_path, model=, language=), the envelope"
                   " dict read (tools.transcription_tools._dispatch_to_plugin_provider)"),
    "HPK624": Rule(E, "the model provider {name!r} breaks its contract on hermes {releases}:"
                   " {member}: {broken}: {detail}", "{fix}",
                   "hermes' transports read the ProviderProfile's fields and call its hooks"
                   " (providers.base.ProviderProfile; providers.register_provider,"
                   " providers.get_provider_profile)"),
})  # fmt: skip

RULE_OF: Final = {
    "context-engine": "HPK621",
    "tts": "HPK622",
    "transcription": "HPK623",
    "model-provider": "HPK624",
}


def provider_contract_findings(
    host: InMemoryHost, plugin: LoadedPlugin, model: ModelProviderLoad | None
) -> list[Finding]:
    """The contract violations of every provider ``plugin`` registered on ``host`` (and of
    the profiles ``model``, hermes' ``providers/`` discovery's load of it)."""
    found: list[Finding] = []
    for kind, provider in _providers(host, plugin, model):
        report = check_provider(provider, kind=kind, host=host)
        name = str(getattr(provider, "name", "") or type(provider).__name__)
        releases = host.release.version
        found.extend(
            finding(
                RULE_OF[kind],
                f"plugin {plugin.key}",
                name=name,
                releases=", ".join(violation.releases) or releases,
                member=violation.member,
                broken=violation.rule,
                detail=violation.detail,
                fix=violation.fix,
            )
            for violation in report.violations
        )
    return found


def _providers(
    host: InMemoryHost, plugin: LoadedPlugin, model: ModelProviderLoad | None
) -> list[tuple[str, Any]]:
    owners = {plugin.name, plugin.key}
    found: list[tuple[str, Any]] = []
    for kind, key in PROVISION.items():
        held = host.provisions.get(key, {})
        found += [(kind, provider) for owner, provider in held.values() if owner in owners]
    if model is not None:
        found += [("model-provider", profile) for profile in model.found]
    return found
