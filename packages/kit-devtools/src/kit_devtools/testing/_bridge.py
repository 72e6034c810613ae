"""What the model is sent by default on a release with the tool-search bridge on.

From 0.20.0 (``HostRelease.bridge_default``) ``model_tools._compute_tool_definitions``
ends with ``tools.tool_search.assemble_tool_defs`` under the default
``tools.tool_search.enabled: auto``: every plugin tool (not in ``toolsets._HERMES_CORE_TOOLS``)
is deferred, and the model gets ``tool_search`` / ``tool_describe`` / ``tool_call`` in their
place. Each deferred tool is one line of the catalog listing embedded at the end of
``tool_search``'s description (``build_catalog_listing_with_form``: 0.20.0
``tools/tool_search.py``; 0.21.3 on ``tools/tool_search_catalog.py``), and its schema
reaches the model only as ``tool_describe``'s answer (``dispatch_tool_describe``: the
sanitized ``description`` and ``parameters``).

Rules re-done here, read from 0.20.0 and 0.22.2:

* listing: the header ``Deferred tool catalog (call schemas via `tool_describe`, invoke
  via `tool_call`):``, then per toolset (sorted; ``mcp-`` dropped) ``<toolset> tools
  (<n>):`` and one ``- <name>: <first sentence>`` line per tool, sorted; when that is over
  the budget (``ceil(len / 4)`` tokens over ``min(listing_max_tokens 4000, 5 % of the
  context)``, 4000 with no model configured) the names only, then the biggest groups
  summarised, then no listing;
* first sentence (``_short_desc``, clipped to 60 characters on a word boundary with
  ``…``): up to the first ``.``, ``!``, ``?`` or newline, keeping only a ``.``, in 0.20.0
  to 0.20.5; from 0.20.6 up to a ``.``, ``!`` or ``?`` followed by white space or the end,
  kept, not after ``e.g``, ``i.e`` or ``etc`` (``_SENTENCE_END_RE``).

The bridge tools' own descriptions and argument shapes change from release to release
(``tool_describe`` takes ``name`` in 0.20.0-0.20.5, ``names`` from 0.20.6; ``tool_call``
takes ``calls`` from 0.21.3) and are not re-done: the model view gives their names, the
listing, each tool's entry and what ``tool_describe`` answers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kit_core.hermes import HostRelease, version_key

SWITCH_OFF: str = 'tools: {tool_search: {enabled: "off"}}'
"""What an operator puts in ``config.yaml`` to send the model the plugins' own schemas
(``tools/tool_search.py`` ``load_config`` reads ``tools.tool_search``)."""

_HEADER = "Deferred tool catalog (call schemas via `tool_describe`, invoke via `tool_call`):"
_BUDGET_TOKENS = 4000  # min(listing_max_tokens 4000, 10_000 when the context is unknown)
_OLD_SENTENCE_END = re.compile(r"[.!?\n]")  # 0.20.0 tools/tool_search.py
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](?=\s|$)")  # 0.20.6 on
_SENTENCE_RULE_FROM = (0, 20, 6)  # the first release with _SENTENCE_END (no fact for it)


@dataclass(frozen=True)
class ModelView:
    """What the model is sent for the plugins' tools with the default configuration."""

    bridge: bool
    """Whether the bridge replaces the tools (the release's default, and a tool to defer)."""
    tools: tuple[str, ...]
    """The names the model gets: the bridge's three, or the tools themselves."""
    listing: str | None = None
    """The catalog block at the end of ``tool_search``'s description."""
    entries: Mapping[str, str] = field(default_factory=dict[str, str])
    """Each deferred tool's line in that block (``- name: first sentence``)."""
    described: Mapping[str, Mapping[str, Any]] = field(default_factory=dict[str, Mapping[str, Any]])
    """What ``tool_describe`` answers for each: ``description`` and ``parameters``."""
    switch_off: str = SWITCH_OFF
    """The ``config.yaml`` lines that switch the bridge off."""


def short_description(description: str, release: HostRelease, max_chars: int = 60) -> str:
    """``_short_desc``: the first sentence, clipped to ``max_chars`` on a word boundary."""
    text = " ".join((description or "").split())
    if version_key(release.version) >= _SENTENCE_RULE_FROM:
        found = _SENTENCE_END.search(text)
        text = text[: found.end()] if found else text
    elif (found := _OLD_SENTENCE_END.search(text)) is not None:
        text = text[: found.start() + (1 if text[found.start()] == "." else 0)]
    if len(text) <= max_chars:
        return text
    clipped = text[:max_chars]
    clipped = clipped.rsplit(" ", 1)[0] if " " in clipped else clipped
    return clipped.rstrip(",;: ") + "…"


def _listing(groups: Mapping[str, list[tuple[str, str]]]) -> str | None:
    def render(label: str, mode: str) -> str:
        tools = sorted(groups[label])
        if mode == "summary":
            return f"{label} ({len(tools)} tools — names not listed; discover via `tool_search`)"
        if mode == "full":
            lines = [f"- {name}: {desc}" if desc else f"- {name}" for name, desc in tools]
        else:
            lines = [", ".join(name for name, _ in tools)]
        return "\n".join([f"{label} tools ({len(tools)}):", *lines])

    def assembled(modes: Mapping[str, str]) -> str | None:
        text = "\n".join([_HEADER] + [render(label, modes[label]) for label in sorted(groups)])
        return text if math.ceil(len(text) / 4.0) <= _BUDGET_TOKENS else None

    for mode in ("full", "names"):
        modes = dict.fromkeys(groups, mode)
        if (text := assembled(modes)) is not None:
            return text
    for label in sorted(groups, key=lambda lbl: (-len(render(lbl, "names")), lbl)):
        modes[label] = "summary"
        if (text := assembled(modes)) is not None:
            return text
    return None


def model_view(
    release: HostRelease, definitions: Sequence[dict[str, Any]], toolsets: Mapping[str, str]
) -> ModelView:
    """The model's view of ``definitions`` (sanitized, as the release sends them; every one a
    plugin tool, so deferrable) on ``release``; ``toolsets``: tool name -> toolset."""
    names = tuple(d["function"]["name"] for d in definitions)
    if not release.bridge_default or not definitions:
        return ModelView(bridge=False, tools=names)
    groups: dict[str, list[tuple[str, str]]] = {}
    entries: dict[str, str] = {}
    described: dict[str, Mapping[str, Any]] = {}
    for definition in definitions:
        function = definition["function"]
        name = function["name"]
        short = short_description(function.get("description", ""), release)
        label = (toolsets.get(name) or "other").removeprefix("mcp-")
        groups.setdefault(label, []).append((name, short))
        entries[name] = f"- {name}: {short}" if short else f"- {name}"
        described[name] = {
            "description": function.get("description", ""),
            "parameters": function.get("parameters", {}),
        }
    return ModelView(
        bridge=True,
        tools=tuple(sorted(release.bridge_tools)),
        listing=_listing(groups),
        entries=entries,
        described=described,
    )
