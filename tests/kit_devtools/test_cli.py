"""``hermes-plugin-kit check / call / new`` end to end, on the examples and hand-made plugins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PLUGINS = Path(__file__).resolve().parent / "plugins"


def check_json(
    target: Path | str, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, Any]:
    status = main(["check", str(target), "--format", "json", *extra])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("example", ["unit-convert", "team-notes", "media-postcard"])
def test_every_example_passes_check_with_no_findings(
    example: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = check_json(EXAMPLES / example, capsys, "--probe")
    assert report["findings"] == []
    assert (status, report["errors"], report["warnings"]) == (0, 0, 0)
    assert report["plugin"]["enabled"] is True
    assert report["tools"]
    assert all(t["type"] == "function" and "parameters" in t["function"] for t in report["tools"])
    assert report["receipts"]


def test_check_reports_every_surface_and_the_receipt(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = check_json(EXAMPLES / "team-notes", capsys)
    assert [t["function"]["name"] for t in report["tools"]] == [
        "notes_add_note",
        "notes_list_notes",
    ]
    assert report["commands"] == [
        {
            "name": "notes-count",
            "args_hint": "[tag]",
            "description": "Count the team's notes, or those with a tag.",
        }
    ]
    assert report["cli_commands"] == [
        {"name": "team-notes", "help": "Print the team's notes as JSON lines."}
    ]
    assert report["middleware"] == ["tool_execution", "tool_request"]
    assert report["hooks"] == ["on_session_finalize", "pre_llm_call"]
    assert report["skills"] == ["team-notes:note-taking"]
    (receipt,) = report["receipts"]
    assert receipt.startswith(
        "hermes_plugin_kit: registered plugin lifecycle; plugin=team-notes; commands=notes-count;"
    )


def test_a_handmade_plugin_gets_every_finding_it_deserves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, report = check_json(PLUGINS / "handmade", capsys, "--probe")
    assert status == 1
    found = {(f["rule"], f["where"]) for f in report["findings"]}
    assert found == {
        ("HPK004", "plugin handmade plugin.yaml"),
        ("HPK005", "plugin handmade plugin.yaml"),
        ("HPK103", "tool search"),
        ("HPK114", "tool search"),
        ("HPK115", "tool search"),
        ("HPK125", "tool search"),  # from its source; the probe's HPK132 would repeat it
        ("HPK104", "tool handmade_lookup"),
        ("HPK106", "tool handmade_lookup"),
        ("HPK107", "tool handmade_lookup argument ids"),
        ("HPK107", "tool handmade_lookup argument ref"),
        ("HPK108", "tool handmade_lookup parameters.ref"),
        ("HPK109", "tool handmade_lookup parameters.ids"),
        ("HPK121", "tool handmade_lookup"),
        ("HPK131", "tool handmade_lookup"),
        ("HPK102", "tool handmade_fetch"),
        ("HPK122", "tool handmade_fetch"),  # the probe's coroutine result repeats it
        ("HPK131", "tool handmade_explode"),
        ("HPK116", "tool read_file"),
        ("HPK202", "command help"),
        ("HPK201", "command handmade_status"),
        ("HPK205", "CLI command handmade"),
        ("HPK303", "hook pre_tool_cal"),
        ("HPK301", "hook pre_llm_call"),
        ("HPK302", "hook pre_tool_cal"),
        ("HPK302", "hook pre_tool_call"),
        ("HPK303", "middleware tool_requests"),
        ("HPK301", "middleware tool_requests"),
    }
    assert report["errors"] == sum(1 for f in report["findings"] if f["severity"] == "error")
    for item in report["findings"]:
        assert item["message"]
        assert item["fix"]
        assert item["severity"] in ("error", "warning", "convention")
    typo = next(
        f for f in report["findings"] if f["where"] == "hook pre_tool_cal" and f["rule"] == "HPK303"
    )
    assert typo["fix"] == "did you mean 'pre_tool_call'?"


@pytest.mark.parametrize(
    ("plugin", "rule"),
    [
        ("raises", "HPK001"),
        ("no_register", "HPK002"),
        ("broken_import", "HPK003"),
        ("skill_dir", "HPK401"),
    ],
)
def test_loading_problems_are_findings(
    plugin: str, rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = check_json(PLUGINS / plugin, capsys)
    assert status == 1
    assert [f["rule"] for f in report["findings"]] == [rule]


def test_an_entry_point_report_names_no_path_it_does_not_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed entry point has no plugin directory: the heading leaves the path out
    instead of showing a placeholder."""
    info = tmp_path / "ep_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ep-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hermes_agent.plugins]\nep-plugin = ep_plugin\n")
    (tmp_path / "ep_plugin").mkdir()
    (tmp_path / "ep_plugin" / "__init__.py").write_text("def register(ctx):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert main(["check", "ep-plugin"]) == 0
        assert capsys.readouterr().out.splitlines()[0] == "plugin ep-plugin (entrypoint): enabled"
        main(["compat", "ep-plugin"])
        first = capsys.readouterr().out.splitlines()[0]
        assert first.startswith("plugin ep-plugin (entrypoint): loaded into")
    finally:
        for name in [n for n in sys.modules if n.partition(".")[0] == "ep_plugin"]:
            del sys.modules[name]


def test_text_report_ends_with_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(PLUGINS / "raises")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("plugin raises (directory: ")
    assert out[0].endswith("NOT LOADED: config is missing")
    assert out[-1] == "1 error(s), 0 warning(s), 0 convention(s)"


def test_check_of_an_unknown_target_says_what_it_accepts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "no_such_plugin_anywhere"]) == 2
    assert "neither a plugin directory, an importable module" in capsys.readouterr().err


