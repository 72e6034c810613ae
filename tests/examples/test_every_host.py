"""The three examples written once and run on every host: the in-memory host (``memory``)
and each hermes ``--hermes`` selects (the installed one, ``hermes-0.19.0``, through the
kit's ``addopts``; ``./scripts/test`` also runs them on 0.13.0, the oldest release, and
0.17.0). team-notes registers middleware, which hermes offers from 0.17.0 on: on an older
release the kit refuses the whole plugin, saying which release brought it, and hermes does
not load it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kit_core.hermes import registry_release
from kit_devtools.testing import InMemoryHost, PluginLoadError, RealHost

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
Host = InMemoryHost | RealHost


def call(host: Host, name: str, args: dict[str, Any]) -> Any:
    return json.loads(host.call_tool(name, args, task_id="t", session_id="s"))


def load(host: Host, example: str, request: pytest.FixtureRequest) -> Any:
    """Load the example and return what the host made of it; None when this host is (or
    plays) a release without middleware, which the kit refuses team-notes on (checked
    here)."""
    choice = request.node.callspec.params.get("any_host")
    version = getattr(choice, "version", None) if getattr(choice, "real", False) else None
    release = registry_release(version) if version else getattr(host, "release", None)
    if (
        example == "team-notes"
        and release is not None
        and not release.offers("register_middleware")
    ):
        with pytest.raises(PluginLoadError, match="register_middleware"):
            host.load(EXAMPLES / example)
        return None
    plugin = host.load(EXAMPLES / example)
    assert plugin.enabled
    return plugin


@pytest.mark.parametrize(
    ("example", "tools"),
    [
        ("unit-convert", ["units_convert_length", "units_convert_temperature"]),
        ("team-notes", ["notes_add_note", "notes_list_notes"]),
        ("media-postcard", ["postcard_send_picture"]),
    ],
)
def test_each_example_loads_with_its_tools(
    any_host: Host, example: str, tools: list[str], request: pytest.FixtureRequest
) -> None:
    plugin = load(any_host, example, request)
    if plugin is None:
        return
    assert sorted(plugin.tools) == sorted(tools)  # what the host credits the plugin with
    assert [d["function"]["name"] for d in any_host.definitions()] == tools
    for definition in any_host.definitions():
        assert set(definition["function"]) >= {"name", "description", "parameters"}


def test_unit_convert_answers_and_refuses(any_host: Host) -> None:
    any_host.load(EXAMPLES / "unit-convert")
    assert call(any_host, "units_convert_length", {"value": 3, "from_unit": "mi", "to_unit": "km"})[
        "data"
    ] == {"value": 4.828032, "unit": "km"}
    refused = call(any_host, "units_convert_temperature", {"value": 1, "from_scale": "rankine"})
    assert refused["success"] is False


def test_team_notes_middleware_command_and_hook(
    any_host: Host, request: pytest.FixtureRequest
) -> None:
    if load(any_host, "team-notes", request) is None:
        return
    tag = f"every-{request.node.callspec.id}"
    added = call(any_host, "notes_add_note", {"text": "Ship v2", "tags": [f" {tag.upper()} "]})
    assert added["data"]["tags"] == [tag]  # tool_request middleware, run by the host
    assert any_host.run_command("notes-count", tag) == f"1 note(s) tagged {tag}"
    (context,) = any_host.invoke_hook("pre_llm_call", session_id="s")
    assert "shared note(s)" in context["context"]


def test_media_postcard_refuses_a_bad_call(any_host: Host) -> None:
    any_host.load(EXAMPLES / "media-postcard")
    out = call(any_host, "postcard_send_picture", {})
    assert out["success"] is False
    assert any_host.invoke_hook("on_session_end", session_id="s") == []
