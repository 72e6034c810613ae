"""``hermes-plugin-kit preflight``: catalogue admission, each rule on a small plugin.

Each case pins the upstream behaviour it mirrors, read from source:
``hermes_cli/plugin_validate.py`` at commit ``00067189dfecf833d4d009c2dd977ae85cf800e0``
(``hermes plugins validate``; line numbers counted in the stored file) and
``hermes_cli/plugin_dev.py`` at ``2a7b56dd70106b8c2982c508d6f6f48312e26d8d`` (``hermes
plugins doctor``'s ``doctor_plugin``).
"""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit_core.hermes import newest_registry_release, registry_releases
from kit_devtools.cli import _parser, main
from kit_devtools.cli import _upstream as upstream
from kit_devtools.cli._preflight import preflight_directory
from kit_devtools.cli._provides import set_provides
from kit_devtools.cli._workflow import ci_workflow
from kit_devtools.testing._host_choice import parse_hosts

ROOT = Path(__file__).resolve().parents[2]
NEWEST = newest_registry_release().version
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if (p / "plugin.yaml").is_file())

BASE = "name: demo\nversion: 0.1.0\ndescription: A demo\nkind: standalone\n"

SCHEMA = '{"name": NAME, "description": "d", "parameters": {"type": "object", "properties": {}}}'

RAW = """\
def _tool(args, **kwargs):
    return "{}"


def _hook(**kwargs):
    return None


def _middleware(payload, **kwargs):
    return None


def register(ctx):
    for name in TOOLS:
        schema = {"name": name, "description": "d",
                  "parameters": {"type": "object", "properties": {}}}
        ctx.register_tool(name=name, toolset="demo", schema=schema, handler=_tool)
    for name in HOOKS:
        ctx.register_hook(name, _hook)
    for kind in MIDDLEWARE:
        ctx.register_middleware(kind, _middleware)
"""


def source(
    tools: tuple[str, ...] = (), hooks: tuple[str, ...] = (), mw: tuple[str, ...] = ()
) -> str:
    return f"TOOLS = {tools!r}\nHOOKS = {hooks!r}\nMIDDLEWARE = {mw!r}\n\n" + RAW


def plugin(tmp_path: Path, manifest: str | None, code: str | None = None) -> Path:
    directory = tmp_path / "demo"
    directory.mkdir(exist_ok=True)
    if manifest is not None:
        (directory / "plugin.yaml").write_text(manifest, encoding="utf-8")
    if code is not None:
        (directory / "__init__.py").write_text(code, encoding="utf-8")
    return directory


def rules(directory: Path) -> list[tuple[str, str]]:
    report = preflight_directory(directory)
    return sorted((f.rule, str(f.severity)) for f in report.findings)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    status = main(["preflight", *argv, "--json"])
    return status, json.loads(capsys.readouterr().out)


