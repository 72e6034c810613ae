"""The in-memory host reads ``plugin.yaml`` exactly as hermes-agent does (marked ``host``).

Each manifest below is written into a plugin directory and read twice: by the real
release's own reader and by :class:`~kit_devtools.testing.InMemoryHost` (which plays the
installed release). The reader is ``PluginManager._parse_manifest`` through 0.20.1
(``hermes_cli/plugins.py`` 1565-1644 in 0.19.0, L4270 in 0.20.1) and
``hermes_cli.plugins_manifest.parse_manifest_file`` from 0.21.3 (called by
``plugins_discovery._scan_directory_level``). Both must refuse the same manifests and, for
the others, give the same ``PluginManifest`` field by field and log the same warnings.
The list leans on what a hand-written reader gets wrong: YAML 1.1 booleans, anchors, flow
mappings, block scalars, tags, duplicate keys, dates and non-mapping documents; and on
the v2 fields of 0.20.1 on (a too-new ``manifest_version``, unknown keys, malformed
lists, capabilities, locales).
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kit_devtools.testing import InMemoryHost

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
    "a-bom": "\ufeffname: bommed\nversion: 1\n",
    "bare-y-and-n": "name: yn\ndescription: y\nauthor: n\n",
    "v2-too-new": "name: newer\nmanifest_version: 3\nsettings: {a: 1}\nzeta: 1\n",
    "v2-unknown-on-v1": "name: quiet\nsettings: {a: 1}\n",
    "v2-unknown-on-v2": "name: loud\nmanifest_version: 2\nsettings: {a: 1}\n",
    "v2-mixed-unknown-keys": "name: mixed\nmanifest_version: 2\n3: x\nother: y\n",
    "v2-not-integers": "name: odd\nmanifest_version: two\napi_version: [1]\n",
    "v2-lists": """
        name: listy
        api_version: "3"
        requires_plugins: [base, {id: other, version_range: ">=1"}, {id: ""}, 7]
        python_dependencies: ["  requests>=2 ", "", 3]
        tags: [a, 2]
        license: MIT
        homepage: 12
        emits: [ping]
        listens: null
        """,
    "v2-not-lists": "name: flat\nrequires_plugins: base\npython_dependencies: x\ntags: t\n",
    "v2-config-schema": """
        name: configured
        config_schema:
          url: {type: str, required: true}
          depth: {type: map}
          bad: 3
        """,
    "v2-config-schema-not-a-mapping": "name: cfg\nconfig_schema: [a]\n",
    "capabilities": "name: caps\ncapabilities: [tools.override, nope, 3, tools.override]\n",
    "capabilities-not-a-list": "name: caps2\ncapabilities: tools.override\n",
    "author-mapping": "name: authored\nauthor: {name: Ann, email: a@x.org, url: ''}\n",
    "requires-hermes": "name: gated\nrequires_hermes: '  >=0.1 '\n",
    "old-hooks-spelling": "name: hooked\nhooks: [pre_tool_call]\n",
    "locales": "name: lang\nprovides_locales: [pl, {id: PT_br, endonym: ' Português ', rtl: 0},"
    " xx-!, pl]\n",
}


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def hermes_reader(hermes_host: HermesHost) -> Any:
    """The release's own manifest reader: ``parse_manifest_file`` where the release has
    ``hermes_cli/plugins_manifest.py`` (0.21.3 on), else the manager's ``_parse_manifest``."""
    try:
        return importlib.import_module("hermes_cli.plugins_manifest").parse_manifest_file
    except ImportError:
        return hermes_host.plugins.PluginManager()._parse_manifest


def parse_with_hermes(
    hermes_host: HermesHost, directory: Path
) -> tuple[dict[str, Any] | None, list[str]]:
    """The manifest hermes builds (None: refused) and the WARNING lines it logs."""
    lines = _Lines()
    logger = logging.getLogger()  # hermes_cli.plugins, hermes_cli.plugin_capabilities ...
    logger.addHandler(lines)
    try:
        parsed = hermes_reader(hermes_host)(directory / "plugin.yaml", directory, "user", "")
    finally:
        logger.removeHandler(lines)
    said = [line for line in lines.lines if not line.startswith("Failed to parse ")]
    return (None if parsed is None else dataclasses.asdict(parsed)), said


def parse_in_memory(directory: Path) -> tuple[dict[str, Any] | None, list[str]]:
    seen: list[Any] = []
    host = InMemoryHost()
    loaded = host.load(directory)
    said = [e.message for e in host.events if e.level == "WARNING" and e.surface == "plugin"]
    if loaded.error is not None and loaded.error.startswith("Failed to parse "):
        return None, said
    if loaded.module is not None:
        seen = loaded.module.SEEN
    if seen:
        return dataclasses.asdict(seen[0]), said
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
    expected, warned = parse_with_hermes(hermes_host, directory)
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
    assert parse_in_memory(directory) == (expected, warned)


def test_the_in_memory_home_has_the_folders_hermes_creates(tmp_path: Path) -> None:
    """The real host's ``ensure_hermes_home`` on an empty home (in a process of its own, so
    no home or override of this session's host interferes), against the played release's
    ``home_folders`` (five on 0.13.0, ten from 0.14.0) and the in-memory host's home."""
    home = tmp_path / "home"
    subprocess.run(
        [sys.executable, "-c", "import hermes_cli.config as c; c.ensure_hermes_home()"],
        env={**os.environ, "HERMES_HOME": str(home)},
        check=True,
        capture_output=True,
    )
    made = {str(p.relative_to(home)) for p in home.rglob("*") if p.is_dir()}
    host = InMemoryHost()  # its temporary home lives as long as it does
    assert made == set(host.release.home_folders)
    memory = host.hermes_home
    assert {str(p.relative_to(memory)) for p in memory.rglob("*") if p.is_dir()} == {
        *made,
        "plugins",  # where hermes' discovery looks, made by its installer
    }
