"""The in-memory host reads ``plugin.yaml`` without PyYAML: the subset manifests use."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from hermes_plugin_kit.testing import InMemoryHost


def read(tmp_path: Path, text: str) -> Any:
    """The manifest of a plugin directory, as ``LoadedPlugin.manifest``."""
    directory = tmp_path / "manifest_probe"
    directory.mkdir()
    (directory / "__init__.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    (directory / "plugin.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    loaded = InMemoryHost().load(directory)
    assert loaded.error is None, loaded.error
    return dict(loaded.manifest)


def test_scalars_lists_and_mappings(tmp_path: Path) -> None:
    manifest = read(
        tmp_path,
        """
        # a comment
        name: "quoted name"   # trailing comment
        version: 1.10
        description: Text: with a colon, and a URL https://example.com/x#y
        author: 'single'
        enabled: yes
        count: 3
        nothing: ~
        provides_tools: [a_x, "b_y", c]
        provides_hooks:
          - pre_tool_call
          - post_tool_call
        requires_env:
        - SIMPLE_KEY
        - name: FANCY_KEY
          description: what it is for
          secret: true
        config:
          units: metric
          nested:
            depth: 2
          empty: {}
          inline: {a: 1, b: [x, y]}
        """,
    )
    assert manifest == {
        "name": "quoted name",
        "version": 1.1,
        "description": "Text: with a colon, and a URL https://example.com/x#y",
        "author": "single",
        "enabled": True,
        "count": 3,
        "nothing": None,
        "provides_tools": ["a_x", "b_y", "c"],
        "provides_hooks": ["pre_tool_call", "post_tool_call"],
        "requires_env": [
            "SIMPLE_KEY",
            {"name": "FANCY_KEY", "description": "what it is for", "secret": True},
        ],
        "config": {
            "units": "metric",
            "nested": {"depth": 2},
            "empty": {},
            "inline": {"a": 1, "b": ["x", "y"]},
        },
    }


def test_version_is_a_string_on_the_manifest_like_hermes(tmp_path: Path) -> None:
    directory = tmp_path / "versioned"
    directory.mkdir()
    (directory / "__init__.py").write_text(
        "SEEN = []\ndef register(ctx):\n    SEEN.append(ctx.manifest)\n"
    )
    (directory / "plugin.yaml").write_text("name: versioned\nversion: 1.10\nprovides_tools: [x]\n")
    loaded = InMemoryHost().load(directory)
    assert loaded.module is not None
    [manifest] = loaded.module.SEEN
    assert (manifest.version, manifest.provides_tools, manifest.source) == ("1.1", ["x"], "user")
    assert (manifest.kind, manifest.key, manifest.path) == (
        "standalone",
        "versioned",
        str(directory),
    )


def test_block_scalars(tmp_path: Path) -> None:
    manifest = read(
        tmp_path,
        """
        name: blocks
        folded: >
          one
          two
        literal: |
          line one
            indented
        stripped: |-
          kept
        """,
    )
    assert manifest["folded"] == "one two\n"
    assert manifest["literal"] == "line one\n  indented\n"
    assert manifest["stripped"] == "kept"


def test_an_empty_manifest_is_an_empty_mapping(tmp_path: Path) -> None:
    assert read(tmp_path, "# nothing here\n") == {}


@pytest.mark.parametrize(
    "text",
    ["just words\n", "name: x\n  bad: indent\n", "- a list\n- at the top\n", "k: {a}\n"],
)
def test_what_cannot_be_read_is_refused(tmp_path: Path, text: str) -> None:
    directory = tmp_path / "unreadable"
    directory.mkdir()
    (directory / "__init__.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    (directory / "plugin.yaml").write_text(text, encoding="utf-8")
    loaded = InMemoryHost().load(directory)
    assert loaded.enabled is False
    assert str(loaded.error).startswith("Failed to parse ")