# -- the manifest: validate_plugin_dir L407-455 and the static checks -------------------


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        # L94-105: name, version and description must be truthy
        (BASE, []),
        ("name: demo\nversion: ''\nkind: standalone\n", [("HPK051", "error")]),
        # L435-447: the file parses, and is a mapping
        ("name: [demo\n", [("HPK050", "error")]),
        ("- name\n- demo\n", [("HPK050", "error")]),
        # L108-121 with L74-91: requires_hermes parsed strictly
        (BASE + 'requires_hermes: ">=0.19, <1.0"\n', []),
        (BASE + 'requires_hermes: ">=0.1x"\n', [("HPK012", "error")]),
        # L124-154: config_schema shape; map passes validate, the loader warns (doctor too)
        (BASE + "config_schema:\n  depth: {type: int, required: true}\n", []),
        (BASE + "config_schema:\n  depth: {type: tuple}\n", [("HPK015", "error")]),
        (BASE + "config_schema:\n  depth: {type: int, required: 'yes'}\n", [("HPK015", "error")]),
        (BASE + "config_schema:\n  depth: int\n", [("HPK015", "error")]),
        (BASE + "config_schema:\n  depth: {type: map}\n", [("HPK016", "warning")]),
        # L157-178: requires_env a list of UPPER_SNAKE names or {name: ...} mappings
        (BASE + "requires_env: [DEMO_KEY, {name: DEMO_URL}]\n", []),
        (BASE + "requires_env: [demo_key]\n", [("HPK052", "error")]),
        (BASE + "requires_env: DEMO_KEY\n", [("HPK052", "error")]),
        (BASE + "requires_env: [{name: ''}, 3]\n", [("HPK052", "error"), ("HPK052", "error")]),
        # the installer's cap of 1; unknown keys warn only in a v2 file, as the loader logs
        (BASE + "manifest_version: 1\nflavour: x\n", []),
        (BASE + "manifest_version: 2\nflavour: x\n", [("HPK005", "warning"), ("HPK017", "error")]),
        # doctor_plugin: provides_* lists of strings, provides_hooks naming known hooks
        (BASE + "provides_hooks: [on_session_start]\n", [("HPK055", "warning")]),
        (
            BASE + "provides_hooks: [on_sesion_start]\n",
            [("HPK055", "warning"), ("HPK057", "error")],
        ),
        (BASE + "provides_tools: demo_x\n", [("HPK057", "error")]),
    ],
)
def test_each_manifest_problem_gives_its_rule(
    tmp_path: Path, manifest: str, expected: list[tuple[str, str]]
) -> None:
    assert rules(plugin(tmp_path, manifest, source())) == expected


def test_plugin_yml_is_read_when_plugin_yaml_is_absent(tmp_path: Path) -> None:
    """L418-420: ``plugin.yaml``, else ``plugin.yml``."""
    directory = plugin(tmp_path, None, source(("demo_x",)))
    (directory / "plugin.yml").write_text(BASE + "provides_tools: [demo_x]\n", encoding="utf-8")
    assert rules(directory) == []


def test_no_manifest_and_a_portable_package(tmp_path: Path) -> None:
    """L421-433: no native manifest fails; a plugin.json package is validate's portable
    path, which preflight says it does not check."""
    directory = plugin(tmp_path, None, source())
    report = preflight_directory(directory)
    assert [f.rule for f in report.findings] == ["HPK050"]
    assert "no plugin.yaml" in report.findings[0].message
    (directory / "plugin.json").write_text("{}", encoding="utf-8")
    assert "portable" in preflight_directory(directory).findings[0].message


# -- the capability probe: _check_capabilities L319-363 ---------------------------------


def test_declared_equal_to_registered_passes(tmp_path: Path) -> None:
    manifest = BASE + (
        "provides_tools: [demo_x]\nprovides_hooks: [pre_llm_call]\n"
        "provides_middleware: [tool_request]\n"
    )
    code = source(("demo_x",), ("pre_llm_call",), ("tool_request",))
    report = preflight_directory(plugin(tmp_path, manifest, code))
    assert report.findings == []
    assert report.registered == {
        "tools": ["demo_x"],
        "hooks": ["pre_llm_call"],
        "middleware": ["tool_request"],
    }


def test_undeclared_registrations_fail_and_unregistered_declarations_warn(tmp_path: Path) -> None:
    """L347-362: registered but not declared is a failed check; declared but not registered
    a warning. Middleware is compared by kind (the stub records ``str(kind)``, L209-210)."""
    manifest = BASE + "provides_tools: [demo_x, demo_gone]\n"
    code = source(("demo_x", "demo_y"), ("pre_llm_call",), ("tool_request",))
    report = preflight_directory(plugin(tmp_path, manifest, code))
    found = {(f.rule, f.message.split(":")[0]) for f in report.findings}
    assert found == {
        ("HPK054", "registers tools that provides_tools does not declare"),
        ("HPK054", "registers hooks that provides_hooks does not declare"),
        ("HPK054", "registers middleware that provides_middleware does not declare"),
        ("HPK055", "provides_tools declares tools that register() does not register"),
    }
    assert any("demo_y" in f.message for f in report.findings if f.rule == "HPK054")
    assert any("demo_gone" in f.message for f in report.findings if f.rule == "HPK055")


