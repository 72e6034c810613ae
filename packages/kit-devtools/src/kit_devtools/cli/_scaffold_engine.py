"""The ``context-engine`` project of ``hermes-plugin-kit new``: a general plugin whose
``register`` gives hermes a subclass of its own ``agent.context_engine.ContextEngine``
(a trimmer keeping the system prompt and the latest messages), with tests running the kit's
context-engine contract suite on it.

hermes' general loader loads it (folder or ``hermes_agent.plugins`` entry point, enabled
with ``hermes plugins enable``); ``context.engine: <engine name>`` in ``config.yaml``
selects the engine ``register_context_engine`` received (``agent.agent_init.init_agent``).
"""

from __future__ import annotations

from string import Template
from typing import Final

from kit_devtools.cli._scaffold_kinds import GENERAL_PLUGIN_ENTRY_POINT, provider_kind

PLUGIN_YAML: Final = Template("""\
name: $name
version: 0.1.0
description: A hermes-agent context engine built with hermes-plugin-kit
kind: standalone
requires_hermes: ">=$floor"
# manifest v1: the installer of the older hermes releases refuses manifest_version 2
manifest_version: 1
""")

INIT: Final = Template('''\
"""$name: a hermes-agent context engine that trims the conversation to its latest turns."""

from __future__ import annotations

from typing import Any

from agent.context_engine import ContextEngine

KEEP = 6
"""The latest messages kept when hermes asks to compress (beside the system prompt)."""


class $provider(ContextEngine):
    """Keeps the system prompt and the latest :data:`KEEP` messages."""

    @property
    def name(self) -> str:
        return "$package"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.last_prompt_tokens = usage.get("prompt_tokens", 0)

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return bool(self.threshold_tokens) and (prompt_tokens or 0) >= self.threshold_tokens

    def compress(
        self, messages: list[dict[str, Any]], current_tokens: int | None = None, **kwargs: Any
    ) -> list[dict[str, Any]]:
        # **kwargs: hermes passes the keywords its release has (focus_topic, force, ...)
        system = [m for m in messages[:1] if m.get("role") == "system"]
        rest = messages[len(system) :]
        if len(rest) <= KEEP:
            return list(messages)
        self.compression_count += 1
        latest = rest[-KEEP:]
        while latest and latest[0].get("role") == "tool":  # never a result without its call
            latest = latest[1:]
        return system + latest


def register(ctx: Any) -> None:
    """Called by hermes with its PluginContext: hermes keeps one engine per process."""
    ctx.register_context_engine($provider())
''')

TEST: Final = Template('''\
"""Tests of $name: the kit's context-engine contract suite (``check_provider`` drives the
engine as hermes drives it, on each host ``any_host`` gives: the in-memory host and, with
``--hermes``, real releases: ``pytest --hermes $floor,$newest``), and what it keeps."""

from pathlib import Path

from kit_devtools.testing.contracts import check_provider

from $package import KEEP, $provider

PLUGIN = Path(__file__).resolve().parents[1] / "src" / "$package"


def test_the_engine_keeps_the_context_engine_contract(any_host):
    check_provider(PLUGIN, kind="context-engine", host=any_host).assert_ok()


def test_compress_keeps_the_system_prompt_and_the_latest_messages():
    system = {"role": "system", "content": "You are helpful."}
    turns = [{"role": ("user", "assistant")[i % 2], "content": str(i)} for i in range(10)]
    engine = $provider()
    kept = engine.compress([system, *turns])
    assert kept == [system, *turns[-KEEP:]]
    assert engine.compression_count == 1
    assert engine.compress([system, *turns[:2]]) == [system, *turns[:2]]
''')

README: Final = Template("""\
# $name

A hermes-agent context engine built with hermes-plugin-kit: `src/$package` subclasses
hermes' own `agent.context_engine.ContextEngine` (the dev group installs
$hermes_requirement for it).

$provider_checks

## Into hermes

The engine is a general plugin: install the project into the Python environment hermes
runs in (its `hermes_agent.plugins` entry point), or copy `src/$package` into
`~/.hermes/plugins/$package`; enable it, and select its engine:

    uv pip install --python "$$(head -1 "$$(command -v hermes)" | cut -c3-)" .
    hermes plugins enable $name
    hermes config set context.engine $package

It needs nothing but hermes itself, so the copy is enough.
""")

CONTEXT_ENGINE: Final = provider_kind(
    "A hermes-agent context engine.", GENERAL_PLUGIN_ENTRY_POINT, (README, PLUGIN_YAML, INIT, TEST)
)
