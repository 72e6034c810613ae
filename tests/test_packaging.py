"""The packages as plugin authors install them: exact pins resolve among the built
packages, a plugin environment gets only the standard library plus the runtime kit, the
author tooling comes only with the ``[dev]`` extra, and a kit installed from two commits
is refused at import."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "packages/kit-core/pyproject.toml").read_text())["project"][
    "version"
]


CHILD_ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")},
    "UV_PYTHON_DOWNLOADS": "never",
}
"""For uv working on another project: this run's environment (``VIRTUAL_ENV``, and
``UV_PROJECT_ENVIRONMENT`` when ``./scripts/test`` runs a leg on another Python) must not
become that project's, or uv would re-sync it for the consumer."""


def uv(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uv", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        env=CHILD_ENV,
    )


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    uv("build", "--all-packages", "--no-sources", "--wheel", "--out-dir", str(out))
    return out


@pytest.mark.python_independent  # pure-Python wheels and their metadata: the same on every Python
def test_every_member_builds_a_wheel_at_the_shared_version(wheels: Path) -> None:
    names = sorted(p.name for p in wheels.glob("*.whl"))
    assert names == [
        f"hermes_plugin_kit-{VERSION}-py3-none-any.whl",
        f"kit_core-{VERSION}-py3-none-any.whl",
        f"kit_devtools-{VERSION}-py3-none-any.whl",
        f"kit_lifecycle-{VERSION}-py3-none-any.whl",
        f"kit_media-{VERSION}-py3-none-any.whl",
    ]