def test_a_declared_list_that_is_not_a_list_reads_as_empty(tmp_path: Path) -> None:
    """``_declared_list`` L312-316: so a string ``provides_tools`` leaves the registered tool
    undeclared (validate) and is itself an error (doctor)."""
    code = source(("demo_x",))
    assert rules(plugin(tmp_path, BASE + "provides_tools: demo_x\n", code)) == [
        ("HPK054", "error"),
        ("HPK057", "error"),
    ]


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("raise ImportError('no such thing')\n", "no such thing"),
        ("X = 1\n", "register"),
        ("def register(ctx):\n    raise RuntimeError('boom')\n", "boom"),
    ],
)
def test_register_must_run(tmp_path: Path, code: str, error: str) -> None:
    """L334-337 (and the probe script L237-260): an import error, a missing register() or
    one that raises fails the capability probe."""
    report = preflight_directory(plugin(tmp_path, BASE, code))
    assert [f.rule for f in report.findings] == ["HPK053"]
    assert error in report.findings[0].message
    assert report.registered is None


def test_a_manifest_only_directory_skips_the_probe(tmp_path: Path) -> None:
    """L327-332: no ``__init__.py``, the probe is skipped and passes."""
    report = preflight_directory(plugin(tmp_path, BASE, None))
    assert (report.findings, report.registered) == ([], None)


def test_a_plugin_the_loader_refuses_by_kind_is_still_probed(tmp_path: Path) -> None:
    """Admission calls ``register()`` whatever the kind (the probe script never reads it);
    hermes' loader skips an exclusive plugin, so the kit probes it with a recording
    context as upstream does."""
    manifest = BASE.replace("standalone", "exclusive")
    report = preflight_directory(plugin(tmp_path, manifest, source(("demo_x",))))
    assert report.registered == {"tools": ["demo_x"], "hooks": [], "middleware": []}
    assert [f.rule for f in report.findings] == ["HPK054"]


def test_builtin_tool_names_collide(tmp_path: Path) -> None:
    """``_check_builtin_collisions`` L382-401: declared and registered tool names both."""
    manifest = BASE + "provides_tools: [terminal, web_search]\n"
    report = preflight_directory(plugin(tmp_path, manifest, source(("terminal",))))
    clash = [f for f in report.findings if f.rule == "HPK056"]
    assert len(clash) == 1
    assert "terminal, web_search" in clash[0].message


def test_hook_callbacks_without_kwargs_are_doctor_errors(tmp_path: Path) -> None:
    """``doctor_plugin``: every hook callback must accept ``**kwargs`` (``check``'s HPK301)."""
    code = source() + "\n\ndef narrow(session_id):\n    return None\n"
    code += "\n\n_register = register\n\n\ndef register(ctx):\n"
    code += "    _register(ctx)\n    ctx.register_hook('on_session_start', narrow)\n"
    manifest = BASE + "provides_hooks: [on_session_start]\n"
    assert rules(plugin(tmp_path, manifest, code)) == [("HPK301", "error")]


# -- the command: text, JSON, exit status -----------------------------------------------


def test_json_shape_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = plugin(tmp_path, BASE, source(("demo_x",)))
    status, data = run(capsys, str(directory))
    assert status == 1
    assert set(data) == {
        "plugin", "key", "manifest", "verdict_by", "declared", "registered", "written",
        "findings", "scan", "catalog_entry", "releases", "errors", "warnings", "conventions", "ok",
    }  # fmt: skip
    assert data["scan"] is None  # no --scan
    assert data["catalog_entry"] is None  # no --catalog-entry
    assert data["releases"] is None  # no --every-release
    assert data["key"] == "demo"
    assert (data["errors"], data["warnings"], data["ok"]) == (1, 0, False)
    assert data["declared"] == {"tools": [], "hooks": [], "middleware": []}
    assert data["registered"]["tools"] == ["demo_x"]
    assert set(data["findings"][0]) == {"rule", "severity", "where", "message", "fix"}
    assert data["verdict_by"].startswith("hermes-plugin-kit")


