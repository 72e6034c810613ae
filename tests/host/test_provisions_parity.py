"""The in-memory host's provider, platform, Slack and auxiliary-task registrations answer
as hermes-agent 0.19.0's ``PluginContext`` does (marked ``host``): the same registrations
are recorded, the same ones ignored with a warning, the same ones refused with the same
error. Each case runs once through a real ``PluginContext`` and once through the
in-memory host's context."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kit_devtools.cli import main
from kit_devtools.testing import HostContext, InMemoryHost, PluginManifest

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost

_names = itertools.count()


def web_provider(name: str) -> Any:
    from agent.web_search_provider import WebSearchProvider

    class Provider(WebSearchProvider):
        @property
        def name(self) -> str:
            return name

        def is_available(self) -> bool:
            return True

    return Provider()


def unique(prefix: str) -> str:
    return f"{prefix}_{next(_names)}"


CASES: dict[str, Callable[[Any], Any]] = {
    "a web provider": lambda ctx: ctx.register_web_search_provider(web_provider(unique("kitweb"))),
    "a web provider of the wrong type": lambda ctx: ctx.register_web_search_provider(object()),
    "a web provider without a name": lambda ctx: ctx.register_web_search_provider(web_provider("")),
    "an image provider of the wrong type": lambda ctx: ctx.register_image_gen_provider("x"),
    "an auxiliary task": lambda ctx: ctx.register_auxiliary_task(
        unique("kit_aux"), display_name="Kit", description="d", defaults={"timeout": 5}
    ),
    "an auxiliary task with a built-in key": lambda ctx: ctx.register_auxiliary_task(
        "vision", display_name="V", description="d"
    ),
    "an auxiliary task with a bad key": lambda ctx: ctx.register_auxiliary_task(
        "bad-key", display_name="B", description="d"
    ),
    "a Slack action": lambda ctx: ctx.register_slack_action_handler(unique("act"), print),
    "a Slack action without a callable": lambda ctx: ctx.register_slack_action_handler("a", 5),
    "a Slack action without an id": lambda ctx: ctx.register_slack_action_handler(" ", print),
    "a platform with an unknown keyword": lambda ctx: ctx.register_platform(
        name=unique("kitplat"), label="K", adapter_factory=print, check_fn=bool, colour="red"
    ),
    "inject_message outside the CLI": lambda ctx: ctx.inject_message("hi"),
    "a dashboard-auth provider (no such module in 0.19.0)": lambda ctx: (
        ctx.register_dashboard_auth_provider(object())
    ),
    "a context engine of the wrong type": lambda ctx: ctx.register_context_engine(object()),
}


def outcome(run: Callable[[Any], Any], ctx: Any) -> tuple[str, str]:
    try:
        result = run(ctx)
    except Exception as exc:
        return type(exc).__name__, str(exc).replace("kit-parity", "<plugin>")
    return "returned", repr(result)


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_registration_answers_as_hermes(hermes_host: HermesHost, case: str) -> None:
    manifest = hermes_host.plugins.PluginManifest(name="kit-parity", key="kit-parity")
    real = hermes_host.plugins.PluginContext(manifest, hermes_host.manager)
    host = InMemoryHost()
    mine = HostContext(host._state, host.dispatch, PluginManifest(name="kit-parity"))
    expected = outcome(CASES[case], real)
    with host.activate():
        got = outcome(CASES[case], mine)
    assert got == expected


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
    real = {n for n in vars(hermes_host.plugins.PluginContext) if not n.startswith("_")}
    mine = {n for n in dir(HostContext) if not n.startswith("_")}
    assert real <= mine, f"not simulated: {sorted(real - mine)}"
