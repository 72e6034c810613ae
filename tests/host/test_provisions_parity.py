"""The in-memory host's provider, platform, Slack and auxiliary-task registrations answer
as hermes-agent 0.19.0's ``PluginContext`` does (marked ``host``): the same registrations
are recorded, the same ones ignored with a warning, the same ones refused with the same
error. Each case runs once through a real ``PluginContext`` and once through the
in-memory host's context."""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from kit_core.hermes import HostRelease, newest_registry_release, registry_releases
from kit_devtools.cli import main
from kit_devtools.testing import HostContext, InMemoryHost, PluginManifest
from kit_devtools.testing.context import gated

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost


def web_provider(name: str) -> Any:
    from agent.web_search_provider import WebSearchProvider

    class Provider(WebSearchProvider):
        @property
        def name(self) -> str:
            return name

        def is_available(self) -> bool:
            return True

    return Provider()


def tts_provider(name: str) -> Any:
    from agent.tts_provider import TTSProvider

    class Speaker(TTSProvider):
        @property
        def name(self) -> str:
            return name

        def synthesize(self, text: str, output_path: str, **extra: Any) -> str:
            return output_path

    return Speaker()


def transcription_provider(name: str) -> Any:
    from agent.transcription_provider import TranscriptionProvider

    class Listener(TranscriptionProvider):
        @property
        def name(self) -> str:
            return name

        def transcribe(self, file_path: str, **extra: Any) -> dict[str, Any]:
            return {"success": True, "transcript": ""}

    return Listener()


def secret_source(name: str, **fields: Any) -> Any:
    from agent.secret_sources.base import FetchResult, SecretSource

    class Vault(SecretSource):
        def fetch(self, cfg: dict[str, Any], home_path: Path) -> FetchResult:
            return FetchResult()

    source = Vault()
    source.name = name
    for field, value in fields.items():
        setattr(source, field, value)
    return source


def dashboard_provider(name: str, *, compliant: bool = True) -> Any:
    from hermes_cli.dashboard_auth import DashboardAuthProvider

    class Gate(DashboardAuthProvider):
        display_name = "Kit gate" if compliant else ""

        def start_login(self, *, redirect_uri: str) -> Any:
            raise NotImplementedError

        def complete_login(
            self, *, code: str, state: str, code_verifier: str, redirect_uri: str
        ) -> Any:
            raise NotImplementedError

        def verify_session(self, *, access_token: str) -> Any:
            return None

        def refresh_session(self, *, refresh_token: str) -> Any:
            raise NotImplementedError

        def revoke_session(self, *, refresh_token: str) -> None:
            return None

    Gate.name = name
    return Gate()


def twice(register: Callable[[Any], Any], make: Callable[[], Any]) -> Any:
    register(make())
    return register(make())