def test_the_text_report_lists_what_is_declared_and_registered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, BASE + "provides_tools: [demo_x]\n", source(("demo_x",)))
    assert main(["preflight", str(directory)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(
        f"plugin demo (directory: {directory}): preflight verdict of hermes-plugin-kit"
    )
    assert out[1:] == [
        "declared: tools: demo_x; hooks: -; middleware: -",
        "registered: tools: demo_x; hooks: -; middleware: -",
        "findings: none",
        "0 error(s), 0 warning(s), 0 convention(s)",
    ]


# -- --write ------------------------------------------------------------------------------

COMMENTED = """\
# the demo plugin
name: demo   # its name
version: 0.1.0
description: A demo
provides_tools:   # what the model sees
  - demo_old
# hooks below
provides_hooks: [pre_llm_call]  # the hooks
kind: standalone
requires_env:
  - DEMO_KEY
"""

WRITTEN = """\
# the demo plugin
name: demo   # its name
version: 0.1.0
description: A demo
provides_tools:   # what the model sees
  - demo_x
  - demo_y
# hooks below
provides_hooks: [on_session_start, pre_llm_call]  # the hooks
kind: standalone
requires_env:
  - DEMO_KEY
provides_middleware: [tool_request]
"""


def test_write_round_trip_keeps_comments_and_other_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = source(("demo_x", "demo_y"), ("on_session_start", "pre_llm_call"), ("tool_request",))
    directory = plugin(tmp_path, COMMENTED, code)
    status, data = run(capsys, str(directory), "--write")
    assert (status, data["findings"], data["written"]) == (0, [], str(directory / "plugin.yaml"))
    assert (directory / "plugin.yaml").read_text(encoding="utf-8") == WRITTEN
    assert run(capsys, str(directory), "--write")[0] == 0  # a second write changes nothing
    assert (directory / "plugin.yaml").read_text(encoding="utf-8") == WRITTEN


def test_write_empties_a_list_and_leaves_an_absent_empty_one_out() -> None:
    text = "name: demo\nprovides_tools:\n  - gone\n\n# end\n"
    written = set_provides(text, {"provides_tools": [], "provides_hooks": []})
    assert written == "name: demo\nprovides_tools: []\n\n# end\n"


def test_write_quotes_what_yaml_would_read_otherwise() -> None:
    written = set_provides("name: demo\n", {"provides_tools": ["yes", "a b"]})
    assert yaml.safe_load(written)["provides_tools"] == ["yes", "a b"]


def test_write_refuses_a_form_it_does_not_edit(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not edit"):
        set_provides("name: demo\nprovides_tools: &tools [a]\n", {"provides_tools": ["b"]})
    directory = plugin(tmp_path, BASE, "X = 1\n")
    assert main(["preflight", str(directory), "--write"]) == 2  # register() never ran


# -- where hermes has its own tools ------------------------------------------------------


def test_the_installed_hermes_has_no_admission_tools() -> None:
    """hermes-agent 0.19.0 (this environment) has neither ``hermes_cli.plugin_validate``
    nor ``hermes_cli.plugin_dev``: preflight applies the rules itself."""
    assert upstream.available() == []


def test_a_submodule_is_found_without_importing_its_package(tmp_path: Path) -> None:
    package = tmp_path / "hpk_stand_in_package"
    package.mkdir()
    (package / "__init__.py").write_text("raise RuntimeError('imported')\n", encoding="utf-8")
    (package / "plugin_validate.py").write_text("", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        assert upstream.has_module("hpk_stand_in_package.plugin_validate")
        assert not upstream.has_module("hpk_stand_in_package.plugin_dev")
    finally:
        sys.path.remove(str(tmp_path))


STAND_IN = '''\
"""A stand-in with the report shapes upstream documents: ValidationReport.to_dict()
(plugin_validate.py L60-68) and DoctorReport.findings (plugin_dev.py @2a7b56dd)."""
from types import SimpleNamespace


def validate_plugin_dir(path):
    data = {"ok": False, "warnings": ["provides_hooks declares x but register() did not"],
            "checks": [{"name": "manifest", "ok": True, "detail": "parses"},
                       {"name": "declared tools", "ok": False, "detail": "undeclared: "
                        + path.name}]}
    return SimpleNamespace(to_dict=lambda: data)


def doctor_plugin(path):
    return SimpleNamespace(findings=[SimpleNamespace(level="error", message="doctor says no")])
'''


def test_upstream_tools_are_run_and_their_verdict_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Detected by capability (the module exists), run in a process of their own; a
    stand-in module plays upstream's, since no installable hermes has them."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "hpk_stand_in_validate.py").write_text(STAND_IN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "lib"))
    monkeypatch.setattr(
        upstream,
        "TOOLS",
        {
            "hermes plugins validate": ("hpk_stand_in_validate", "validate_plugin_dir"),
            "hermes plugins doctor": ("hpk_stand_in_validate", "doctor_plugin"),
            "hermes plugins nothing": ("hpk_no_such_module", "f"),
        },
    )
    directory = plugin(tmp_path, BASE, source())
    status, data = run(capsys, str(directory))
    assert status == 1
    # the kit's own rules first (none fails on this plugin), then each command's verdict
    assert data["verdict_by"] == (
        "hermes-plugin-kit (upstream's rules, applied by the kit) and hermes plugins validate"
        " and hermes plugins doctor"
    )
    assert [(f["rule"], f["message"]) for f in data["findings"]] == [
        ("HPK058", "hermes' own `hermes plugins validate` fails: declared tools: undeclared: demo"),
        (
            "HPK059",
            "hermes' own `hermes plugins validate` warns: provides_hooks declares x but"
            " register() did not",
        ),
        ("HPK058", "hermes' own `hermes plugins doctor` fails: doctor says no"),
    ]


ONE_PROCESS = """\
import os
from types import SimpleNamespace


def validate(path):
    return SimpleNamespace(to_dict=lambda: {"checks": [], "pid": os.getpid()})


def doctor(path):
    return SimpleNamespace(findings=[SimpleNamespace(level="warning", message=os.getpid())])


def broken(path):
    raise ValueError("no manifest here")


def leaves(path):
    os._exit(3)
"""


def test_upstream_commands_share_one_process_and_each_answers_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hermes is imported once for every command (validate and doctor both import its
    registries); a command that raises is its own answer, and one that ends the process
    leaves the ones after it the exit code."""
    (tmp_path / "hpk_one_process.py").write_text(ONE_PROCESS, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setattr(
        upstream,
        "TOOLS",
        {name: ("hpk_one_process", name) for name in ("validate", "doctor", "broken", "leaves")},
    )
    answers = upstream._run(tmp_path, ["validate", "broken", "doctor", "leaves"])
    validated, doctored = answers["validate"], answers["doctor"]
    assert isinstance(validated, dict)
    assert isinstance(doctored, dict)
    assert validated["pid"] == doctored["findings"][0]["message"]
    assert answers["broken"] == "it raised ValueError: no manifest here"
    assert answers["leaves"] == "it exited 3: no output"


def test_a_release_with_doctor_alone_keeps_the_kits_rules_of_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """0.20.1 has ``hermes plugins doctor`` and no ``validate``: doctor's verdict is relayed
    and the kit still applies validate's rules (here HPK051, a missing description), which
    doctor does not check."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "hpk_stand_in_validate.py").write_text(STAND_IN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "lib"))
    monkeypatch.setattr(
        upstream,
        "TOOLS",
        {
            "hermes plugins validate": ("hpk_no_such_module", "validate_plugin_dir"),
            "hermes plugins doctor": ("hpk_stand_in_validate", "doctor_plugin"),
        },
    )
    directory = plugin(tmp_path, "name: demo\nversion: 0.1.0\nkind: standalone\n", source())
    status, data = run(capsys, str(directory))
    assert status == 1
    assert data["verdict_by"].endswith("applied by the kit) and hermes plugins doctor")
    assert [f["rule"] for f in data["findings"]] == ["HPK051", "HPK058"]
    assert "doctor says no" in data["findings"][1]["message"]


# -- the examples, and the CI workflow ----------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_example_passes_preflight(example: Path) -> None:
    report = preflight_directory(example)
    assert report.findings == []
    assert report.registered is not None
    declared = report.declared()
    assert {k: sorted(v) for k, v in declared.items()} == {
        k: sorted(v) for k, v in report.registered.items()
    }


def test_ci_workflow_syncs_checks_tests_and_runs_preflight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, BASE + 'requires_hermes: ">=0.17.0"\n', source())
    assert main(["preflight", str(directory), "--ci-workflow"]) == 0
    text = capsys.readouterr().out
    assert text == ci_workflow(str(directory), ">=0.17.0")
    workflow = yaml.safe_load(text)
    runs = [s["run"] for s in workflow["jobs"]["plugin"]["steps"] if "run" in s]
    assert runs == [
        "uv sync",
        f"uv run hermes-plugin-kit check {directory}",
        f"uv run python -m pytest --hermes 0.17.0,{NEWEST}",
        f"uv run hermes-plugin-kit preflight {directory}",
    ]
    for command in runs[1::2]:
        _parser().parse_args(shlex.split(command)[3:])  # the real parser accepts them
    assert f"--hermes 0.13.0,{NEWEST}" in ci_workflow("src/demo")
    assert "--hermes 0.13.0,0.19.0" in ci_workflow("src/demo", "<0.20")
    # each release the workflow names is one --hermes installs (the newest by packaging)
    assert [h.version for h in parse_hosts(f"0.17.0,{NEWEST}")] == ["0.17.0", NEWEST]


def test_a_wrong_hermes_value_is_told_with_the_models_own_examples() -> None:
    oldest, newest = registry_releases()[0].version, registry_releases()[-1].version
    with pytest.raises(ValueError, match="latest") as refused:
        parse_hosts("latest")
    series = newest.rpartition(".")[0]
    assert f"(e.g. {oldest}, {newest}), a series ({series}: its newest release)" in str(
        refused.value
    )


def test_preflight_runs_as_a_command(tmp_path: Path) -> None:
    import subprocess

    directory = plugin(tmp_path, BASE + "provides_tools: [demo_x]\n", source(("demo_x",)))
    done = subprocess.run(
        [sys.executable, "-m", "kit_devtools", "preflight", str(directory)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert textwrap.dedent(done.stdout).endswith("0 error(s), 0 warning(s), 0 convention(s)\n")


def test_a_plugin_fresh_from_new_passes_preflight_and_carries_the_workflow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "word-tools", "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    capsys.readouterr()
    root = tmp_path / "word-tools"
    status, data = run(capsys, str(root / "src" / "word_tools"))
    assert (status, data["findings"]) == (0, [])
    workflow = (root / ".github" / "workflows" / "plugin.yml").read_text(encoding="utf-8")
    assert workflow == ci_workflow("src/word_tools", ">=0.13.0")


def test_preflight_names_a_plugin_as_check_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """By the key hermes gives it (the manifest's name, not the folder's), in the first
    line and in every finding: `plugin my-plugin (directory: ...)`."""
    directory = tmp_path / "my_plugin"
    directory.mkdir()
    (directory / "plugin.yaml").write_text(
        "name: my-plugin\nversion: 0.1.0\nkind: standalone\nrequires_hermes: '>=banana'\n"
    )
    (directory / "__init__.py").write_text(source(hooks=("pre_llm_call",)))
    heading = f"plugin my-plugin (directory: {directory.resolve()}): "
    main(["check", str(directory)])
    checked = capsys.readouterr().out.splitlines()
    assert checked[0].startswith(heading)
    main(["preflight", str(directory)])
    flighted = capsys.readouterr().out.splitlines()
    assert flighted[0].startswith(heading + "preflight verdict of")
    _, data = run(capsys, str(directory))
    wheres = {f["rule"]: f["where"] for f in data["findings"]}
    assert wheres == {
        "HPK051": "plugin my-plugin plugin.yaml",  # no description
        "HPK012": "plugin my-plugin plugin.yaml",  # as check has it
        "HPK054": "plugin my-plugin",
    }
    main(["check", str(directory), "--format", "json"])
    check_wheres = {f["rule"]: f["where"] for f in json.loads(capsys.readouterr().out)["findings"]}
    assert check_wheres["HPK012"] == wheres["HPK012"]
