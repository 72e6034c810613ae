"""The declarations of team-notes: tools, commands, middleware and hooks."""

from __future__ import annotations

import argparse
import json
import threading
import time
from typing import Any

from hermes_plugin_kit import (
    CommandType,
    MiddlewareKind,
    array_arg,
    command,
    hook,
    int_arg,
    middleware,
    str_arg,
    tool,
    tool_name,
)

_lock = threading.Lock()
NOTES: list[dict[str, Any]] = []
SETTINGS: dict[str, Any] = {"max_notes": 200}
LATENCIES: dict[str, float] = {}


def configure(config: dict[str, Any]) -> None:
    """Apply the plugin's settings (plugins.team-notes in the hermes config)."""
    SETTINGS["max_notes"] = int(config.get("max_notes", SETTINGS["max_notes"]))


@tool(
    toolset="team-notes",
    namespace="notes",
    name=tool_name("notes", "add", "note"),
    emoji="🗒",
    params={
        "text": str_arg(
            "The note, one or two sentences", required=True, example="Ship v2 on Friday"
        ),
        "tags": array_arg(
            "Short lowercase tags",
            items=str_arg("a tag"),
            max_items=5,
            example=["release"],
            default=[],
        ),
    },
)
def add_note(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Add a note to the team's shared notes."""
    return add(args["text"], args["tags"])


def add(text: str, tags: list[str]) -> dict[str, Any]:
    """Keep a note (shared with the typed declaration in ``typed.py``)."""
    with _lock:
        if len(NOTES) >= SETTINGS["max_notes"]:
            msg = f"the notes are full ({SETTINGS['max_notes']}); remove old notes first"
            raise RuntimeError(msg)
        note = {"id": len(NOTES) + 1, "text": text, "tags": tags}
        NOTES.append(note)
    return note


@tool(
    toolset="team-notes",
    namespace="notes",
    name=tool_name("notes", "list", "notes"),
    params={
        "tag": str_arg("Only notes with this tag"),
        "limit": int_arg(
            "At most this many, newest first", minimum=1, maximum=50, example=10, default=10
        ),
    },
)
def list_notes(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """List the team's notes, newest first."""
    return listing(args.get("tag"), args["limit"])


def listing(tag: str | None, limit: int) -> dict[str, Any]:
    """The newest notes, those with ``tag`` only when given (shared with ``typed.py``)."""
    with _lock:
        found = [n for n in NOTES if tag is None or tag in n["tags"]]
    return {"notes": found[::-1][:limit], "total": len(found)}


@command("notes-count", args_hint="[tag]")
def notes_count(raw_args: str) -> str:
    """Count the team's notes, or those with a tag."""
    tag = raw_args.strip()
    with _lock:
        count = sum(1 for n in NOTES if not tag or tag in n["tags"])
    return f"{count} note(s)" + (f" tagged {tag}" if tag else "")


def _export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tag", default=None, help="only notes with this tag")


@command("team-notes", type=CommandType.CLI, setup_fn=_export_arguments)
def export_notes(args: argparse.Namespace) -> int:
    """Print the team's notes as JSON lines."""
    with _lock:
        for note in NOTES:
            if args.tag is None or args.tag in note["tags"]:
                print(json.dumps(note))
    return 0


@middleware(MiddlewareKind.TOOL_REQUEST)
def lowercase_tags(**kwargs: Any) -> dict[str, Any] | None:
    """Normalise tags before guards and the tool see them."""
    args = kwargs["args"]
    if kwargs["tool_name"] != "notes_add_note" or not isinstance(args.get("tags"), list):
        return None
    tags = [t.strip().lower() for t in args["tags"] if isinstance(t, str)]
    return {"args": {**args, "tags": tags}, "source": "team-notes"}


@middleware(MiddlewareKind.TOOL_EXECUTION)
def time_notes_tools(**kwargs: Any) -> Any:
    """Record how long each notes tool takes."""
    started = time.perf_counter()
    try:
        return kwargs["next_call"](kwargs["args"])
    finally:
        if str(kwargs["tool_name"]).startswith("notes_"):
            LATENCIES[kwargs["tool_name"]] = time.perf_counter() - started


@hook("pre_llm_call")
def mention_notes(**kwargs: Any) -> dict[str, str] | None:
    """Tell the model, once per turn, how many notes exist."""
    with _lock:
        count = len(NOTES)
    if not count:
        return None
    return {"context": f"The team has {count} shared note(s); use notes_list_notes to read them."}


@hook("on_session_finalize")
def forget_latencies(**kwargs: Any) -> None:
    """Drop per-session measurements when a session really ends."""
    LATENCIES.clear()
