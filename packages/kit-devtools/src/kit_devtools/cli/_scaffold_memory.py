"""The ``memory-provider`` project of ``hermes-plugin-kit new``: a subclass of hermes' own
``agent.memory_provider.MemoryProvider`` keeping its notes in a JSON file of the hermes
home, with one tool, and tests running the kit's memory-provider contract suite on it.

hermes finds a memory provider by its folder, ``$HERMES_HOME/plugins/<folder>``, whose
``__init__.py`` registers one, on every release, and (0.20.1 on) by a
``hermes_agent.memory_providers`` entry point; ``memory.provider: <name>`` activates it
(``plugins/memory/__init__.py``). It is not a general plugin: no ``hermes_agent.plugins``
entry point (on 0.19.0 the general loader would call its ``register`` with a context that
has no ``register_memory_provider``), and its ``plugin.yaml`` has no ``kind``, which hermes'
loader reads as ``exclusive``.
"""

from __future__ import annotations

from string import Template
from typing import Final

from kit_devtools.cli._scaffold_kinds import provider_kind

MEMORY_ENTRY_POINT: Final = "plugins.memory.find_provider_entry_point"
"""What a release that finds memory providers by entry point has (``HostRelease.functions``)."""

PLUGIN_YAML: Final = Template("""\
name: $package
version: 0.1.0
description: A hermes-agent memory provider built with hermes-plugin-kit
# no `kind`: hermes reads a folder whose __init__.py registers a MemoryProvider as
# `exclusive`, loaded by its memory discovery when config.yaml says memory.provider: $package
""")

INIT: Final = Template('''\
"""$name: a hermes-agent memory provider keeping what the user says in a JSON file."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from agent.memory_provider import MemoryProvider

SEARCH = {
    "name": "${package}_search",
    "description": "Search what the user said in earlier turns and sessions.",
    "parameters": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "The words to look for"}},
        "required": ["query"],
    },
}


class $provider(MemoryProvider):
    """Keeps each thing the user says in ``<hermes home>/$package.json``."""

    def __init__(self) -> None:
        self._notes: list[str] = []
        self._lock = threading.Lock()  # hermes calls sync_turn from a thread of its own
        self._file: Path | None = None

    @property
    def name(self) -> str:
        return "$package"

    def is_available(self) -> bool:
        return True  # configuration and packages only: no network here

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        # **kwargs: every release passes keywords of its own (platform, hermes_home, ...)
        self._file = Path(kwargs["hermes_home"]) / "$package.json"
        if self._file.is_file():
            self._notes = json.loads(self._file.read_text(encoding="utf-8"))

    def system_prompt_block(self) -> str:
        return "Use ${package}_search to look up what the user said before."

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        return "\\n".join(self.search(query))

    def sync_turn(self, user_content: str, assistant_content: str, **kwargs: Any) -> None:
        with self._lock:  # quick: nothing slow on the turn's path
            self._notes.append(user_content)

    def on_memory_write(self, action: str, target: str, content: str, metadata: Any = None) -> None:
        if action == "add":
            with self._lock:
                self._notes.append(content)

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return [SEARCH]  # bare schemas: hermes wraps them for the model

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        if tool_name != SEARCH["name"]:
            return json.dumps({"error": f"$package has no tool {tool_name!r}"})
        return json.dumps({"notes": self.search(str(args.get("query", "")))})

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self.save()

    def shutdown(self) -> None:
        self.save()

    def search(self, query: str) -> list[str]:
        """The notes sharing a word with ``query``."""
        words = set(query.lower().split())
        with self._lock:
            return [note for note in self._notes if words & set(note.lower().split())]

    def save(self) -> None:
        if self._file is not None:
            with self._lock:
                self._file.write_text(json.dumps(self._notes), encoding="utf-8")


def register(ctx: Any) -> None:
    """Called by hermes' memory discovery with its collector."""
    ctx.register_memory_provider($provider())
''')

TEST: Final = Template('''\
"""Tests of $name: the kit's memory-provider contract suite (``memory_provider_contract``
drives the provider as hermes drives it, on the in-memory host and, with ``--hermes``, on
real releases: ``pytest --hermes $floor,$newest``), and what it remembers."""

import json
from pathlib import Path

from $package import $provider

PROVIDER = Path(__file__).resolve().parents[1] / "src" / "$package"


def test_the_provider_keeps_the_memory_provider_contract(memory_provider_contract):
    memory_provider_contract(PROVIDER).assert_ok()


def test_what_the_user_said_is_found_in_a_later_session(tmp_path):
    first = $provider()
    first.initialize("session-1", hermes_home=str(tmp_path), platform="cli")
    first.sync_turn("I drink green tea every morning", "Noted.")
    first.shutdown()
    later = $provider()
    later.initialize("session-2", hermes_home=str(tmp_path), platform="cli")
    found = json.loads(later.handle_tool_call("${package}_search", {"query": "tea"}))
    assert found == {"notes": ["I drink green tea every morning"]}
    assert later.prefetch("tea or coffee") == "I drink green tea every morning"
''')

README: Final = Template("""\
# $name

A hermes-agent memory provider built with hermes-plugin-kit: `src/$package` subclasses
hermes' own `agent.memory_provider.MemoryProvider` (the dev group installs
$hermes_requirement for it).

$provider_checks

## Into hermes

hermes' memory discovery loads a provider from a folder of `$$HERMES_HOME/plugins`
(`~/.hermes/plugins` by default) on every release. Copy the package there under its own
name, and make it the active provider (one runs at a time, beside hermes' built-in memory):

    cp -r src/$package "$${HERMES_HOME:-$$HOME/.hermes}/plugins/$package"
    hermes config set memory.provider $package

(or `memory.provider: $package` under `memory:` in `config.yaml`). The provider needs
nothing but hermes itself, so the copy is enough.

From hermes $memory_entry_points on, installing the project into hermes' Python environment
works too:
its `hermes_agent.memory_providers` entry point is found by the same name.

    uv pip install --python "$$(head -1 "$$(command -v hermes)" | cut -c3-)" .

Older releases read no entry point for a memory provider: there, only the folder works.
The provider is not a general plugin, so `hermes plugins enable` does not apply.
""")

MEMORY_PROVIDER: Final = provider_kind(
    "A hermes-agent memory provider.",
    "# hermes $memory_entry_points and later find a pip-installed memory provider through"
    " this entry point\n"
    '[project.entry-points."hermes_agent.memory_providers"]\n$package = "$package"\n\n',
    (README, PLUGIN_YAML, INIT, TEST),
)