CASES: dict[str, Callable[[Any], Any]] = {
    "a web provider": lambda ctx: ctx.register_web_search_provider(web_provider("kitp_web")),
    "a web provider of the wrong type": lambda ctx: ctx.register_web_search_provider(object()),
    "a web provider without a name": lambda ctx: ctx.register_web_search_provider(web_provider("")),
    "an image provider of the wrong type": lambda ctx: ctx.register_image_gen_provider("x"),
    "a TTS provider": lambda ctx: ctx.register_tts_provider(tts_provider("Kitp_Speaker ")),
    "a TTS provider registered twice": lambda ctx: twice(
        ctx.register_tts_provider, lambda: tts_provider("kitp_speaker_again")
    ),
    "a TTS provider with a built-in name": lambda ctx: ctx.register_tts_provider(
        tts_provider("edge")
    ),
    "a TTS provider with a built-in name, spaced and capitalised": lambda ctx: (
        ctx.register_tts_provider(tts_provider(" Edge "))
    ),
    "a TTS provider without a name": lambda ctx: ctx.register_tts_provider(tts_provider(" ")),
    "a transcription provider": lambda ctx: ctx.register_transcription_provider(
        transcription_provider(" Kitp_Listener")
    ),
    "a transcription provider with a built-in name": lambda ctx: (
        ctx.register_transcription_provider(transcription_provider("groq"))
    ),
    "a secret source": lambda ctx: ctx.register_secret_source(
        secret_source("kitp_vault", scheme="kitpvault")
    ),
    "a secret source with a bad name": lambda ctx: ctx.register_secret_source(
        secret_source("Kitp-Vault")
    ),
    "a secret source of another API version": lambda ctx: ctx.register_secret_source(
        secret_source("kitp_vault_v2", api_version=2)
    ),
    "a secret source of a bad shape": lambda ctx: ctx.register_secret_source(
        secret_source("kitp_vault_shape", shape="tree")
    ),
    "a secret source registered twice": lambda ctx: twice(
        ctx.register_secret_source, lambda: secret_source("kitp_vault_twice")
    ),
    "a secret source with a taken scheme": lambda ctx: (
        ctx.register_secret_source(secret_source("kitp_vault_first", scheme="kitpshared")),
        ctx.register_secret_source(secret_source("kitp_vault_second", scheme="kitpshared")),
    ),
    "a secret source of the wrong type": lambda ctx: ctx.register_secret_source(object()),
    "a dashboard-auth provider": lambda ctx: ctx.register_dashboard_auth_provider(
        dashboard_provider("kitp_gate")
    ),
    "a dashboard-auth provider failing the protocol": lambda ctx: (
        ctx.register_dashboard_auth_provider(dashboard_provider("kitp_gate_bad", compliant=False))
    ),
    "a dashboard-auth provider registered twice": lambda ctx: twice(
        ctx.register_dashboard_auth_provider, lambda: dashboard_provider("kitp_gate_twice")
    ),
    "a dashboard-auth provider of the wrong type": lambda ctx: ctx.register_dashboard_auth_provider(
        object()
    ),
    "an auxiliary task": lambda ctx: ctx.register_auxiliary_task(
        "kitp_aux", display_name="Kit", description="d", defaults={"timeout": 5}
    ),
    "an auxiliary task with a built-in key": lambda ctx: ctx.register_auxiliary_task(
        "vision", display_name="V", description="d"
    ),
    "an auxiliary task with a bad key": lambda ctx: ctx.register_auxiliary_task(
        "bad-key", display_name="B", description="d"
    ),
    "a Slack action": lambda ctx: ctx.register_slack_action_handler("kitp_act", print),
    "a Slack action without a callable": lambda ctx: ctx.register_slack_action_handler("a", 5),
    "a Slack action without an id": lambda ctx: ctx.register_slack_action_handler(" ", print),
    "a platform with an unknown keyword": lambda ctx: ctx.register_platform(
        name="kitp_plat", label="K", adapter_factory=print, check_fn=bool, colour="red"
    ),
    "inject_message outside the CLI": lambda ctx: ctx.inject_message("hi"),
    "a context engine of the wrong type": lambda ctx: ctx.register_context_engine(object()),
}
"""Each case's names are its own: hermes' registries are global to the process."""

REGISTRIES: dict[str, tuple[str, str, str]] = {
    "image_gen": ("agent.image_gen_registry", "_providers", "_scoped_providers"),
    "video_gen": ("agent.video_gen_registry", "_providers", "_scoped_providers"),
    "web_search": ("agent.web_search_registry", "_providers", "_scoped_providers"),
    "browser": ("agent.browser_registry", "_providers", "_scoped_providers"),
    "tts": ("agent.tts_registry", "_providers", "_scoped_providers"),
    "transcription": ("agent.transcription_registry", "_providers", "_scoped_providers"),
    "dashboard_auth": ("hermes_cli.dashboard_auth.registry", "_providers", "_scoped_providers"),
    "secret_source": ("agent.secret_sources.registry", "_SOURCES", "_SCOPED_SOURCES"),
}
"""Kind -> hermes' registry (module, the dict it keeps providers in by their key, and the
dict of per-home overlays a release keeping plugin registrations per home has: from
0.20.1 on a plugin's provider goes into the overlay of its manager's ``scope_key``)."""

HERMES_LOGGERS = ("hermes_cli", "agent")


def hermes_keys(manager: Any) -> dict[str, set[str]]:
    """What hermes holds now for the manager's home: each registry's keys, the manager's
    auxiliary tasks and Slack actions (as the in-memory host keys them)."""
    held: dict[str, set[str]] = {}
    scope = getattr(manager, "scope_key", None)
    for kind, (module_name, table, overlays) in REGISTRIES.items():
        try:  # a registry the release does not have holds nothing (browser: 0.18.0 on)
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            held[kind] = set()
            continue
        keys = {str(key) for key in getattr(module, table)}
        keys |= {str(key) for key in getattr(module, overlays, {}).get(scope, {})}
        held[kind] = keys
    # tables a release's manager does not have hold nothing (auxiliary tasks and Slack
    # actions: 0.15.0 on)
    held["auxiliary_task"] = set(getattr(manager, "_aux_tasks", ()))
    held["slack_action"] = {repr(e[0]) for e in getattr(manager, "_slack_action_handlers", ())}
    return held


