"""Config and registration on the real releases the host model holds, each played by the
in-memory host (``InMemoryHost(hermes="0.21.3")``): the releases with a registration
ledger and ``PluginContext.get_config`` (``HostRelease.registration_ledger``, from
0.20.1) against those without (hermes-agent 0.19.0, the installed default).

Behaviour pinned here, as those releases have it:

* ``PluginContext.plugin_id`` = ``manifest.key or manifest.name`` and
  ``get_config(key, default=None)``: ``plugins.entries.<plugin_id>.settings.<key>``, else
  the legacy ``…config.<key>``, else ``default`` (``hermes_cli/plugins.py`` L233-236 and
  L257-267 @00067189dfecf833d4d009c2dd977ae85cf800e0; ``hermes_cli/plugins_state.py``
  L24-63 @25ce047f987023c8665432021f612e2ef7297ac6); ``config_schema`` defaults are never
  applied by the host (``plugins_manifest.py`` ``validate_config_schema`` L170-199
  @00067189, which only returns warnings);
* ``register_tool`` refuses a name a built-in holds with a WARNING and returns None without
  calling the registry; every ``register_*`` returns a handle; a ``register()`` that raises
  is rolled back (``register_tool``, ``hermes_cli/plugins.py`` L459-502 @00067189, the
  refusal at L483-486; the rollback in ``_load_plugin_scoped``,
  ``hermes_cli/plugins_loader.py`` L317-325 @00067189: the plugin's ledger entries are
  disposed and forgotten, its event subscriptions removed).
* plugin tools live in a per-home overlay: ``registry.get_entry(name, *, scope=None)``
  answers the home's overlay then the global tools, ``snapshot_registration`` the overlay
  alone (``ToolRegistry.get_entry`` and ``snapshot_registration``, ``tools/registry.py``
  @00067189), so the kit's preflight
  tells a built-in's name from another plugin's (the in-memory profile keeps one registry
  for its one home).
"""

from __future__ import annotations

import logging
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_core import RegistrationError
from kit_core.hermes import registry_release
from kit_devtools.testing import InMemoryHost
from kit_lifecycle import PartialRegistrationError, load_plugin_config

CONFIGURED = """
import sys

from hermes_plugin_kit import load_plugin_config

SEEN = {}


def register(ctx):
    SEEN["config"] = load_plugin_config(ctx, "caller-name")
    if hasattr(ctx, "get_config"):
        SEEN["host"] = {k: ctx.get_config(k) for k in ("endpoint", "retries", "legacy_only")}
    else:
        SEEN["host"] = None
"""

MANIFEST = """name: cfg_plugin
kind: standalone
config_schema:
  endpoint: {type: str, default: "https://default.example"}
  retries: {type: int, default: 3}
  colour: {type: str, default: "blue"}
"""

CONFIG = {
    "plugins": {
        "entries": {
            "cfg_plugin": {
                "settings": {"endpoint": "https://settings.example", "retries": None},
                "config": {"retries": 9, "legacy_only": "old"},
            }
        },
        "caller-name": {"endpoint": "https://wrong.example"},
    }
}

SHADOW = """
import sys

from hermes_plugin_kit import command, register_plugin, str_arg, tool


@command("shadowcmd", description="A command registered before the tool.")
def shadowcmd(raw_args, **kwargs):
    return "ok"


@tool(toolset="shadow", name={NAME!r}, params={{"text": str_arg("Text", required=True)}})
def shadow(args, **kwargs):
    "Take a built-in's name."
    return {{"text": args["text"]}}


def register(ctx):
    register_plugin(ctx, sys.modules[__name__])
"""


PLAYED = ("0.19.0", "0.20.1", "0.21.3", "0.22.2")
LEDGER = tuple(v for v in PLAYED if getattr(registry_release(v), "registration_ledger", False))
"""The played releases that keep a ledger and offer get_config (0.20.1 and later)."""
NO_LEDGER = tuple(v for v in PLAYED if v not in LEDGER)


