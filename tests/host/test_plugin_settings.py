"""A plugin's settings reach it on every release: ``load_plugin_config`` called from a
plugin that the real hermes loaded, with the settings in the home's ``config.yaml``
under ``plugins.entries.<name>.settings`` (where every release keeps them), written
through ``RealHost(config=...)`` as an author's test does.

hermes-agent 0.13.0 and 0.14.0 have ``hermes_cli.config.load_config`` and no
``load_config_readonly``; the kit reads the settings there with the first, elsewhere with
the second, and from 0.20.1 through ``ctx.get_config``.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import RealHost

pytestmark = pytest.mark.host

NAME = "kit-settings"
SETTINGS: dict[str, Any] = {
    "greeting": "hello",
    "limits": {"max": 3, "ratio": 0.5},
    "tags": ["a", "b"],
    "strict": True,
}
PLUGIN = '''
from hermes_plugin_kit import load_plugin_config, register_plugin, tool

READ = {}


@tool(toolset="kit_settings", namespace="kit_settings")
def kit_settings_show(args, **kwargs):
    """Show the settings the plugin read while registering, and what it reads now."""
    return {"at_register": READ, "now": load_plugin_config(CONTEXT[0], "kit-settings")}


CONTEXT = []


def register(ctx):
    CONTEXT.append(ctx)
    READ.update(load_plugin_config(ctx, "kit-settings"))
    return register_plugin(ctx, [kit_settings_show])
'''


def settings_plugin(tmp_path: Path) -> Path:
    folder = tmp_path / NAME
    folder.mkdir()
    (folder / "plugin.yaml").write_text(
        f"name: {NAME}\nversion: 0.1.0\nkind: standalone\nprovides_tools: [kit_settings_show]\n",
        encoding="utf-8",
    )
    (folder / "__init__.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    return folder


def test_load_plugin_config_gives_the_plugin_its_settings(tmp_path: Path) -> None:
    config = {"plugins": {"entries": {NAME: {"settings": SETTINGS}}}}
    with RealHost(config=config) as host:
        loaded = host.load(settings_plugin(tmp_path))
        assert loaded.tools == ("kit_settings_show",)
        out = json.loads(host.call_tool("kit_settings_show", {}))
        log = host.stderr_tail(200)
    assert out == {"success": True, "data": {"at_register": SETTINGS, "now": SETTINGS}}, log
    assert "effective config" not in log
