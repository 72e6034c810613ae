"""The ``standalone`` project of ``hermes-plugin-kit new``: a general plugin with a tool and
a command, registered through the kit, found by hermes through its ``hermes_agent.plugins``
entry point or its folder."""

from __future__ import annotations

from string import Template
from typing import Final

from kit_devtools.cli._scaffold_kinds import GENERAL_PLUGIN_ENTRY_POINT, ProjectKind

PLUGIN_YAML: Final = Template("""\
name: $name
version: 0.1.0
description: A hermes-agent plugin built with hermes-plugin-kit
kind: standalone
# the oldest hermes-agent this plugin runs on (hermes $reads_requires_hermes and later refuse
# to load it on an older one; older releases ignore the key)
requires_hermes: ">=$floor"
# manifest v1: the installer of the older hermes releases refuses manifest_version 2
manifest_version: 1
# what register() registers: catalogue admission (`hermes plugins validate`) refuses a
# plugin that registers more; `hermes-plugin-kit preflight --write` keeps them in step
provides_tools: [${namespace}_count_words]
""")

INIT: Final = Template('''\
"""$name: a hermes-agent plugin."""

from hermes_plugin_kit import register_plugin

from . import tools


def register(ctx):
    """Called by hermes with its PluginContext: registers every declaration of tools.py."""
    return register_plugin(ctx, tools)
''')

TOOLS: Final = Template('''\
"""The tools and commands of $name."""

from __future__ import annotations

from typing import Any

from hermes_plugin_kit import command, int_arg, str_arg, tool, tool_name


@tool(
    toolset="$name",
    namespace="$namespace",
    name=tool_name("$namespace", "count", "words"),
    params={
        "text": str_arg("The text to count words in", required=True, example="one two three"),
        "top": int_arg("How many of the most frequent words to list", minimum=0, maximum=50),
    },
)
def count_words(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Count the words of a text and list the most frequent ones."""
    words = args["text"].lower().split()
    frequency: dict[str, int] = {}
    for word in words:
        frequency[word] = frequency.get(word, 0) + 1
    ranked = sorted(frequency.items(), key=lambda item: (-item[1], item[0]))
    return {"words": len(words), "top": ranked[: args.get("top", 3)]}


@command("$name-status")
def status(raw_args: str) -> str:
    """Say that $name is loaded."""
    return "$name is loaded"
''')

TEST: Final = Template('''\
"""Tests of $name, on the kit's in-memory hermes host and, with ``--hermes``, on real
hermes-agent releases (``any_host``: ``pytest --hermes $floor,$newest`` runs each test on
the in-memory host and on both releases)."""

import json
from pathlib import Path

PLUGIN = Path(__file__).resolve().parents[1] / "src" / "$package"


def test_the_tool_reaches_the_model_with_its_arguments(any_host):
    plugin = any_host.load(PLUGIN)
    assert plugin.enabled, plugin.error
    definitions = {d["function"]["name"]: d["function"] for d in any_host.definitions()}
    assert definitions["${namespace}_count_words"]["parameters"]["required"] == ["text"]


def test_the_tool_answers_with_the_envelope(any_host):
    any_host.load(PLUGIN)
    out = json.loads(any_host.call_tool("${namespace}_count_words", {"text": "a b a"}))
    assert out == {"success": True, "data": {"words": 3, "top": [["a", 2], ["b", 1]]}}
    missing = json.loads(any_host.call_tool("${namespace}_count_words", {}))
    assert missing["error"] == "text is required (e.g. 'one two three')"


def test_the_status_command_answers(any_host):
    any_host.load(PLUGIN)
    assert any_host.run_command("$name-status") == "$name is loaded"
''')

README: Final = Template("""\
# $name

A hermes-agent plugin built with hermes-plugin-kit.

    uv run python -m pytest                            # its tests, on the kit's in-memory host
    uv run python -m pytest --hermes $floor,$newest    # and on real hermes, oldest and newest
    uv run hermes-plugin-kit check src/$package        # what hermes will see, and the lint
    uv run hermes-plugin-kit preflight src/$package    # hermes' catalogue admission rules

`.github/workflows/plugin.yml` runs all four on every push.

## Into hermes

Install the project into the Python environment hermes runs in: that brings the kit from
the commit `pyproject.toml` pins, and the entry point (`hermes_agent.plugins`) hermes
finds the plugin by. Then enable it:

    uv pip install --python "$$(head -1 "$$(command -v hermes)" | cut -c3-)" .
    hermes plugins enable $name

(the first line reads hermes' Python off the `hermes` command's first line; give its path
yourself if that is not a `#!` line). Copying `src/$package` into `~/.hermes/plugins/` is
not enough on its own: hermes then fails with `No module named 'hermes_plugin_kit'` until
the kit is installed into its environment too.
""")


STANDALONE: Final = ProjectKind(
    description="A hermes-agent plugin.",
    dependencies='"$requirement"',
    entry_points=GENERAL_PLUGIN_ENTRY_POINT,
    files={
        "README.md": README,
        "src/$package/plugin.yaml": PLUGIN_YAML,
        "src/$package/__init__.py": INIT,
        "src/$package/tools.py": TOOLS,
        "tests/test_$package.py": TEST,
    },
)