def test_the_played_releases_split_where_the_tests_say() -> None:
    assert LEDGER == ("0.20.1", "0.21.3", "0.22.2")
    assert NO_LEDGER == ("0.19.0",)
    for version in PLAYED:
        release = registry_release(version)
        assert release is not None
        assert release.offers("get_config") == release.registration_ledger


def plugin(root: Path, name: str, source: str, manifest: str | None = None) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    (directory / "plugin.yaml").write_text(manifest or f"name: {name}\nkind: standalone\n")
    return directory


# -- item 3: load_plugin_config ------------------------------------------------------------


@pytest.mark.parametrize("hermes", LEDGER)
def test_upstream_config_is_what_get_config_answers_keyed_by_plugin_id(
    tmp_path: Path, hermes: str
) -> None:
    host = InMemoryHost(hermes=hermes, strict=True, config=CONFIG)
    loaded = host.load(plugin(tmp_path, "cfg_plugin", CONFIGURED, MANIFEST))
    seen: Any = loaded.module.SEEN  # type: ignore[union-attr]
    # the host: settings first (an explicit null too), then the legacy config subtree
    assert seen["host"] == {
        "endpoint": "https://settings.example",
        "retries": None,
        "legacy_only": "old",
    }
    # the kit: the same per key, plus config_schema defaults for keys not set
    assert seen["config"] == {
        "endpoint": "https://settings.example",
        "retries": None,
        "legacy_only": "old",
        "colour": "blue",
    }


LEGACY_ONLY = """
from hermes_plugin_kit import load_plugin_config

SEEN = {}


def register(ctx):
    SEEN["config"] = load_plugin_config(ctx, "caller-name")
    SEEN["host"] = {k: ctx.get_config(k) for k in ("endpoint", "limits", "missing")}
"""

LEGACY_CONFIG = {
    "plugins": {
        "entries": {
            "legacy_plugin": {
                "config": {"endpoint": "https://legacy.example", "limits": {"per_minute": 5}},
            }
        },
        "caller-name": {"endpoint": "https://wrong.example"},
    }
}


@pytest.mark.parametrize("hermes", LEDGER)
def test_a_legacy_config_subtree_alone_is_what_get_config_answers(
    tmp_path: Path, hermes: str
) -> None:
    """Issue 12, item 3: only a legacy ``config:`` under the plugin's entry, no ``settings``.

    Upstream ``PluginContext.get_config`` (``hermes_cli/plugins.py`` L257-267 @
    ``00067189dfecf833d4d009c2dd977ae85cf800e0``) reads ``plugins.entries.<ctx.plugin_id>``
    (L261, ``plugin_id`` L233-236), returns ``settings.<key>`` when present (L264-266) and
    otherwise the legacy ``config.<key>`` (L267, the "migration compatibility" fallback
    its docstring names, L258-259), else ``default``. ``load_plugin_config`` must return
    those values, keyed by ``ctx.plugin_id``, not by the caller's name.
    """
    host = InMemoryHost(hermes=hermes, strict=True, config=LEGACY_CONFIG)
    loaded = host.load(plugin(tmp_path, "legacy_plugin", LEGACY_ONLY))
    seen: Any = loaded.module.SEEN  # type: ignore[union-attr]
    expected = {"endpoint": "https://legacy.example", "limits": {"per_minute": 5}}
    assert seen["host"] == {**expected, "missing": None}
    assert seen["config"] == expected


@pytest.mark.parametrize("hermes", [*NO_LEDGER, None])
def test_a_release_without_get_config_keeps_reading_by_the_callers_name(
    tmp_path: Path, hermes: str | None
) -> None:
    host = InMemoryHost(hermes=hermes, strict=True, config=CONFIG)
    assert not host.release.offers("get_config")
    loaded = host.load(plugin(tmp_path, "cfg_plugin", CONFIGURED, MANIFEST))
    seen: Any = loaded.module.SEEN  # type: ignore[union-attr]
    assert seen["host"] is None
    assert seen["config"] == {"endpoint": "https://wrong.example"}


