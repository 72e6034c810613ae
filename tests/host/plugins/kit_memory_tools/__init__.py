"""A memory provider whose tools are kit ``@tool``s answered by ``ProviderTools``.

hermes' memory discovery loads it from ``$HERMES_HOME/plugins/kit_memory_tools``
(``plugins.memory.load_memory_provider``) and its ``MemoryManager`` offers and routes the
tools (tests/host/test_provider_tools.py). Two tools: a typed method that reads the
provider's notes, and a spec-style function that needs no provider.
"""

from __future__ import annotations

from typing import Any

from agent.memory_provider import MemoryProvider

from hermes_plugin_kit import ProviderTools, str_arg, tool


@tool(toolset="kit_notes", params={"text": str_arg("What to echo back.", required=True)})
def kit_notes_echo(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Echo a text back."""
    return {"echo": args["text"]}


class KitNotes(MemoryProvider):
    """Notes kept in memory, searched by a kit tool."""

    def __init__(self) -> None:
        self.notes = ["buy milk", "call mum", "milk the cow"]

    @property
    def name(self) -> str:
        return "kit_notes"

    def is_available(self) -> bool:
        return True

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        pass

    @tool(toolset="kit_notes")
    def kit_notes_search(self, query: str, limit: int = 1) -> list[str]:
        """Search the notes.

        Args:
            query: words to look for.
            limit: the most notes to return.
        """
        return [note for note in self.notes if query in note][:limit]

    tools = ProviderTools(kit_notes_search, kit_notes_echo)

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return self.tools.schemas()

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        return self.tools.handle(tool_name, args, **kwargs)


def register(ctx: Any) -> None:
    ctx.register_memory_provider(KitNotes())