def test_call_runs_a_tool_through_the_full_pipeline(capsys: pytest.CaptureFixture[str]) -> None:
    args = '{"value": 100, "from_scale": "celsius", "to_scale": "kelvin"}'
    assert (
        main(["call", str(EXAMPLES / "unit-convert"), "units_convert_temperature", "--args", args])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == {
        "success": True,
        "data": {"value": 373.15, "scale": "kelvin"},
    }
    assert (
        main(
            [
                "call",
                str(EXAMPLES / "unit-convert"),
                "units_convert_temperature",
                "--args",
                '{"value": "3"}',
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["error"] == (
        "from_scale is required (e.g. 'celsius') | to_scale is required (e.g. 'fahrenheit')"
    )


def test_call_delivers_a_media_tool_to_a_simulated_chat_turn_and_shows_what_it_sent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``deliver_media(..., "origin")`` needs a gateway chat turn: ``call`` simulates one,
    so the delivery succeeds into the recorded send_message, and what was sent is shown
    on stderr, beside the result."""
    args = '{"picture": "harbour.png", "caption": "Hi"}'
    postcard = EXAMPLES / "media-postcard"
    assert main(["call", str(postcard), "postcard_send_picture", "--args", args]) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)  # the result alone: stdout stays JSON
    sent = printed.err.splitlines()
    assert out["success"] is True, out
    assert out["data"]["requested_target"] == "origin"
    assert out["data"]["display_target"] == "telegram:…0001:…0001"
    picture = (postcard / "album" / "harbour.png").resolve()
    assert sent == [
        "sent in the simulated chat turn (telegram:-1000000000001:10001, session cli;"
        " recorded, nothing left this machine):",
        "  send_message to telegram:-1000000000001:10001:",
        "    Hi",
        f"    MEDIA:{picture}",
    ]


def test_call_explains_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", str(EXAMPLES / "unit-convert"), "units_nope"]) == 2
    assert "its tools: units_convert_length, units_convert_temperature" in capsys.readouterr().err
    assert (
        main(["call", str(EXAMPLES / "unit-convert"), "units_convert_length", "--args", "{x"]) == 2
    )
    assert "--args is not JSON" in capsys.readouterr().err


def test_the_module_and_the_console_script_run() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "kit_devtools", "check", str(EXAMPLES / "unit-convert")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "0 error(s), 0 warning(s), 0 convention(s)"
    script = Path(sys.executable).parent / "hermes-plugin-kit"
    assert subprocess.run([str(script), "doctor"], capture_output=True, check=False).returncode == 0


def test_a_usage_error_of_an_isolated_command_is_told_once() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "kit_devtools", "preflight", str(EXAMPLES / "unit-convert"),
         "--category", "games"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 2
    assert "argument --category: invalid choice: 'games'" in run.stderr
    assert "ended without a report" not in run.stderr


def synced(project: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``uv`` in the new ``project``, synced as its README says (``uv sync``): its own
    environment, not this run's."""
    skip = ("VIRTUAL_ENV", "PYTHONPATH", "UV_PROJECT_ENVIRONMENT")  # this run's, not the project's
    env = {k: v for k, v in os.environ.items() if k not in skip}
    env["UV_PYTHON_DOWNLOADS"] = "never"

    def uv(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "uv", *args]
        return subprocess.run(command, cwd=project, capture_output=True, text=True, env=env)

    sync = uv("sync", "--quiet", "--python", sys.executable)
    assert sync.returncode == 0, sync.stderr
    return uv


def assert_passes(
    uv: Callable[..., subprocess.CompletedProcess[str]], *commands: list[str]
) -> None:
    """Each ``hermes-plugin-kit`` command exits 0 with no finding."""
    for command in commands:
        run = uv("run", "--no-sync", "hermes-plugin-kit", *command)
        assert run.returncode == 0, run.stdout + run.stderr
        assert run.stdout.rstrip().endswith("0 error(s), 0 warning(s), 0 convention(s)")


def test_new_scaffolds_a_plugin_that_passes_check_and_its_own_tests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # in the project's own synced environment, as its README and CI workflow run them:
    # there `uv sync` installs the project with its entry point (issue 24, item 1)
    assert main(["new", "word-tools", "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    capsys.readouterr()
    project = tmp_path / "word-tools"
    uv = synced(project)
    installed = (project / ".venv").glob("lib/python3*/site-packages/word_tools-*.dist-info")
    (info,) = installed  # the project itself, with its entry point
    assert "[hermes_agent.plugins]\nword-tools" in (info / "entry_points.txt").read_text()
    # 0.19.0: a release where an entry point of the plugin's name wins over its directory
    plugin = "src/word_tools"
    assert_passes(uv, ["check", plugin], ["check", "--probe", plugin],
                  ["check", "--hermes", "0.19.0", plugin], ["preflight", plugin])  # fmt: skip
    call = uv("run", "--no-sync", "hermes-plugin-kit", "call", "src/word_tools",
              "word_tools_count_words", "--args", '{"text": "a b a"}')  # fmt: skip
    assert call.returncode == 0, call.stdout + call.stderr
    assert json.loads(call.stdout)["data"]["words"] == 3
    run = uv("run", "--no-sync", "python", "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout


PROVIDER_KINDS = {
    # kind: (name, the line check prints for the provider, its entry-point group)
    "memory-provider": (
        "tea-memory",
        "memory provider: tea_memory (loaded by: register(ctx); tools: tea_memory_search)",
        "[hermes_agent.memory_providers]\ntea_memory = tea_memory",
    ),
    "context-engine": (
        "trim-context",
        "context_engine: trim_context",
        "[hermes_agent.plugins]\ntrim-context = trim_context",
    ),
}


@pytest.mark.parametrize("kind", sorted(PROVIDER_KINDS))
def test_new_provider_passes_its_contract_check_and_its_own_tests(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, line, entry_point = PROVIDER_KINDS[kind]
    argv = ["new", name, "--kind", kind, "--directory", str(tmp_path), "--kit-source", "path"]
    assert main(argv) == 0
    capsys.readouterr()
    project, package = tmp_path / name, name.replace("-", "_")
    uv = synced(project)
    (info,) = (project / ".venv").glob(f"lib/python3*/site-packages/{package}-*.dist-info")
    entry_points = (info / "entry_points.txt").read_text()
    assert entry_points.strip() == entry_point  # a memory provider is no general plugin
    plugin = f"src/{package}"
    assert_passes(uv, ["check", plugin], ["check", "--probe", plugin], ["preflight", plugin])
    probe = uv("run", "--no-sync", "hermes-plugin-kit", "check", "--probe", plugin)
    assert line in probe.stdout
    workflow = (project / ".github" / "workflows" / "plugin.yml").read_text()
    assert f"run: uv run hermes-plugin-kit check {plugin} --probe\n" in workflow
    # the dev group's hermes: the contract on the in-memory host and on that real release
    pytest_run = ("run", "--no-sync", "python", "-m", "pytest", "-q", "-p", "no:cacheprovider")
    run = uv(*pytest_run, "--hermes", "installed")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout  # the contract twice, and the behaviour


def test_new_refuses_an_unknown_kind_naming_the_kinds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "tea-memory", "--kind", "memory", "--directory", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    kinds = "standalone, memory-provider, context-engine, tts, transcription, model-provider"
    assert f"no project kind 'memory'; the kinds are: {kinds}\n" in err
    assert not (tmp_path / "tea-memory").exists()