def test_the_facade_installs_from_the_built_wheels_alone(wheels: Path, tmp_path: Path) -> None:
    venv = tmp_path / "plugin-env"
    uv("venv", "--quiet", "--python", sys.executable, str(venv))
    python = venv / "bin" / "python"
    uv(
        "pip",
        "install",
        "--quiet",
        "--python",
        str(python),
        "--no-index",
        "--find-links",
        str(wheels),
        "hermes-plugin-kit",
    )
    listed = uv("pip", "list", "--python", str(python), "--format", "freeze").stdout.split()
    assert sorted(listed) == [
        f"hermes-plugin-kit=={VERSION}",
        f"kit-core=={VERSION}",
        f"kit-lifecycle=={VERSION}",
        f"kit-media=={VERSION}",
    ]
    run = subprocess.run(
        [
            str(python),
            "-I",
            "-c",
            "import hermes_plugin_kit, kit_lifecycle, kit_media, kit_core.tools;"
            " print(kit_core.tools.__file__)",
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "site-packages" in run.stdout


RUNTIME_PACKAGES = {"kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit"}
KIT_PACKAGES = {*RUNTIME_PACKAGES, "kit-devtools"}

# The command is looked for in the consumer's own environment: `uv run` puts this
# repository's dev environment (which has the command) on PATH behind it.
INSPECT = """
import importlib.metadata as m, importlib.util as u, json, shutil, sysconfig
print(json.dumps({
    "pytest11": sorted(e.value for e in m.entry_points(group="pytest11")),
    "devtools": u.find_spec("kit_devtools") is not None,
    "command": shutil.which("hermes-plugin-kit", path=sysconfig.get_path("scripts")) is not None,
    "dists": sorted(d.metadata["Name"] for d in m.distributions()),
}))
"""


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A clone of this repository's HEAD, as a consumer's git URL reaches it."""
    clone = tmp_path_factory.mktemp("repo") / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    sha = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return clone, sha


def consumer_project(tmp_path: Path, line: str, *, dev: bool = False) -> Path:
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    uv("init", "--quiet", "--bare", "--name", "consumer", "--python", sys.executable, cwd=consumer)
    uv(
        "add",
        "--quiet",
        *(["--dev"] if dev else []),
        "--python",
        sys.executable,
        line,
        cwd=consumer,
    )
    return consumer


def inspect_environment(consumer: Path) -> dict[str, Any]:
    run = uv("run", "--quiet", "--python", sys.executable, "python", "-c", INSPECT, cwd=consumer)
    return json.loads(run.stdout)


@pytest.mark.python_independent  # pure-Python wheels and their metadata: the same on every Python
def test_the_runtime_install_brings_no_author_tooling(
    tmp_path: Path, clone: tuple[Path, str]
) -> None:
    repo, sha = clone
    line = f"hermes-plugin-kit @ git+file://{repo}@{sha}#subdirectory=packages/hermes-plugin-kit"
    found = inspect_environment(consumer_project(tmp_path, line))
    assert set(found["dists"]) & KIT_PACKAGES == RUNTIME_PACKAGES
    assert "pytest" not in found["dists"]
    assert found["pytest11"] == []
    assert found["devtools"] is False
    assert found["command"] is False


@pytest.mark.python_independent  # pure-Python wheels and their metadata: the same on every Python
def test_the_dev_extra_brings_the_command_and_it_checks_an_example(
    tmp_path: Path, clone: tuple[Path, str]
) -> None:
    repo, sha = clone
    line = (
        f"hermes-plugin-kit[dev] @ git+file://{repo}@{sha}#subdirectory=packages/hermes-plugin-kit"
    )
    consumer = consumer_project(tmp_path, line, dev=True)
    found = inspect_environment(consumer)
    assert set(found["dists"]) & KIT_PACKAGES == KIT_PACKAGES
    assert "pytest" in found["dists"]  # the pytest plugin's fixtures need pytest itself
    assert found["pytest11"] == ["kit_devtools.testing.pytest_plugin"]
    assert (found["devtools"], found["command"]) == (True, True)
    fixtures = subprocess.run(
        [str(consumer / ".venv" / "bin" / "python"), "-m", "pytest", "--fixtures", "-q"],
        cwd=consumer,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "plugin_host" in fixtures.stdout, fixtures.stdout + fixtures.stderr
    example = ROOT / "examples" / "unit-convert"
    check = subprocess.run(
        [str(consumer / ".venv" / "bin" / "hermes-plugin-kit"), "check", str(example), "--probe"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "units_convert_temperature" in check.stdout
    assert check.stdout.splitlines()[-1] == "0 error(s), 0 warning(s), 0 convention(s)"


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [("hermes-plugin-kit", RUNTIME_PACKAGES), ("kit-core", {"kit-core"})],
)
def test_the_readme_install_lines_resolve_every_kit_package_from_one_commit(
    requirement: str, expected: set[str], tmp_path: Path, clone: tuple[Path, str]
) -> None:
    repo, sha = clone
    line = f"{requirement} @ git+file://{repo}@{sha}#subdirectory=packages/{requirement}"
    consumer = consumer_project(tmp_path, line)
    lock = tomllib.loads((consumer / "uv.lock").read_text())
    sources = {p["name"]: p["source"] for p in lock["package"] if p["name"] in KIT_PACKAGES}
    assert set(sources) == expected
    for name, source in sources.items():
        assert source["git"].endswith(f"#{sha}"), (name, source)
        assert f"subdirectory=packages%2F{name}" in source["git"]


@pytest.mark.python_independent  # pure-Python wheels and their metadata: the same on every Python
def test_the_command_runs_with_no_project_at_all(tmp_path: Path, clone: tuple[Path, str]) -> None:
    """The README's ``uvx --from "kit-devtools @ git+…" hermes-plugin-kit check PATH``."""
    repo, sha = clone
    line = f"kit-devtools @ git+file://{repo}@{sha}#subdirectory=packages/kit-devtools"
    example = ROOT / "examples" / "unit-convert"
    run = uv(
        "tool", "run", "--quiet", "--python", sys.executable, "--from", line,
        "hermes-plugin-kit", "check", str(example),
        cwd=tmp_path,
    )  # fmt: skip
    assert run.stdout.splitlines()[-1] == "0 error(s), 0 warning(s), 0 convention(s)"
    assert "units_convert_length" in run.stdout


def git(*args: str, cwd: Path) -> str:
    identity = ["-c", "user.name=kit tests", "-c", "user.email=kit-tests@example.invalid"]
    return subprocess.run(
        ["git", *identity, *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture(scope="module")
def two_commits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A clone of this repository with two commits: the working tree's packages, then one more.

    The first commit copies ``packages/`` as it is on disk (uncommitted work included), so
    the check under test is the one being edited.
    """
    clone = tmp_path_factory.mktemp("repository") / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    shutil.rmtree(clone / "packages")
    listed = git(
        "ls-files", "-z", "--cached", "--others", "--exclude-standard", "packages", cwd=ROOT
    )
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():  # a deleted file is still listed as cached
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    git("add", "--all", "packages", cwd=clone)
    git("commit", "--quiet", "--allow-empty", "-m", "the working tree's packages", cwd=clone)
    first = git("rev-parse", "HEAD", cwd=clone).strip()
    # a runtime source changes: two commits of one runtime source would be one build
    with (clone / "packages/kit-core/src/kit_core/names.py").open("a", encoding="utf-8") as file:
        file.write("\n# a second commit\n")
    git("commit", "--quiet", "--all", "-m", "a second commit", cwd=clone)
    return clone, first, git("rev-parse", "HEAD", cwd=clone).strip()


def test_a_kit_installed_from_two_commits_is_refused_until_one_commit_is_installed(
    two_commits: tuple[Path, str, str], tmp_path: Path
) -> None:
    clone, first, second = two_commits
    devtools = "kit-devtools"

    def requirement(dist: str, sha: str) -> str:
        return f"{dist} @ git+{clone.as_uri()}@{sha}#subdirectory=packages/{dist}"

    venv = tmp_path / "plugin-env"
    uv("venv", "--quiet", "--python", sys.executable, str(venv))
    python = str(venv / "bin" / "python")
    # one plugin brought the kit at the second commit, another re-installed kit-core alone
    later = [requirement(d, second) for d in ("kit-lifecycle", "kit-media", "hermes-plugin-kit")]
    uv("pip", "install", "--quiet", "--python", python, "--no-deps", *later)
    uv("pip", "install", "--quiet", "--python", python, "--no-deps", requirement("kit-core", first))

    def import_facade() -> subprocess.CompletedProcess[str]:
        code = "import hermes_plugin_kit"
        return subprocess.run([python, "-I", "-c", code], capture_output=True, text=True)

    refused = import_facade()
    assert refused.returncode != 0
    message = refused.stderr.strip().splitlines()[-1]
    site = next((venv / "lib").glob("python*/site-packages"))
    build = r"build [0-9a-f]{12} of commit "
    assert re.match(
        "ImportError: kit_core cannot start: "
        + ", ".join(
            re.escape(f"{package} at {site / package} is ") + build + second[:12]
            for package in ("kit_lifecycle", "kit_media", "hermes_plugin_kit")
        )
        + re.escape(f", but kit_core at {site / 'kit_core'} is ")
        + build
        + re.escape(f"{first[:12]}; plugins share one environment"),
        message,
    ), refused.stderr
    assert "Fix: install every kit package from one build" in message
    assert "without a uv project, `uv pip install --reinstall` it)" in message

    # the fix the message gives, in an environment without a uv project
    uv("pip", "install", "--quiet", "--python", python, "--reinstall", later[-1])
    frozen = uv("pip", "freeze", "--python", python).stdout.splitlines()
    assert len(frozen) == 4
    assert all(
        line.endswith(f"@{second}#subdirectory=packages/{line.split()[0]}") for line in frozen
    )
    imported = import_facade()
    assert imported.returncode == 0, imported.stderr

    # kit-devtools is optional, and checked once installed: here from the other commit
    uv("pip", "install", "--quiet", "--python", python, "--no-deps", requirement(devtools, first))
    refused = import_facade()
    assert refused.returncode != 0
    message = refused.stderr.strip().splitlines()[-1]
    assert re.match(
        re.escape(
            f"ImportError: kit_core cannot start: kit_devtools at {site / 'kit_devtools'} is "
        )
        + build
        + re.escape(f"{first[:12]}, but kit_core at {site / 'kit_core'} is ")
        + build
        + re.escape(f"{second[:12]};"),
        message,
    ), refused.stderr


@pytest.mark.python_independent  # pure-Python wheels and their metadata: the same on every Python
def test_way_two_into_hermes_installs_the_runtime_alone(
    tmp_path: Path, clone: tuple[Path, str]
) -> None:
    """docs/into-hermes.md's way 2 line (the kit, ``--no-deps``, into hermes' Python), run
    with uv against a clone: the runtime imports there, the author tooling is not there.
    (That hermes loads a copied plugin directory with the kit importable is what every
    real-host test does; tests/host/test_into_hermes.py checks the copy alone fails.)"""
    import shlex

    import yaml

    repo, sha = clone
    page = (ROOT / "docs" / "into-hermes.md").read_text(encoding="utf-8")
    [line] = [x for x in page.splitlines() if x.startswith("uv pip install") and "--no-deps" in x]
    url = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["repo_url"]
    venv = tmp_path / "hermes-env"
    uv("venv", "--quiet", "--python", sys.executable, str(venv))
    python = venv / "bin" / "python"
    line = line.replace(f"{url}.git", repo.as_uri()).replace("<commit-sha>", sha)
    words = shlex.split(line.replace('"$HERMES_PYTHON"', shlex.quote(str(python))))
    assert words[:4] == ["uv", "pip", "install", "--python"]
    assert "--no-deps" in words
    uv(*words[1:], "--quiet")
    imports = "import hermes_plugin_kit, kit_core, kit_lifecycle, kit_media"
    done = subprocess.run([str(python), "-I", "-c", imports], capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    no_tooling = subprocess.run([str(python), "-I", "-c", "import kit_devtools"],
                                capture_output=True, check=False)  # fmt: skip
    assert no_tooling.returncode == 1


@pytest.mark.python_independent  # pure-Python wheels and their metadata: the same on every Python
def test_the_documented_pip_route_installs_the_kit_and_nothing_from_an_index(
    tmp_path: Path, clone: tuple[Path, str]
) -> None:
    """docs/install.md's pip line, run with pip against a clone: every kit package from
    the commit, none looked up by name (``--no-deps``), and the façade imports."""
    import re
    import shlex

    import yaml

    repo, sha = clone
    page = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    [line] = [x for x in page.splitlines() if x.startswith("python -m pip install ")]
    url = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["repo_url"]
    words = shlex.split(line.replace(f"{url}.git", repo.as_uri()).replace("<commit-sha>", sha))
    venv = tmp_path / "pip-env"
    uv("venv", "--quiet", "--seed", "--python", sys.executable, str(venv))
    python = venv / "bin" / "python"

    def freeze() -> set[str]:
        listed = subprocess.run([str(python), "-m", "pip", "freeze", "--all"],
                                capture_output=True, text=True, check=True)  # fmt: skip
        return set(listed.stdout.splitlines())

    before = freeze()
    subprocess.run([str(python), *words[1:], "--quiet"], check=True, capture_output=True)
    added = freeze() - before  # what the line installed: the kit, and nothing else
    assert sorted(re.sub(r" @ .*", "", f) for f in added) == sorted(RUNTIME_PACKAGES)
    assert all(f.endswith(f"@{sha}#subdirectory=packages/{f.split()[0]}") for f in added)
    done = subprocess.run([str(python), "-I", "-c", "import hermes_plugin_kit, kit_media"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
