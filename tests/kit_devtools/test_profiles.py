"""The release an in-memory host plays: the newest registry release by default, or
upstream 0.21 (``InMemoryHost(hermes="0.21")``), modelled from its source. Plugin code sees
that release's version and hooks, so the kit's registration answers as on that host.

What each test copies from hermes:

* hermes-agent 0.19.0 (the registry release, installed in the test environment):
  ``hermes_cli/__init__.py`` L17 ``__version__ = "0.19.0"``; ``hermes_cli/plugins.py``
  L135-215 ``VALID_HOOKS``, without ``on_stream_start``; ``PluginContext.register_hook``
  L1158-1173 stores an unknown hook with a warning and never calls it, which is why the
  kit refuses one.
* upstream at ``00067189dfecf833d4d009c2dd977ae85cf800e0`` (a coherent 0.21.3, read
  through the search tool's code index; it needs Python 3.14 and cannot run here):
  ``hermes_cli/__init__.py`` L6 ``__version__ = "0.21.3"``; ``hermes_cli/plugins.py``
  L108-199 ``VALID_HOOKS``, whose streaming observers (``on_stream_start``, L112-114) are
  new; ``register_hook`` L904-906 and ``_track_callback`` L915-926 store the callback (an
  unknown name only warns, L920-922).
"""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

import pytest

from kit_core._host_model import newest_registry_release, upstream_release
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


def streamer(root: Path) -> Path:
    directory = root / "streamer"
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(STREAMER), encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: streamer\nkind: standalone\n")
    return directory


def test_by_default_the_host_plays_the_newest_registry_release() -> None:
    """0.19.0 ``hermes_cli/__init__.py`` L17 and ``hermes_cli/plugins.py`` L135-215."""
    host = InMemoryHost()
    assert host.release is newest_registry_release()
    with host.activate():
        assert importlib.import_module("hermes_cli").__version__ == host.release.version
        hooks = importlib.import_module("hermes_cli.plugins").VALID_HOOKS
        assert set(hooks) == host.release.hooks
        assert "on_stream_start" not in hooks


@pytest.mark.upstream("hooks: upstream's names accepted, each host's own checked")
def test_the_upstream_profile_shows_plugin_code_upstreams_version_and_hooks() -> None:
    """Upstream ``hermes_cli/__init__.py`` L6 and ``hermes_cli/plugins.py`` L108-199
    (``on_stream_start`` at L114) @00067189dfecf833d4d009c2dd977ae85cf800e0."""
    host = InMemoryHost(hermes="0.21")
    assert host.release == upstream_release()
    assert host.release.modelled
    with host.activate():
        assert importlib.import_module("hermes_cli").__version__ == "0.21.3"
        assert "on_stream_start" in importlib.import_module("hermes_cli.plugins").VALID_HOOKS


@pytest.mark.upstream("hooks: upstream's names accepted, each host's own checked")
def test_a_hook_of_upstream_registers_on_the_upstream_profile_only(tmp_path: Path) -> None:
    """Upstream stores the callback (``register_hook`` L904-906, ``_track_callback``
    L915-926, ``hermes_cli/plugins.py`` @00067189dfecf833d4d009c2dd977ae85cf800e0); 0.19.0
    would store it too, with a warning, and never call it (``hermes_cli/plugins.py``
    L1158-1173, the hook absent from ``VALID_HOOKS`` L135-215), so the kit refuses it
    there."""
    directory = streamer(tmp_path)
    upstream = InMemoryHost(hermes="0.21").load(directory)
    assert (upstream.enabled, upstream.hooks, upstream.error) == (True, ("on_stream_start",), None)
    refused = InMemoryHost().load(directory)
    assert refused.enabled is False
    assert refused.error is not None
    assert "has no hook 'on_stream_start'" in refused.error


def test_two_hosts_playing_different_releases_answer_each_for_its_own() -> None:
    """The version each release reports: 0.19.0 ``hermes_cli/__init__.py`` L17, upstream
    L6 @00067189dfecf833d4d009c2dd977ae85cf800e0."""
    older, upstream = InMemoryHost(), InMemoryHost(hermes="0.21")
    with older.activate():
        with upstream.activate():
            assert importlib.import_module("hermes_cli").__version__ == "0.21.3"
        assert importlib.import_module("hermes_cli").__version__ == older.release.version


@pytest.mark.parametrize("asked", ["0.18.2", "0.22", "latest"])
def test_a_release_the_host_cannot_play_is_refused_naming_what_it_can(asked: str) -> None:
    """The kit's own rule (no hermes behaviour is copied): the in-memory host plays only the
    releases its model holds."""
    with pytest.raises(ValueError, match=r"plays hermes-agent 0\.19\.0 or upstream 0\.21") as e:
        InMemoryHost(hermes=asked)
    assert "check --real" in str(e.value)
