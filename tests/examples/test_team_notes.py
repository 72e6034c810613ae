"""The team-notes example, every surface driven through the in-memory host."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import InMemoryHost

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "team-notes"


@pytest.fixture
def host(plugin_host: InMemoryHost) -> InMemoryHost:
    plugin = plugin_host.load(PLUGIN)
    assert plugin.enabled, plugin.error
    surfaces = plugin.module.surfaces  # type: ignore[union-attr]
    surfaces.NOTES.clear()
    surfaces.LATENCIES.clear()
    return plugin_host


def call(host: InMemoryHost, name: str, args: dict[str, Any]) -> Any:
    return json.loads(host.call_tool(name, args, task_id="t", session_id="s"))


def test_tags_are_normalised_by_middleware_and_the_call_is_timed(host: InMemoryHost) -> None:
    out = call(host, "notes_add_note", {"text": "Ship v2 on Friday", "tags": [" Release ", "Q4"]})
    assert out == {
        "success": True,
        "data": {"id": 1, "text": "Ship v2 on Friday", "tags": ["release", "q4"]},
    }
    surfaces = host.plugins["team-notes"].module.surfaces  # type: ignore[union-attr]
    assert set(surfaces.LATENCIES) == {"notes_add_note"}


def test_listing_filters_and_limits(host: InMemoryHost) -> None:
    for text, tags in (("a", ["x"]), ("b", []), ("c", ["x"])):
        call(host, "notes_add_note", {"text": text, "tags": tags})
    listed = call(host, "notes_list_notes", {"tag": "x", "limit": 1})["data"]
    assert listed == {"notes": [{"id": 3, "text": "c", "tags": ["x"]}], "total": 2}
    assert (
        call(host, "notes_list_notes", {"limit": 0})["error"] == "limit must be >= 1; got integer 0"
    )


def test_the_slash_command_counts(host: InMemoryHost) -> None:
    call(host, "notes_add_note", {"text": "a", "tags": ["x"]})
    assert host.run_command("notes-count") == "1 note(s)"
    assert host.run_command("notes-count", "y") == "0 note(s) tagged y"


def test_the_cli_command_exports_json_lines(
    host: InMemoryHost, capsys: pytest.CaptureFixture[str]
) -> None:
    call(host, "notes_add_note", {"text": "a", "tags": ["x"]})
    call(host, "notes_add_note", {"text": "b"})
    assert host.run_cli(["team-notes", "--tag", "x"]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == [
        {"id": 1, "text": "a", "tags": ["x"]}
    ]


def test_the_context_hook_speaks_only_when_there_are_notes(host: InMemoryHost) -> None:
    assert host.invoke_hook("pre_llm_call", session_id="s", user_message="hi") == []
    call(host, "notes_add_note", {"text": "a"})
    assert host.invoke_hook("pre_llm_call", session_id="s", user_message="hi") == [
        {"context": "The team has 1 shared note(s); use notes_list_notes to read them."}
    ]


FULL = "notes_add_note failed: the notes are full (1); remove old notes first"


def test_settings_come_from_the_profile_config() -> None:
    # plugins.entries.<name>.settings: read on every release (hermes' own place for them
    # from 0.20.1, where ctx.get_config reads it; the kit reads it on older ones too)
    host = InMemoryHost(
        config={"plugins": {"entries": {"team-notes": {"settings": {"max_notes": 1}}}}}
    )
    plugin = host.load(PLUGIN)
    plugin.module.surfaces.NOTES.clear()  # type: ignore[union-attr]
    assert call(host, "notes_add_note", {"text": "a"})["success"] is True
    assert call(host, "notes_add_note", {"text": "b"})["error"] == FULL


def keyed_config(host: InMemoryHost) -> bool:
    """Whether this release's context reads settings by key, for its plugin_id
    (``PluginContext.get_config(key, default)``, from 0.20.1)."""
    return {"get_config", "plugin_id"} <= set(host.release.context)


def test_the_legacy_table_is_read_where_the_host_has_no_keyed_config(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # plugins.<name>: hermes-agent 0.19.0's convention; a release whose ctx.get_config reads
    # plugins.entries.<id> never reads it, and the kit says so rather than drop it unsaid
    host = InMemoryHost(config={"plugins": {"team-notes": {"max_notes": 1}}})
    caplog.set_level(logging.WARNING, logger="hermes_plugin_kit")
    plugin = host.load(PLUGIN)
    plugin.module.surfaces.NOTES.clear()  # type: ignore[union-attr]
    assert call(host, "notes_add_note", {"text": "a"})["success"] is True
    second = call(host, "notes_add_note", {"text": "b"})
    unread = [
        r.getMessage() for r in caplog.records if "is not read by this hermes" in r.getMessage()
    ]
    if keyed_config(host):
        assert second["success"] is True
        assert unread == [
            "hermes_plugin_kit: plugin config for team-notes: plugins.team-notes is not read by"
            " this hermes, whose ctx.get_config reads plugins.entries.team-notes.settings; move"
            " the settings there"
        ]
    else:
        assert second["error"] == FULL
        assert unread == []


def test_the_skill_is_registered_under_the_plugin(host: InMemoryHost) -> None:
    skill = host.skills["team-notes:note-taking"]
    assert skill.path.name == "SKILL.md"
    assert skill.path.is_file()