@pytest.mark.parametrize("hermes", LEDGER)
def test_a_key_get_config_refuses_is_left_out_with_a_warning(
    caplog: pytest.LogCaptureFixture, hermes: str
) -> None:
    config = {"plugins": {"entries": {"p": {"settings": {"model": "x", "ok": 1}}}}}
    host = InMemoryHost(hermes=hermes, config=config)

    class Ctx:
        plugin_id = "p"
        manifest = None

        def get_config(self, key: str, default: Any = None) -> Any:
            raise AssertionError("not called per key")

    with host.activate(), caplog.at_level(logging.WARNING):
        assert load_plugin_config(Ctx(), "p") == {"ok": 1}
    assert any("ctx.get_config refuses" in r.getMessage() for r in caplog.records)


# -- item 5: registration semantics -----------------------------------------------------------


REFUSED_BUILT_IN = (
    "tool 'terminal' is a built-in tool of this hermes (toolset 'terminal'); the host would"
    " refuse yours with a WARNING: register_tool returns no registration and never calls the"
    " registry."
)


@pytest.mark.parametrize(
    ("hermes", "toolset", "refusal"),
    [
        *[(v, "shadow", REFUSED_BUILT_IN) for v in LEDGER],
        # a release with a ledger refuses a built-in's name in any toolset without
        # override=True
        *[(v, "terminal", REFUSED_BUILT_IN) for v in LEDGER],
        *[
            (
                v,
                "shadow",
                "tool 'terminal' is already registered by hermes in toolset 'terminal'; the"
                " host would refuse yours with only an error log.",
            )
            for v in NO_LEDGER
        ],
    ],
)
def test_the_preflight_refuses_a_built_in_name_as_the_host_would(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, hermes: str | None, toolset: str, refusal: str
) -> None:
    # upstream: register_tool refuses a name the home's overlay lacks and the global tools
    # hold (hermes_cli/plugins.py L459-502 @00067189dfecf833d4d009c2dd977ae85cf800e0, the
    # refusal at L483-486; ToolRegistry.get_entry / snapshot_registration in
    # tools/registry.py @00067189); hermes-agent 0.19.0's registry.register logs an ERROR
    # and returns
    host = InMemoryHost(hermes=hermes)
    source = SHADOW.format(NAME="terminal").replace('toolset="shadow"', f"toolset={toolset!r}")
    with caplog.at_level(logging.INFO):
        loaded = host.load(plugin(tmp_path, "shadower", source))
    assert loaded.enabled is False
    assert isinstance(loaded.exception, RegistrationError)
    assert not isinstance(loaded.exception, PartialRegistrationError)
    assert (
        str(loaded.exception) == f"{refusal} Namespace it, e.g. tool_name('shadower', verb, noun)"
    )
    # checked first: nothing was handed to the host, so nothing is half-registered
    assert (host.commands, host.tools, loaded.tools, loaded.commands) == ({}, {}, (), ())
    assert not [e for e in host.events if e.surface == "tool"]
    assert not any("registered plugin" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("hermes", NO_LEDGER)
def test_without_a_ledger_a_built_in_name_in_its_own_toolset_replaces_it(
    tmp_path: Path, hermes: str
) -> None:
    host = InMemoryHost(hermes=hermes, strict=True)
    source = SHADOW.format(NAME="terminal").replace('toolset="shadow"', 'toolset="terminal"')
    loaded = host.load(plugin(tmp_path, "shadower", source))
    assert loaded.tools == ("terminal",)
    assert host.tools["terminal"].plugin == "shadower"


@pytest.mark.parametrize(
    ("hermes", "refusal"),
    [
        *[
            (
                v,
                "tool 'shared_echo' is already registered by another plugin in toolset 'first'"
                " in this hermes home; the host's registry would reject yours with an ERROR and"
                " register_tool return no registration.",
            )
            for v in LEDGER
        ],
        *[
            (
                v,
                "tool 'shared_echo' is already registered by hermes in toolset 'first'; the"
                " host would refuse yours with only an error log.",
            )
            for v in NO_LEDGER
        ],
    ],
)
def test_the_preflight_refuses_a_name_another_plugin_holds(
    tmp_path: Path, hermes: str | None, refusal: str
) -> None:
    # upstream: the name is in this home's overlay, so register_tool calls
    # registry.register, which rejects another toolset's name with an ERROR, and returns
    # None (hermes_cli/plugins.py L459-502 @00067189; tools/registry.py register @00067189)
    host = InMemoryHost(hermes=hermes)
    first_source = SHADOW.format(NAME="shared_echo").replace('toolset="shadow"', 'toolset="first"')
    first = host.load(plugin(tmp_path, "first", first_source))
    assert first.enabled, first.exception
    second_source = SHADOW.format(NAME="shared_echo").replace("shadowcmd", "secondcmd")
    second = host.load(plugin(tmp_path, "second", second_source))
    assert isinstance(second.exception, RegistrationError)
    assert str(second.exception) == f"{refusal} Namespace it, e.g. tool_name('second', verb, noun)"
    assert (second.enabled, second.tools, second.commands) == (False, (), ())
    # the first plugin's tool stands, and nothing of the second is registered
    assert host.tools["shared_echo"].plugin == "first"
    assert set(host.commands) == {"shadowcmd"}


@pytest.mark.parametrize("hermes", LEDGER)
def test_a_refusal_the_preflight_cannot_see_is_rolled_back_without_a_receipt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, hermes: str
) -> None:
    # a registry the kit cannot ask (no get_entry): register_tool's None is the refusal
    from kit_devtools.testing import _shims_tools

    monkeypatch.delattr(_shims_tools.Registry, "get_entry")
    host = InMemoryHost(hermes=hermes)
    with caplog.at_level(logging.INFO):
        loaded = host.load(plugin(tmp_path, "shadower", SHADOW.format(NAME="terminal")))
    assert loaded.enabled is False
    assert isinstance(loaded.exception, PartialRegistrationError)
    assert loaded.exception.failed == "tool 'terminal'"
    assert loaded.exception.rolled_back == ("command 'shadowcmd'",)
    assert loaded.exception.left_registered == ()
    assert host.commands == {}
    assert host.tools == {}
    assert loaded.tools == ()
    assert not any("registered plugin lifecycle" in r.getMessage() for r in caplog.records)
    (event,) = [e for e in host.events if e.surface == "tool"]
    assert (event.level, event.message) == (
        "WARNING",
        "Plugin shadower tried to shadow global tool terminal without override=True",
    )


