"""``real_host`` and ``any_host``: the bundled examples loaded by the installed hermes-agent
through its own plugin manager, in a worker process, answering as the in-memory host does."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import InMemoryHost, PluginLoadError
from kit_devtools.testing.real import RealHost, RealHostCallError, RealHostDied

pytest_plugins = ("pytester",)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
UNIT_CONVERT = EXAMPLES / "unit-convert"
TEAM_NOTES = EXAMPLES / "team-notes"
MEDIA_POSTCARD = EXAMPLES / "media-postcard"


def plugin(tmp_path: Path, name: str, init: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "plugin.yaml").write_text(f"name: {name}\nversion: 0.1.0\n", encoding="utf-8")
    (folder / "__init__.py").write_text(textwrap.dedent(init), encoding="utf-8")
    return folder


def envelope(result: Any) -> Any:
    return json.loads(result) if isinstance(result, str) else result


# -- one test, every host ------------------------------------------------------------------


def test_any_host_runs_on_memory_and_the_installed_hermes(
    any_host: InMemoryHost | RealHost, request: pytest.FixtureRequest
) -> None:
    loaded = any_host.load(UNIT_CONVERT)
    assert loaded.enabled
    assert set(loaded.tools) == {"units_convert_length", "units_convert_temperature"}
    result = any_host.call_tool(
        "units_convert_temperature", {"value": 100, "from_scale": "celsius", "to_scale": "kelvin"}
    )
    assert envelope(result)["data"] == {"value": 373.15, "scale": "kelvin"}
    assert request.node.callspec.id in {"memory", "hermes-0.19.0"}


@pytest.mark.parametrize(
    "example", [UNIT_CONVERT, TEAM_NOTES, MEDIA_POSTCARD], ids=lambda p: p.name
)
def test_definitions_equal_the_in_memory_hosts(real_host: RealHost, example: Path) -> None:
    loaded = real_host.load(example)
    memory = InMemoryHost(strict=True)
    mine = memory.load(example)
    assert real_host.definitions() == memory.definitions()
    assert real_host.definitions() != []
    assert (loaded.enabled, loaded.tools, loaded.hooks, loaded.middleware, loaded.commands) == (
        mine.enabled,
        tuple(sorted(mine.tools)),
        tuple(sorted(mine.hooks)),
        tuple(sorted(mine.middleware)),
        tuple(sorted(mine.commands)),
    )
    assert real_host.version == "0.19.0"


CALLS = [
    (
        "units_convert_temperature",
        {"value": 21.5, "from_scale": "celsius", "to_scale": "fahrenheit"},
    ),
    ("units_convert_length", {"value": 3, "from_unit": "mi", "to_unit": "km"}),
    ("units_convert_temperature", {"value": -500, "from_scale": "celsius", "to_scale": "kelvin"}),
    ("units_convert_temperature", {"value": "hot"}),
    ("units_convert_length", None),
    ("no_such_tool", {}),
]


def test_calls_give_the_in_memory_hosts_envelopes(real_host: RealHost) -> None:
    real_host.load(UNIT_CONVERT)
    memory = InMemoryHost(strict=True)
    memory.load(UNIT_CONVERT)
    for name, args in CALLS:
        real = real_host.call_tool(name, args, task_id="t1")
        assert isinstance(real, str)
        assert json.loads(real) == json.loads(memory.call_tool(name, args, task_id="t1")), name
    assert json.loads(real_host.call_tool(*CALLS[0])) == {
        "success": True,
        "data": {"value": 70.7, "scale": "fahrenheit"},
    }
    assert json.loads(real_host.call_tool(*CALLS[2]))["error_code"] == "handler_error"
    assert json.loads(real_host.call_tool(*CALLS[5])) == {"error": "Unknown tool: no_such_tool"}


def test_team_notes_hooks_commands_middleware_and_receipt(real_host: RealHost) -> None:
    loaded = real_host.load(TEAM_NOTES)
    assert loaded.returned == {
        "type": "RegistrationSummary",
        "tools": ["notes_add_note", "notes_list_notes"],
        "hooks": ["on_session_finalize", "pre_llm_call"],
        "skills": ["note-taking"],
        "skipped_optional_skills": [],
        "commands": ["notes-count"],
        "middlewares": ["tool_execution", "tool_request"],
        "cli_commands": ["team-notes"],
    }
    assert loaded.listed["tools"] == 2
    assert real_host.invoke_hook("pre_llm_call", session_id="s") == []
    added = json.loads(real_host.call_tool("notes_add_note", {"text": "Ship", "tags": ["REL"]}))
    assert added["data"]["tags"] == ["rel"]  # the tool_request middleware ran in hermes
    assert real_host.invoke_hook("pre_llm_call", session_id="s") == [
        {"context": "The team has 1 shared note(s); use notes_list_notes to read them."}
    ]
    assert real_host.run_command("/notes-count", "rel") == "1 note(s) tagged rel"
    assert real_host.run_command("notes-count") == "1 note(s)"
    with pytest.raises(KeyError, match="notes-nothing"):
        real_host.run_command("notes-nothing")
    assert real_host.run_cli(["team-notes", "--tag", "rel"]) == 0
    assert '"text": "Ship"' in real_host.stderr_tail()  # what the command printed
    assert real_host.hooks == {"on_session_finalize": 1, "pre_llm_call": 1}
    assert real_host.middleware == {"tool_execution": 1, "tool_request": 1}
    assert set(real_host.commands) == {"notes-count"}
    assert set(real_host.cli_commands) == {"team-notes"}
    assert real_host.skills == ("team-notes:note-taking",)
    assert real_host.tools == {"notes_add_note": "team-notes", "notes_list_notes": "team-notes"}


def test_media_postcard_loads_with_its_hooks(real_host: RealHost) -> None:
    loaded = real_host.load(MEDIA_POSTCARD)
    assert loaded.hooks == ("on_session_end", "transform_llm_output")
    assert real_host.invoke_hook("on_session_end", session_id="s") == []
    assert [d["function"]["name"] for d in real_host.definitions()] == ["postcard_send_picture"]
    assert real_host.definitions(["no-such-toolset"]) == []


def test_two_plugins_in_one_host(real_host: RealHost) -> None:
    real_host.load(UNIT_CONVERT)
    real_host.load(TEAM_NOTES)  # a fresh worker with both
    assert set(real_host.plugins) >= {"unit-convert", "team-notes"}
    names = [d["function"]["name"] for d in real_host.definitions()]
    assert names == sorted(names)
    assert set(names) == {
        "notes_add_note",
        "notes_list_notes",
        "units_convert_length",
        "units_convert_temperature",
    }
    assert [d["function"]["name"] for d in real_host.definitions(["unit-convert"])] == [
        "units_convert_length",
        "units_convert_temperature",
    ]


def test_a_value_that_is_not_json_comes_back_as_repr(real_host: RealHost, tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        "odd",
        """
        def register(ctx):
            ctx.register_command("odd-set", lambda raw: {1, 2}, description="a set")
            ctx.register_command("odd-fail", _fail, description="raises")
            return "registered"

        def _fail(raw):
            raise RuntimeError("no " + raw)
        """,
    )
    loaded = real_host.load(folder)
    assert loaded.returned == "registered"
    assert real_host.run_command("odd-set") == "{1, 2}"
    with pytest.raises(RealHostCallError, match="RuntimeError: no luck") as raised:
        real_host.run_command("odd-fail", "luck")
    assert raised.value.type == "RuntimeError"
    assert "_fail" in raised.value.remote_traceback


# -- failures ----------------------------------------------------------------------------------


def test_a_plugin_whose_register_raises_is_a_clear_load_error(
    real_host: RealHost, tmp_path: Path
) -> None:
    folder = plugin(
        tmp_path,
        "breaks",
        """
        def register(ctx):
            raise ValueError("the api_key setting is missing")
        """,
    )
    with pytest.raises(PluginLoadError, match="did not load plugin 'breaks'") as raised:
        real_host.load(folder)
    assert "the api_key setting is missing" in str(raised.value)
    assert real_host.plugins["breaks"].enabled is False


def test_a_plugin_that_does_not_import_is_a_clear_load_error(
    real_host: RealHost, tmp_path: Path
) -> None:
    folder = plugin(tmp_path, "noimport", "import no_such_module_anywhere\n")
    with pytest.raises(PluginLoadError, match="no_such_module_anywhere"):
        real_host.load(folder)


def test_not_a_plugin_directory(real_host: RealHost, tmp_path: Path) -> None:
    with pytest.raises(LookupError, match=r"no plugin\.yaml"):
        real_host.load(tmp_path)
    with pytest.raises(RuntimeError, match="call load"):
        real_host.definitions()


def test_a_worker_that_dies_says_so_with_its_stderr(real_host: RealHost, tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        "dies",
        """
        import os, sys

        def register(ctx):
            ctx.register_command("die", _die, description="exits")

        def _die(raw):
            sys.stderr.write("dying on purpose\\n")
            sys.stderr.flush()
            os._exit(7)
        """,
    )
    real_host.load(folder)
    with pytest.raises(RealHostDied, match="exited with code 7 during run_command") as raised:
        real_host.run_command("die")
    assert "dying on purpose" in str(raised.value)
    with pytest.raises(RuntimeError, match="call load"):
        real_host.run_command("die")  # no worker any more: not a hang


def test_an_environment_without_hermes_fails_at_start(tmp_path: Path) -> None:
    host_python = tmp_path / "python"
    host_python.write_text(
        f'#!/bin/sh\nexec {sys.executable} -S "$@"\n', encoding="utf-8"
    )  # no site-packages: no hermes
    host_python.chmod(0o755)
    host = RealHost(host_python)
    try:
        with pytest.raises(RealHostDied, match="ModuleNotFoundError"):
            host.load(UNIT_CONVERT)
    finally:
        host.close()
    assert not host.hermes_home.exists()


def test_close_ends_the_worker(tmp_path: Path) -> None:
    with RealHost() as host:
        host.load(UNIT_CONVERT)
        process = host._process
        assert process is not None
        assert process.poll() is None
    assert process.poll() == 0
    assert not host.hermes_home.exists()
