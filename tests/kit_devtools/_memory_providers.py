"""Memory-provider plugin directories, shared by the unit tests of ``check`` and by the
real-host parity test (tests/host/test_memory_provider_parity.py): each is what a
published provider looks like, or one of the ways one goes wrong."""

from __future__ import annotations

import textwrap
from pathlib import Path

BASE = """
from agent.memory_provider import MemoryProvider

TOOL = {
    "name": "recall_search",
    "description": "Search what the user asked to be remembered.",
    "parameters": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "What to look for."}},
        "required": ["query"],
    },
}


class Recall(MemoryProvider):
    @property
    def name(self):
        return "recall"

    def is_available(self):
        return True

    def initialize(self, session_id, **kwargs):
        pass

    def get_tool_schemas(self):
        return [TOOL]
"""

SOURCES: dict[str, str] = {
    # registered through register(ctx), as hermes' bundled providers do
    "by_register": BASE + "\n\ndef register(ctx):\n    ctx.register_memory_provider(Recall())\n",
    # no register(): hermes instantiates the MemoryProvider subclass
    "by_subclass": BASE,
    # register() raises: hermes logs it and falls back to the subclass
    "register_raises": BASE + "\n\ndef register(ctx):\n    ctx.register_tool('x')\n"
    "    raise RuntimeError('no key')\n",
    # an already wrapped schema: hermes' memory manager unwraps it
    "wrapped_schema": BASE.replace(
        "return [TOOL]", "return [{'type': 'function', 'function': TOOL}]"
    )
    + "\n\ndef register(ctx):\n    ctx.register_memory_provider(Recall())\n",
    # mentions MemoryProvider but registers tools: hermes skips it (exclusive), and finds
    # no provider in it
    "not_a_provider": "# not a MemoryProvider, a tool plugin\n\ndef register(ctx):\n"
    "    ctx.register_tool(name='recall_x', toolset='recall', schema={}, handler=None)\n",
    # a tool named like a core tool: hermes' memory manager drops it from 0.17.0 on
    "core_named": BASE.replace('"recall_search"', '"clarify"')
    + "\n\ndef register(ctx):\n    ctx.register_memory_provider(Recall())\n",
    # a tool without a name: hermes' memory manager skips it
    "nameless_tool": BASE.replace("return [TOOL]", "return [TOOL, {'description': 'no name'}]")
    + "\n\ndef register(ctx):\n    ctx.register_memory_provider(Recall())\n",
}


def provider_dir(root: Path, name: str, manifest: str = "") -> Path:
    """``root/<name>`` holding the provider ``name`` of :data:`SOURCES`."""
    directory = root / name
    directory.mkdir(parents=True)
    (directory / "__init__.py").write_text(textwrap.dedent(SOURCES[name]), encoding="utf-8")
    text = manifest or f"name: {name}\nversion: 0.1.0\ndescription: A memory provider.\n"
    (directory / "plugin.yaml").write_text(text, encoding="utf-8")
    return directory