@dataclass(frozen=True)
class Answer:
    """What one registration did: its outcome (exception or return value), what it added
    to the host's records, and the warnings logged."""

    outcome: tuple[str, str]
    recorded: dict[str, list[str]]
    warnings: list[str]


def described(result: Any) -> str:
    """A returned value as both hosts can agree on it: a registration handle (0.20.1 on)
    by what it registered, not by the addresses of its release callback."""
    if isinstance(result, tuple):
        return f"({', '.join(map(described, result))})"
    if callable(getattr(result, "dispose", None)):
        fields = (result.kind, result.key, result.plugin_key, getattr(result, "persistent", False))
        return "PluginRegistration(kind={!r}, key={!r}, plugin_key={!r}, persistent={!r})".format(
            *fields
        )
    return repr(result)


def outcome(run: Callable[[Any], Any], ctx: Any) -> tuple[str, str]:
    try:
        result = run(ctx)
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return "returned", described(result)


def real_answer(
    hermes_host: HermesHost, run: Callable[[Any], Any], caplog: pytest.LogCaptureFixture
) -> Answer:
    manifest = hermes_host.plugins.PluginManifest(name="kit-parity", key="kit-parity")
    ctx = hermes_host.plugins.PluginContext(manifest, hermes_host.manager)
    before = hermes_keys(hermes_host.manager)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        done = outcome(run, ctx)
    after = hermes_keys(hermes_host.manager)
    added = {kind: sorted(after[kind] - before[kind]) for kind in after}
    warnings = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name.partition(".")[0] in HERMES_LOGGERS
    ]
    return Answer(done, {k: v for k, v in added.items() if v}, warnings)


