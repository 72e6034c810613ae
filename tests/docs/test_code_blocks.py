"""Every fenced code block of the README and of docs/ is run, checked or compared.

A block is found with its language and the ``<!-- docs-test: ... -->`` directive on the
line before it, if any:

- ``python``: a file of a plugin (``plugin NAME FILE [probe]``): the blocks of one page
  with one NAME make a plugin directory, which ``hermes-plugin-kit check`` must find clean
  (``--probe`` too when a block says ``probe``); a pytest module (``pytest PLUGIN TOOL``),
  run by pytest against a small plugin with that tool; ``pytest-hosts PLUGIN TOOL``: the
  same, once per host (``any_host`` and ``real_host`` on the installed hermes, with
  ``--hermes installed``; a plain run is refused for the ``real_host`` test); a file of a
  provider (``provider NAME FILE``): the blocks of one page with one NAME make a provider
  directory, which the page's ``pytest-contract NAME`` block, a pytest module of contract
  tests beside it, must pass on the in-memory host and on the installed hermes
  (``--hermes installed``); otherwise run in a fresh interpreter, which must exit 0.
- ``yaml``/``json``/``toml``: parsed; a ``plugin`` yaml block is that plugin's
  ``plugin.yaml``, and a ``definition PAGE PLUGIN TOOL`` json block must equal that tool's
  definition as ``check`` prints it.
- ``sh``: each command is one the project has: ``./scripts/X`` exists and is executable,
  ``hermes-plugin-kit ...`` is accepted by the command's own argument parser,
  ``uv run python -m pytest`` takes only ``--hermes`` values the kit's pytest plugin
  accepts, and a
  ``uv``/``uvx`` install line names a package of the workspace by its own subdirectory.
- ``text``: output, compared with what the command really prints (``output CMD``: its
  stdout, equal; ``output-in CMD``: each line printed, on stdout or stderr), a file tree
  whose entries exist (``tree``), or an ``illustration: WHY`` for what cannot be compared
  here.
- any language, the project a page makes with ``hermes-plugin-kit new NAME``: ``new NAME
  PATH``, the block is the file ``new`` writes at PATH; ``append NAME PATH``, the page adds
  the block to that file; ``replace NAME PATH``, each ``key: ...`` line of the block takes
  the place of the file's line of that key. The project so made must pass ``check``,
  ``check --probe``, ``preflight`` and its own tests on the in-memory host and on the
  installed hermes, and the page's ``output`` blocks run in it.

A block of any other language, or without the directive its kind needs, fails.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit_devtools.cli import _parser, main
from kit_devtools.testing._host_choice import parse_hosts

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
DIRECTIVE = re.compile(r"^\s*<!-- docs-test: (.*?) -->\s*$")
LANGUAGES = {"python", "sh", "text", "json", "yaml", "toml"}
REPOSITORY = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["repo_url"]
PACKAGES = {p.name for p in (ROOT / "packages").iterdir() if (p / "pyproject.toml").is_file()}


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    language: str
    directive: str
    code: str

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"


def blocks_of(page: Path) -> Iterator[Block]:
    lines = page.read_text(encoding="utf-8").split("\n")
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent, language = opening.groups()
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        assert end < len(lines), f"{page}:{index + 1}: a code block is never closed"
        before = next((line for line in reversed(lines[:index]) if line.strip()), "")
        directive = DIRECTIVE.match(before)
        code = "\n".join(line.removeprefix(indent) for line in lines[index + 1 : end]) + "\n"
        yield Block(page, index + 1, language, directive.group(1) if directive else "", code)
        index = end + 1


BLOCKS = [block for page in PAGES for block in blocks_of(page)]


def by_kind(*languages: str) -> list[Any]:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.language in languages]


def test_the_pages_hold_code_blocks_of_every_kind_the_tests_know() -> None:
    assert {b.language for b in BLOCKS} >= {"python", "sh", "text", "json", "yaml"}
    assert len(PAGES) > 20


@pytest.mark.parametrize("block", [pytest.param(b, id=b.id) for b in BLOCKS])
def test_every_block_is_of_a_language_the_tests_run(block: Block) -> None:
    assert block.language in LANGUAGES, (
        f"{block.id}: a ```{block.language or '(no language)'} block; use one of"
        f" {sorted(LANGUAGES)} (```text for output) so a test runs or compares it"
    )


# -- the project a page makes with `new` ----------------------------------------------------

PROJECT_DIRECTIVES = ("new", "append", "replace")


def project_kind(block: Block) -> bool:
    return block.directive.split()[:1] in ([d] for d in PROJECT_DIRECTIVES)


def project_blocks(page: Path) -> list[Block]:
    return [b for b in blocks_of(page) if project_kind(b)]


def make_project(page: Path, where: Path) -> Path | None:
    """The project ``new NAME`` writes in ``where``, with the page's blocks checked against it
    (``new``) and written into it (``append``, ``replace``), in page order; None for a page
    that makes none."""
    blocks = project_blocks(page)
    if not blocks:
        return None
    (name,) = {b.directive.split()[1] for b in blocks}
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["new", name, "--directory", str(where), "--kit-source", "path"]) == 0
    project = where / name
    for block in blocks:
        kind, _, path = block.directive.split()
        file = project / path
        text = file.read_text(encoding="utf-8")
        if kind == "new":
            assert block.code == text, f"{block.id}: not what `new {name}` writes at {path}"
            continue
        if kind == "append":
            text = text.rstrip("\n") + "\n\n\n" + block.code
        else:
            lines = text.splitlines()
            for line in block.code.splitlines():
                key = line.partition(":")[0] + ":"
                (at,) = [i for i, old in enumerate(lines) if old.startswith(key)]
                lines[at] = line
            text = "\n".join(lines) + "\n"
        file.write_text(text, encoding="utf-8")
    return project


PROJECT_PAGES = [
    pytest.param(page, id=page.relative_to(ROOT).as_posix())
    for page in PAGES
    if project_blocks(page)
]


def test_the_tutorial_makes_a_project() -> None:
    assert ROOT / "docs" / "tutorial.md" in [p.values[0] for p in PROJECT_PAGES]


@pytest.mark.host
@pytest.mark.parametrize("page", PROJECT_PAGES)
def test_the_project_a_page_makes_passes_the_checks_and_its_tests_on_real_hermes(
    page: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project(page, tmp_path)
    assert project is not None
    (plugin,) = (project / "src").iterdir()
    for extra in ([], ["--probe"]):
        status, report = check_report(plugin, capsys, *extra)
        assert (status, report["findings"]) == (0, []), report["findings"]
    assert main(["preflight", str(plugin)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    command = [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider"]
    run = subprocess.run(
        [*command, "--hermes", "installed"], cwd=project, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    tests = sum(f.read_text().count("\ndef test_") for f in (project / "tests").glob("*.py"))
    hermes = f"hermes-{parse_hosts('installed')[0].version}"
    assert run.stdout.count("[memory] PASSED") == tests, run.stdout
    assert run.stdout.count(f"[{hermes}] PASSED") == tests, run.stdout


# -- plugins assembled from the pages ------------------------------------------------------


def plugin_files(page: Path, name: str) -> dict[str, str]:
    files: dict[str, str] = {}
    for block in blocks_of(page):
        words = block.directive.split()
        if words[:2] == ["plugin", name]:
            files[words[2]] = block.code
    assert files, f"{page}: no block of plugin {name}"
    return files


def assemble(page: Path, name: str, where: Path) -> Path:
    """The plugin directory NAME made of the page's blocks (plugin.yaml and __init__.py
    filled in when the page shows neither)."""
    plugin = where / name
    plugin.mkdir(parents=True, exist_ok=True)
    files = plugin_files(page, name)
    files.setdefault(
        "plugin.yaml", f"name: {name.replace('_', '-')}\nversion: 0.1.0\nkind: standalone\n"
    )
    if "__init__.py" not in files:
        assert "tools.py" in files, f"{page}: plugin {name} has neither __init__.py nor tools.py"
        files["__init__.py"] = (
            "from hermes_plugin_kit import register_all\n\nfrom . import tools\n\n\n"
            "def register(ctx):\n    register_all(ctx, tools)\n"
        )
    if any("SKILL.md" in text for text in files.values()):
        files["SKILL.md"] = (
            "---\nname: skill\ndescription: A skill of a docs example.\n---\n\nBe brief.\n"
        )
    for file_name, text in files.items():
        (plugin / file_name).write_text(text, encoding="utf-8")
    return plugin


def page_plugins(page: Path) -> dict[str, bool]:
    """The plugins a page shows, each with whether one of its blocks asks for --probe."""
    found: dict[str, bool] = {}
    for block in blocks_of(page):
        words = block.directive.split()
        if words[:1] == ["plugin"]:
            found[words[1]] = found.get(words[1], False) or "probe" in words[3:]
    return found


@pytest.fixture
def workshop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory where a page's plugins are assembled, with the repository's
    examples beside them, as a command in the page would run."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check_report(
    plugin: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, dict[str, Any]]:
    status = main(["check", str(plugin), "--format", "json", *extra])
    return status, json.loads(capsys.readouterr().out)


PLUGINS = [
    pytest.param(page, name, probe, id=f"{page.relative_to(ROOT).as_posix()}:{name}")
    for page in PAGES
    for name, probe in page_plugins(page).items()
]


def test_the_pages_show_plugins() -> None:
    assert {p.values[1] for p in PLUGINS} >= {"words", "discord_threads", "valdris", "memo"}


@pytest.mark.parametrize(("page", "name", "probe"), PLUGINS)
def test_every_plugin_of_the_pages_passes_check_with_no_findings(
    page: Path, name: str, probe: bool, workshop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = assemble(page, name, workshop)
    status, report = check_report(plugin, capsys, *(["--probe"] if probe else []))
    assert (status, report["findings"]) == (0, [])
    assert report["plugin"]["enabled"] is True


# -- python ----------------------------------------------------------------------------------


def python_param(block: Block) -> bool:
    plugin = block.directive.split()[:1] in (["plugin"], ["provider"], ["pytest-contract"])
    return block.language == "python" and not plugin and not project_kind(block)


CONTRACT_BLOCKS = [b for b in BLOCKS if b.directive.split()[:1] == ["pytest-contract"]]
CONTRACTS = [pytest.param(b, id=b.id) for b in CONTRACT_BLOCKS]


def test_every_provider_of_the_pages_has_its_contract_tests() -> None:
    providers = {
        (b.page, b.directive.split()[1]) for b in BLOCKS if b.directive.startswith("provider ")
    }
    tested = {(b.page, b.directive.split()[1]) for b in CONTRACT_BLOCKS}
    assert providers == tested
    assert providers


@pytest.mark.parametrize("block", CONTRACTS)
def test_a_provider_of_the_pages_keeps_its_contract_on_every_host(
    block: Block, tmp_path: Path
) -> None:
    name = block.directive.split()[1]
    provider = tmp_path / name
    provider.mkdir()
    for other in blocks_of(block.page):
        words = other.directive.split()
        if words[:2] == ["provider", name]:
            (provider / words[2]).write_text(other.code, encoding="utf-8")
    (tmp_path / "test_contract.py").write_text(block.code, encoding="utf-8")
    command = [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider"]
    run = subprocess.run(
        [*command, "--hermes", "installed"], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    hermes = f"hermes-{parse_hosts('installed')[0].version}"
    assert "[memory] PASSED" in run.stdout, run.stdout
    assert f"[{hermes}] PASSED" in run.stdout, run.stdout


@pytest.mark.parametrize("block", [pytest.param(b, id=b.id) for b in BLOCKS if python_param(b)])
def test_a_python_block_that_is_not_a_plugin_file_runs(block: Block, tmp_path: Path) -> None:
    words = block.directive.split()
    if words[:1] in (["pytest"], ["pytest-hosts"]):
        plugin_name, tool_name = words[1:3]
        plugin = tmp_path / "src" / plugin_name
        plugin.mkdir(parents=True)
        (plugin / "plugin.yaml").write_text(
            f"name: {plugin_name.replace('_', '-')}\nversion: 0.1.0\nkind: standalone\n"
        )
        (plugin / "__init__.py").write_text(
            "from hermes_plugin_kit import register_all, str_arg, tool\n\n\n"
            f'@tool(toolset="{plugin_name}", namespace="{plugin_name}",'
            ' params={"q": str_arg("A query", required=True)})\n'
            f"def {tool_name}(args, **kwargs):\n"
            '    """Answer a query."""\n'
            '    return {"q": args["q"]}\n\n\n'
            "def register(ctx):\n    register_all(ctx, __name__)\n"
        )
        (tmp_path / "test_example.py").write_text(block.code)
        if words[0] == "pytest-hosts":
            command = [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider"]
            plain = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
            assert plain.returncode == pytest.ExitCode.INTERRUPTED, plain.stdout + plain.stderr
            assert "uses real_host, but no real hermes is selected" in plain.stdout
            command += ["--hermes", "installed"]
            run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
            assert run.returncode == 0, run.stdout + run.stderr
            hermes = f"hermes-{parse_hosts('installed')[0].version}"
            assert "[memory] PASSED" in run.stdout, run.stdout
            assert run.stdout.count(f"[{hermes}] PASSED") == 2, run.stdout
            return
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        for _ in range(2):  # the first run writes the snapshot, the second compares with it
            run = subprocess.run(
                [*command, "test_example.py"], cwd=tmp_path, capture_output=True, text=True
            )
            assert run.returncode == 0, run.stdout + run.stderr
            assert "1 passed" in run.stdout
        assert (tmp_path / "snapshots" / f"{tool_name}.json").is_file()
        return
    assert not block.directive, f"{block.id}: unknown directive {block.directive!r}"
    run = subprocess.run(
        [sys.executable, "-c", block.code], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr


# -- data ------------------------------------------------------------------------------------


@pytest.mark.parametrize("block", by_kind("json", "yaml", "toml"))
def test_a_data_block_parses_and_equals_what_it_shows(
    block: Block, workshop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parse = {"json": json.loads, "yaml": yaml.safe_load, "toml": tomllib.loads}
    data = parse[block.language](block.code)
    words = block.directive.split()
    if project_kind(block):
        assert isinstance(data, dict)  # the file itself is checked with its project
    elif words[:1] == ["plugin"]:
        assert block.language == "yaml"
        assert words[2] == "plugin.yaml"
        assert isinstance(data, dict)
        assert data["kind"] == "standalone"
    elif words[:1] == ["definition"]:
        page, name, tool_name = words[1:4]
        plugin = assemble(ROOT / "docs" / page, name, workshop)
        status, report = check_report(plugin, capsys)
        assert status == 0
        definitions = {t["function"]["name"]: t for t in report["tools"]}
        assert data == definitions[tool_name]
    else:
        assert not block.directive, f"{block.id}: unknown directive {block.directive!r}"


# -- sh --------------------------------------------------------------------------------------


def commands(code: str) -> Iterator[list[str]]:
    for line in code.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words:
            yield words


def assert_kit_command(argv: list[str], where: str) -> None:
    try:
        _parser().parse_args(argv)
    except SystemExit as exit_:
        pytest.fail(f"{where}: hermes-plugin-kit refuses {shlex.join(argv)} ({exit_})")


def assert_requirement(requirement: str, where: str) -> None:
    found = re.fullmatch(
        r"([a-z-]+)(\[[a-z]+\])? @ git\+" + re.escape(REPOSITORY) + r"\.git"
        r"@<commit-sha>#subdirectory=packages/([a-z-]+)",
        requirement,
    )
    assert found, f"{where}: not a kit install line: {requirement}"
    assert found.group(1) == found.group(3), where
    assert found.group(3) in PACKAGES, where


def assert_pip_route(words: list[str], where: str) -> None:
    """A pip line resolves nothing from an index: ``--no-deps``, and every kit package the
    named ones depend on is named too, as a direct reference of the same form."""
    assert "--no-deps" in words, f"{where}: pip without --no-deps looks siblings up by name"
    requirements = [w for w in words if " @ " in w]
    for requirement in requirements:
        assert_requirement(requirement, where)
    named = {r.partition(" @ ")[0].partition("[")[0] for r in requirements}
    needed = {
        re.split(r"[=<>\[ ]", dependency, maxsplit=1)[0]
        for name in named
        for dependency in tomllib.loads((ROOT / "packages" / name / "pyproject.toml").read_text())[
            "project"
        ]["dependencies"]
    }
    assert needed & PACKAGES <= named, (
        f"{where}: not named, so taken from an index: {needed - named}"
    )


@pytest.mark.parametrize("block", by_kind("sh"))
def test_every_command_of_a_shell_block_is_one_the_project_has(
    block: Block, capsys: pytest.CaptureFixture[str]
) -> None:
    assert not block.directive, f"{block.id}: unknown directive {block.directive!r}"
    for words in commands(block.code):
        where = f"{block.id}: {shlex.join(words)}"
        if words[0].startswith("./scripts/"):
            script = ROOT / words[0]
            assert script.is_file(), where
            assert os.access(script, os.X_OK), where
        elif words[0] == "hermes-plugin-kit":
            assert_kit_command(words[1:], where)
        elif words[:3] == ["uv", "pip", "install"] and words[-1] == ".":
            assert words[3:5] == ["--python", "$HERMES_PYTHON"] or words[3] == "--python", where
        elif words[1:4] == ["-m", "pip", "install"] or (
            words[:3] == ["uv", "pip", "install"] and "--no-deps" in words
        ):
            assert_pip_route(words, where)
        elif words[:2] == ["uv", "add"] or words[:3] == ["uv", "pip", "install"]:
            requirements = [w for w in words if " @ " in w]
            assert len(requirements) == 1, where
            assert_requirement(requirements[0], where)
        elif words[:5] == ["uv", "run", "python", "-m", "pytest"]:
            for value in [v for k, v in itertools.pairwise(words) if k == "--hermes"]:
                assert parse_hosts(value), where  # raises ValueError for a wrong value
        elif words[:3] == ["uv", "run", "hermes-plugin-kit"]:
            assert_kit_command(words[3:], where)
        elif words in (["uv", "sync"], ["hermes", "plugins", "list"]) or words[0] in ("cd", "head"):
            pass  # a step of the tutorial (a directory change, the project's sync, a look)
        elif words[:3] == ["hermes", "plugins", "enable"]:
            assert len(words) == 4, where  # the plugin's name, as plugin.yaml gives it
        elif words[:2] == ["uvx", "--from"]:
            assert_requirement(words[2], where)
            assert words[3] == "hermes-plugin-kit", where
            assert_kit_command(words[4:], where)
        else:
            pytest.fail(f"{where}: a command the docs tests do not know")
    capsys.readouterr()


# -- text ------------------------------------------------------------------------------------


def printed(command: str, capsys: pytest.CaptureFixture[str], *, stderr: bool = False) -> str:
    """What ``command`` prints on stdout (and then on stderr, as a terminal shows both,
    when ``stderr``)."""
    words = shlex.split(command)
    assert words[0] == "hermes-plugin-kit", command
    capsys.readouterr()
    status = main(words[1:])
    captured = capsys.readouterr()
    assert status == 0, captured.out
    return captured.out + captured.err if stderr else captured.out


@pytest.mark.parametrize("block", by_kind("text"))
def test_a_text_block_is_what_the_command_prints_or_says_why_not(
    block: Block,
    workshop: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kind, _, rest = block.directive.partition(" ")
    if kind in {"output", "output-in"}:
        page = block.page
        for name in page_plugins(page):
            assemble(page, name, workshop)
        project = make_project(page, workshop)
        if project is not None:  # the page's commands run in it, as its reader does
            monkeypatch.chdir(project)
        out = printed(rest, capsys, stderr=kind == "output-in")
        if kind == "output":
            assert out.strip() == block.code.strip()
        else:
            for line in block.code.strip().splitlines():
                assert line in out, line
    elif kind == "tree":
        for line in block.code.splitlines():
            if line and not line[0].isspace():
                entry = line.split()[0]
                assert (ROOT / entry).exists(), f"{block.id}: {entry} does not exist"
    else:
        needs = (
            f"{block.id}: a ```text block needs `output CMD`, `output-in CMD`, `tree` or"
            " `illustration: WHY` before it"
        )
        assert kind == "illustration:", needs
        assert rest, needs
