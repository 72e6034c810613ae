"""team-notes with its tools declared by their typed signatures instead of ``params=``.

The tools are the same as in ``surfaces.py`` (the tests compare what hermes sends the
model for both); the commands, middleware and hooks are ``surfaces.py``'s, imported
here so that ``register_plugin(ctx, typed)`` registers the whole plugin.
"""

from __future__ import annotations

from typing import Annotated, Any

from hermes_plugin_kit import Arg, tool, tool_name

from .surfaces import (
    add,
    configure,
    export_notes,
    forget_latencies,
    listing,
    lowercase_tags,
    mention_notes,
    notes_count,
    time_notes_tools,
)

__all__ = [
    "add_note",
    "configure",
    "export_notes",
    "forget_latencies",
    "list_notes",
    "lowercase_tags",
    "mention_notes",
    "notes_count",
    "time_notes_tools",
]


@tool(toolset="team-notes", namespace="notes", name=tool_name("notes", "add", "note"), emoji="🗒")
def add_note(
    text: Annotated[str, Arg(example="Ship v2 on Friday")],
    tags: Annotated[
        tuple[Annotated[str, "a tag"], ...], Arg(max_items=5, example=["release"])
    ] = (),
) -> dict[str, Any]:
    """Add a note to the team's shared notes.

    Args:
        text: The note, one or two sentences
        tags: Short lowercase tags
    """
    return add(text, list(tags))


@tool(toolset="team-notes", namespace="notes", name=tool_name("notes", "list", "notes"))
def list_notes(
    tag: str | None = None,
    limit: Annotated[int, Arg(minimum=1, maximum=50, example=10)] = 10,
) -> dict[str, Any]:
    """List the team's notes, newest first.

    Args:
        tag: Only notes with this tag
        limit: At most this many, newest first
    """
    return listing(tag, limit)