def in_memory_answer(run: Callable[[Any], Any]) -> Answer:
    host = InMemoryHost()
    # the context of the release played (upstream's, with handles, from 0.20.1 on)
    ctx = host._context(PluginManifest(name="kit-parity", key="kit-parity"), {})
    with host.activate():
        done = outcome(run, ctx)
    recorded = {kind: sorted(names) for kind, names in host.provisions.items() if names}
    warnings = [e.message for e in host.events if e.level == "WARNING"]
    return Answer(done, recorded, warnings)


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_registration_answers_and_records_as_hermes(
    hermes_host: HermesHost, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The same outcome, the same keys added to the registry, the same WARNING texts."""
    expected = real_answer(hermes_host, CASES[case], caplog)
    assert in_memory_answer(CASES[case]) == expected


@pytest.mark.needs("register_auxiliary_task")  # auxiliary tasks and TTS providers: 0.15.0 on
def test_what_is_accepted_is_recorded_and_what_hermes_ignores_is_a_warning() -> None:
    host = InMemoryHost()
    ctx = HostContext(host._state, host.dispatch, PluginManifest(name="provider-plugin"))
    with host.activate():
        ctx.register_web_search_provider(web_provider("kit-search"))
        ctx.register_web_search_provider(object())
        ctx.register_auxiliary_task("pp_task", display_name="T", description="d")
    assert host.provisions["web_search"]["kit-search"][0] == "provider-plugin"
    assert len(host.provisions["web_search"]) == 1
    assert host.provisions["auxiliary_task"]["pp_task"][1]["defaults"]["provider"] == "auto"
    [warning] = host.events
    assert warning.message == (
        "Plugin 'provider-plugin' tried to register a web provider that does not inherit"
        " from WebSearchProvider. Ignoring."
    )


def speakers(*names: str) -> ModuleType:
    """A plugin module registering a TTS provider of each name."""
    module = ModuleType("kitp_speakers")

    def register(ctx: Any) -> None:
        for name in names:
            ctx.register_tts_provider(tts_provider(name))

    module.register = register  # type: ignore[attr-defined]
    return module


@pytest.mark.needs("register_tts_provider")  # the provider inherits the release's TTSProvider
def test_the_newest_release_refuses_the_builtin_names_it_keeps(
    hermes_host: HermesHost,
) -> None:
    """The newest release's names, as read from it: " Edge " is ignored, under "edge"."""
    del hermes_host  # the plugin's provider inherits hermes' class
    host = InMemoryHost(hermes="newest")
    assert host._state.release is newest_registry_release()
    assert host.load(speakers(" Edge ", "kitp_up_voice")).enabled
    assert sorted(host.provisions["tts"]) == ["kitp_up_voice"]
    [warning] = [e for e in host.events if e.surface == "tts"]
    assert (warning.level, warning.name) == ("WARNING", "edge")
    assert warning.message.startswith("TTS provider 'edge' shadows a built-in name;")
    assert ", ".join(sorted(newest_registry_release().provider_builtins["tts"])) in warning.message


@pytest.mark.needs("register_tts_provider")  # the provider inherits the release's TTSProvider
def test_the_builtin_names_are_those_of_the_release_the_host_plays(
    hermes_host: HermesHost,
) -> None:
    """Not a list of the kit's: a release keeping other names refuses those."""
    del hermes_host
    host = InMemoryHost(hermes="newest")
    facts = {name: getattr(host._state.release, name) for name in HostRelease.__slots__}
    facts["provider_builtins"] = {"tts": ["kitp_reserved"]}
    host._state.release = HostRelease(facts)
    host.load(speakers("edge", "kitp_reserved"))
    assert sorted(host.provisions["tts"]) == ["edge"]
    assert [e.name for e in host.events if e.surface == "tts"] == ["kitp_reserved"]


PROVIDER_PLUGIN = """
from agent.web_search_provider import WebSearchProvider


class Search(WebSearchProvider):
    @property
    def name(self):
        return "kit-demo-search"

    def is_available(self):
        return True


def register(ctx):
    ctx.register_web_search_provider(Search())
    ctx.register_auxiliary_task("searcher_rank", display_name="Rank", description="rerank")
"""


@pytest.mark.needs("register_auxiliary_task")  # auxiliary tasks: 0.15.0 on
def test_a_clean_provider_plugin_passes_check_and_shows_what_it_provides(
    hermes_host: HermesHost, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Provider registrations were NotImplementedError in the in-memory host, and check
    said hermes would disable the plugin. (Under the real host's fixture: the plugin
    imports hermes' base class, which only the fixture may import first.)"""
    del hermes_host
    directory = tmp_path / "searcher"
    directory.mkdir()
    (directory / "__init__.py").write_text(PROVIDER_PLUGIN, encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: searcher\nkind: standalone\n")
    status = main(["check", str(directory), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert (status, report["findings"]) == (0, [])
    assert report["plugin"]["enabled"] is True
    assert report["provisions"] == {
        "auxiliary_task": ["searcher_rank"],
        "web_search": ["kit-demo-search"],
    }
    assert main(["check", str(directory)]) == 0
    assert "web_search: kit-demo-search" in capsys.readouterr().out


IGNORED_PLUGIN = """
from agent.secret_sources.base import FetchResult, SecretSource


class Vault(SecretSource):
    name = "kitp_old_vault"
    api_version = 0

    def fetch(self, cfg, home_path):
        return FetchResult()


def register(ctx):
    ctx.register_secret_source(Vault())
"""


@pytest.mark.needs("register_secret_source")  # secret sources: 0.18.1 on
def test_check_reports_a_provider_hermes_ignores(
    hermes_host: HermesHost, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hermes loads the plugin and ignores its secret source with a WARNING: HPK604."""
    del hermes_host
    directory = tmp_path / "oldvault"
    directory.mkdir()
    (directory / "__init__.py").write_text(IGNORED_PLUGIN, encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: oldvault\nkind: standalone\n")
    status = main(["check", str(directory), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    [found] = report["findings"]
    assert (status, found["rule"], found["severity"]) == (1, "HPK604", "error")
    assert found["where"] == "secret_source kitp_old_vault"
    assert "built against secret-source API v0, this Hermes speaks v1" in found["message"]
    assert "api_version = SECRET_SOURCE_API_VERSION" in found["fix"]
    assert report["provisions"] == {}


def test_llm_is_hermes_own_facade(hermes_host: HermesHost) -> None:
    llm = hermes_host.plugins.PluginContext(
        hermes_host.plugins.PluginManifest(name="kit-llm", key="kit-llm"), hermes_host.manager
    ).llm
    host = InMemoryHost()
    mine = HostContext(host._state, host.dispatch, PluginManifest(name="kit-llm", key="kit-llm"))
    assert type(mine.llm) is type(llm)


def test_the_in_memory_context_has_every_member_of_hermes_plugin_context(
    hermes_host: HermesHost,
) -> None:
    """The context the in-memory host hands a plugin on the release it plays has each public
    member of that release's ``PluginContext``, and none that only other releases have."""
    real = {n for n in vars(hermes_host.plugins.PluginContext) if not n.startswith("_")}
    host = InMemoryHost()
    ctx = host._context(PluginManifest(name="kitp-members"), {})
    mine = {n for n in dir(ctx) if not n.startswith("_")}
    assert real <= mine, f"not simulated: {sorted(real - mine)}"
    others = set().union(*(r.context for r in registry_releases())) - real
    assert not {n for n in others if hasattr(ctx, n)} & gated(), "members of other releases"
