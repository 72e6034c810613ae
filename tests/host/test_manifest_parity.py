"""The in-memory host reads ``plugin.yaml`` exactly as hermes-agent does (marked ``host``).

Each manifest below is written into a plugin directory and read twice: by the real
host's own ``PluginManager._parse_manifest`` (``hermes_cli/plugins.py`` 1565-1644 in
0.19.0) and by :class:`~kit_devtools.testing.InMemoryHost`. Both must refuse the same
manifests and, for the others, give the same ``PluginManifest`` field by field. The list
leans on what a hand-written reader gets wrong: YAML 1.1 booleans, anchors, flow
mappings, block scalars, tags, duplicate keys, dates and non-mapping documents.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._home import HOME_FOLDERS

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost

MANIFESTS = {
    "plain": """
        name: plain
        version: 1.10
        description: "Text: with a colon"  # a comment
        provides_tools: [a_x, "b_y"]
        provides_hooks:
          - pre_tool_call
        """,
    "yaml-1.1-booleans": "name: on\nversion: yes\nauthor: off\n",
    "anchors": """
        name: anchored
        requires_env: &envs
          - KEY_ONE
          - {name: KEY_TWO, secret: true}
        provides_tools: *envs
        """,
    "block-scalars": """
        name: blocks
        description: >
          folded
          text
        author: |-
          literal
            kept
        """,
    "flow-mapping-without-values": "name: flow\nconfig: {a, b: [1, 2]}\n",
    "duplicate-keys": "name: first\nname: second\n",
    "a-date": "name: dated\nversion: 2026-11-30\n",
    "a-tag": "name: !!str 12\nversion: !!float 3\n",
    "kind-exclusive": "name: exclusive-one\nkind: exclusive\n",
    "kind-unknown": "name: odd-kind\nkind: Sideways\n",
    "kind-not-a-string": "name: listed-kind\nkind: [a]\n",
    "empty": "# nothing here\n",
    "a-list": "- a list\n- at the top\n",
    "a-scalar": "just words\n",
    "bad-indentation": "name: x\n  bad: indent\n",
    "unclosed-flow": "name: [a, b\n",
    "python-tag": "name: !!python/object:os.system echo\n",
}


def parse_with_hermes(hermes_host: HermesHost, directory: Path) -> dict[str, Any] | None:
    manager = hermes_host.plugins.PluginManager()
    parsed = manager._parse_manifest(directory / "plugin.yaml", directory, "user", "")
    return None if parsed is None else dataclasses.asdict(parsed)


def parse_in_memory(directory: Path) -> dict[str, Any] | None:
    seen: list[Any] = []
    loaded = InMemoryHost().load(directory)
    if loaded.error is not None and loaded.error.startswith("Failed to parse "):
        return None
    if loaded.module is not None:
        seen = loaded.module.SEEN
    if seen:
        return dataclasses.asdict(seen[0])
    # refused for its kind before register ran: rebuild what ctx.manifest would have held
    pytest.fail(f"in-memory host gave no manifest: {loaded.error}")


@pytest.mark.parametrize("label", sorted(MANIFESTS))
def test_every_manifest_reads_the_same_in_both_hosts(
    hermes_host: HermesHost, tmp_path: Path, label: str
) -> None:
    directory = tmp_path / label
    directory.mkdir()
    (directory / "__init__.py").write_text(
        "SEEN = []\ndef register(ctx):\n    SEEN.append(ctx.manifest)\n", encoding="utf-8"
    )
    (directory / "plugin.yaml").write_text(textwrap.dedent(MANIFESTS[label]), encoding="utf-8")
    expected = parse_with_hermes(hermes_host, directory)
    if expected is not None and not isinstance(expected["name"], str):
        # hermes keeps the YAML value as the key, which plugins.enabled (strings) never holds
        loaded = InMemoryHost().load(directory)
        assert not loaded.enabled
        assert "which never match it" in str(loaded.error)
        return
    if expected is not None and expected["kind"] != "standalone":
        loaded = InMemoryHost().load(directory)
        assert not loaded.enabled
        assert expected["kind"] in str(loaded.error)
        return
    assert parse_in_memory(directory) == expected


def test_the_in_memory_home_has_the_folders_hermes_creates(tmp_path: Path) -> None:
    """The real host's ``ensure_hermes_home`` on an empty home (in a process of its own, so
    no home or override of this session's host interferes), against ``HOME_FOLDERS``."""
    home = tmp_path / "home"
    subprocess.run(
        [sys.executable, "-c", "import hermes_cli.config as c; c.ensure_hermes_home()"],
        env={**os.environ, "HERMES_HOME": str(home)},
        check=True,
        capture_output=True,
    )
    made = {str(p.relative_to(home)) for p in home.rglob("*") if p.is_dir()}
    assert made == set(HOME_FOLDERS)
    host = InMemoryHost()  # its temporary home lives as long as it does
    memory = host.hermes_home
    assert {str(p.relative_to(memory)) for p in memory.rglob("*") if p.is_dir()} == {
        *HOME_FOLDERS,
        "plugins",  # where hermes' discovery looks, made by its installer
    }
