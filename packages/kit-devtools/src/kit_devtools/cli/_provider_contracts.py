"""``check --probe`` on a provider plugin: each provider the plugin gives hermes (a context
engine, TTS or transcription provider, model-provider profile) run through its contract
suite (:mod:`kit_devtools.testing.contracts`) on the in-memory host that loaded it, every
violation a finding (HPK621-HPK624) naming the release it applies to."""

from __future__ import annotations

from typing import Any, Final

from kit_devtools.cli.findings import Finding
from kit_devtools.cli.rules import finding
from kit_devtools.testing import InMemoryHost, LoadedPlugin, ModelProviderLoad
from kit_devtools.testing._contract_run import PROVISION
from kit_devtools.testing.contracts import check_provider

__all__ = ["provider_contract_findings"]

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