@pytest.mark.parametrize("hermes", PLAYED)
def test_each_release_takes_a_fresh_plugin_and_the_receipt_lists_what_was_registered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, hermes: str
) -> None:
    host = InMemoryHost(hermes=hermes, strict=True)
    with caplog.at_level(logging.INFO):
        loaded = host.load(plugin(tmp_path, "fresh", SHADOW.format(NAME="fresh_echo")))
    assert (loaded.tools, loaded.commands) == (("fresh_echo",), ("shadowcmd",))
    receipts = [r.getMessage() for r in caplog.records if "registered plugin" in r.getMessage()]
    assert len(receipts) == 1
    assert "tools=fresh_echo" in receipts[0]


@pytest.mark.parametrize(("hermes", "older_hermes"), [(v, NO_LEDGER[0]) for v in LEDGER])
def test_a_ledger_rolls_back_a_register_that_raises(
    tmp_path: Path, hermes: str, older_hermes: str
) -> None:
    source = """
    def register(ctx):
        ctx.register_command("early", lambda raw: "ok")
        ctx.register_hook("post_llm_call", lambda **kwargs: None)
        raise RuntimeError("late failure")
    """
    (tmp_path / "u").mkdir()
    upstream_host = InMemoryHost(hermes=hermes)
    upstream = upstream_host.load(plugin(tmp_path / "u", "raiser", source))
    assert upstream_host.commands == {}
    assert upstream_host.hooks == {}
    assert (upstream.enabled, upstream.commands, upstream.hooks) == (False, (), ())
    older_host = InMemoryHost(hermes=older_hermes)
    (tmp_path / "o").mkdir()
    older = older_host.load(plugin(tmp_path / "o", "raiser", source))
    assert older.enabled is False
    assert "early" in older_host.commands  # no ledger: they are left registered
    assert older_host.hooks["post_llm_call"]
