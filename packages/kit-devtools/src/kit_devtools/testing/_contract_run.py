"""Running a provider suite on a host: the provider found from what the author points at
(an instance, a class, a plugin directory), driven where it lives, and reported.

On the in-memory host the driver runs in this process on the provider the kit's host
recorded (``InMemoryHost.provisions``), with the release the host plays; on a
:class:`~kit_devtools.testing.RealHost` hermes loads the plugin directory and the driver
runs in hermes' worker on the provider hermes' own registry holds
(``RealHost.drive_providers``), so the calls and their verdicts are the release's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from kit_devtools.testing._contract_speech import BASES as SPEECH_BASES
from kit_devtools.testing.contracts import ContractReport, Violation
from kit_devtools.testing.host import InMemoryHost
from kit_devtools.testing.real import RealHost, RealPlugin

Driver = Callable[[Any, str, frozenset[str]], dict[str, Any]]
"""A kind's driver: ``drive(provider, release, built-in names) -> result``."""

PROVISION: Final = {
    "context-engine": "context_engine",
    "tts": "tts",
    "transcription": "transcription",
}
"""Suite kind -> the key the in-memory host records its registrations under."""

REGISTERS: Final = {
    "context-engine": ("a context engine", "ctx.register_context_engine(engine)"),
    "tts": ("a TTS provider", "register_tts_provider(provider)"),
    "transcription": ("a transcription provider", "register_transcription_provider(provider)"),
    "model-provider": (
        "a ProviderProfile",
        "providers.register_provider(profile) while the folder imports",
    ),
}
"""Suite kind -> what a plugin of that kind registers, in a rule's words, and how."""


def run_suite(
    kind: str, target: Any, host: Any, drive: Driver, options: Mapping[str, Any]
) -> ContractReport:
    """Drive the provider of ``kind`` that ``target`` names on ``host`` and report."""
    if isinstance(host, RealHost):
        return _on_real(kind, target, host, options)
    memory = host if isinstance(host, InMemoryHost) else InMemoryHost()
    release = memory.release
    report = ContractReport(kind, _label(target), "memory")
    base = ".".join(SPEECH_BASES[kind][:2]) if kind in SPEECH_BASES else None
    if base is not None and base not in release.functions:
        report.absent = f"hermes {release.version} has no {base} (no {kind} providers)"
        return report
    providers = _providers(kind, target, memory, report)
    with memory.activate():  # hermes' modules as the plugin imported them, the host's home
        builtins = _builtins(kind, memory)
        for provider in providers:
            _add(report, drive(provider, release.version, builtins), release.version)
    return report


def _builtins(kind: str, host: InMemoryHost) -> frozenset[str]:
    """The names a provider of ``kind`` may not take: the registry's built-ins of the
    release the host plays, or for model providers the profiles of the hermes installed
    here (the host model does not hold them)."""
    if kind == "model-provider":
        from kit_devtools.testing._contract_model import bundled_names

        return bundled_names()
    return frozenset(host.release.provider_builtins.get(PROVISION.get(kind, kind), ()))


def _label(target: Any) -> str:
    if isinstance(target, str | Path):
        return str(target)
    if isinstance(target, type):
        return target.__name__
    return type(target).__name__


def _providers(kind: str, target: Any, host: InMemoryHost, report: ContractReport) -> list[Any]:
    """The providers ``target`` gives hermes (none, with the violation, when it gives none)."""
    version = host.release.version
    if kind == "model-provider" and isinstance(target, str | Path):
        profiles = host.load_model_provider(target)
        if profiles.problem is not None:
            report.violations.append(_none_kept(kind, [profiles.problem], version))
        return list(profiles.found)
    if isinstance(target, str | Path):
        try:
            loaded = host.load(target)
        except LookupError as exc:  # names nothing hermes discovers, as a RealHost says
            report.violations.append(_not_loaded(f"hermes did not discover it: {exc}", version))
            return []
        if not loaded.enabled:
            report.violations.append(_not_loaded(str(loaded.error), version))
            return []
        found = [provider for _, provider in host.provisions.get(PROVISION[kind], {}).values()]
        if not found:
            warnings = [e.message for e in host.events if e.level == "WARNING"]
            report.violations.append(_none_kept(kind, warnings, version))
        return found
    if isinstance(target, type):
        try:
            return [target()]
        except TypeError as exc:
            report.violations.append(
                Violation(
                    "class",
                    "must implement every abstract member of hermes' base",
                    f"{target.__name__}() raised TypeError: {exc}",
                    "implement the members the message names",
                    (version,),
                )
            )
            return []
    return [target]


def _not_loaded(error: str, version: str) -> Violation:
    return Violation(
        "register", "hermes must load the plugin", error, "fix what the error names", (version,)
    )


def _none_kept(kind: str, warnings: list[str], version: str) -> Violation:
    said = f" (hermes: {warnings[-1]})" if warnings else ""
    what, how = REGISTERS[kind]
    return Violation(
        "register",
        f"must register {what} hermes keeps",
        f"hermes holds none from this plugin{said}",
        f"call {how}, with a provider hermes accepts",
        (version,),
    )


def _add(report: ContractReport, result: Mapping[str, Any], version: str) -> None:
    report.checked.extend(str(m) for m in result.get("checked", ()))
    report.absent = str(result.get("absent", "") or report.absent)
    for found in result.get("violations", ()):
        report.violations.append(
            Violation(
                str(found["member"]),
                str(found["rule"]),
                str(found["detail"]),
                str(found["fix"]),
                (version,),
            )
        )


def _on_real(kind: str, target: Any, host: RealHost, options: Mapping[str, Any]) -> ContractReport:
    if not isinstance(target, str | Path):
        raise TypeError(
            f"a RealHost runs the {kind} suite on a plugin directory or an installed entry"
            f" point's name, not on {type(target).__name__} objects: pass the directory"
            " whose register(ctx) registers the provider"
        )
    loaded, folder = _loaded_on_real(target, host)
    options = {"folder": folder, **options}
    version = host.version or "?"
    report = ContractReport(kind, str(target), f"hermes {version}")
    results = host.drive_providers(kind, loaded.key if loaded else "", **options)
    absent = [str(r["absent"]) for r in results if r.get("absent") and not r.get("provider")]
    if absent:
        report.absent = absent[0]
        return report
    if kind != "model-provider" and (loaded is None or not loaded.enabled):
        # a model provider is imported by providers/ discovery: the general loader, which
        # needs a plugin.yaml and never imports one, plays no part (_model_provider)
        why = loaded.error if loaded is not None else "hermes did not discover it"
        report.violations.append(_not_loaded(str(why), version))
        return report
    if not results:
        tail = host.stderr_tail(8).splitlines()
        report.violations.append(_none_kept(kind, [t for t in tail if "WARNING" in t], version))
    for result in results:
        _add(report, result, version)
    return report


def _loaded_on_real(target: str | Path, host: RealHost) -> tuple[RealPlugin | None, str]:
    """What hermes made of ``target`` (None when it did not discover it) and the folder
    it installed: a directory is installed as an operator installs one, and a name that
    is no path is an installed entry point (``hermes_agent.plugins``), enabled by name
    as hermes' plugin manager loads every published plugin."""
    if isinstance(target, str) and not Path(target).exists():
        if target not in host.plugins:
            host.load_all([], entry_points=[target])
        return host.plugins.get(target), ""
    directory = Path(target).resolve()
    loaded = next((p for p in host.plugins.values() if p.path == directory), None)
    if loaded is None:  # not loaded yet: hermes starts again with it
        loaded = host.load_all([directory]).get(directory)
    return loaded, directory.name
