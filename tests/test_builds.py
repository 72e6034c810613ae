"""One build of the kit per environment, whatever is imported first: wheels carry a build
stamp (``packages/build_stamp.py``) and ``kit_core`` refuses, at its import, a sibling of
another build, a copy vendored ahead of the install, and another project's package of a
kit name (dependency confusion), before that package's code runs.

Real installs into fresh environments, from wheels and directories built from copies of
this working tree (one of them with a changed source file)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from tests.test_packaging import ROOT, VERSION, git, uv

RUNTIME = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit")

# the build check is the same standard-library code on every Python and the wheels are
# pure Python (py3-none-any): these installs give one answer on each, so run on 3.11 only
pytestmark = pytest.mark.python_independent


def copy_tree(destination: Path) -> Path:
    """The workspace's packages as they are on disk (uncommitted work included)."""
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", "packages",
                 "pyproject.toml", cwd=ROOT)  # fmt: skip
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    return destination


def change_a_source(tree: Path) -> None:
    with (tree / "packages/kit-core/src/kit_core/names.py").open("a", encoding="utf-8") as file:
        file.write("\n# another build\n")


def build(tree: Path, out: Path) -> dict[str, Path]:
    uv("build", "--all-packages", "--no-sources", "--wheel", "--quiet", "--out-dir", str(out),
       cwd=tree)  # fmt: skip
    return {
        dist: next(out.glob(f"{dist.replace('-', '_')}-{VERSION}-*.whl"))
        for dist in (*RUNTIME, "kit-devtools")
    }


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], dict[str, Path]]:
    """Wheels of this tree (``a``), and of the same tree with one source changed (``b``)."""
    root = tmp_path_factory.mktemp("builds")
    a = copy_tree(root / "a")
    b = copy_tree(root / "b")
    change_a_source(b)
    return build(a, root / "dist-a"), build(b, root / "dist-b")


def stamp(wheel: Path) -> dict[str, object]:
    package = wheel.name.partition("-")[0]
    with zipfile.ZipFile(wheel) as archive:
        return json.loads(archive.read(f"{package}/_build.json"))


def environment(tmp_path: Path, *requirements: str | Path, flags: tuple[str, ...] = ()) -> Path:
    venv = tmp_path / "env"
    if not venv.exists():
        uv("venv", "--quiet", "--python", sys.executable, str(venv))
    python = venv / "bin" / "python"
    uv("pip", "install", "--quiet", "--python", str(python), *flags,
       *[str(r) for r in requirements])  # fmt: skip
    return python


def run(python: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", **env}, check=False)  # fmt: skip


def last_line(done: subprocess.CompletedProcess[str]) -> str:
    return done.stderr.strip().splitlines()[-1]


def test_wheels_of_one_tree_carry_one_stamp_and_another_tree_another(
    wheels: tuple[dict[str, Path], dict[str, Path]],
) -> None:
    a, b = wheels
    stamps_a = [stamp(w) for w in a.values()]
    assert all(s == stamps_a[0] for s in stamps_a)
    assert stamps_a[0]["version"] == VERSION
    assert len(str(stamps_a[0]["tree"])) == 64
    assert stamp(b["kit-media"])["tree"] != stamps_a[0]["tree"]  # one file of kit-core changed


def test_two_installs_from_one_checkout_at_two_states_are_refused(tmp_path: Path) -> None:
    checkout = copy_tree(tmp_path / "checkout")
    members = checkout / "packages"
    python = environment(tmp_path, members / "kit-core", flags=("--no-deps",))
    change_a_source(checkout)  # the checkout moves on; the rest is installed from it
    environment(tmp_path, *[members / d for d in RUNTIME[1:]], flags=("--no-deps",))
    for code in ("import hermes_plugin_kit", "import kit_core", "import kit_lifecycle"):
        refused = run(python, code)
        assert refused.returncode != 0, code
        message = last_line(refused)
        assert message.startswith("ImportError: kit_core cannot start: kit_"), message
        assert "but kit_core at" in message
        assert "must be of one build. Fix: install every kit package from one build" in message
    # both installs record the same checkout folder: only the build stamps tell them apart
    records = list((python.parent.parent / "lib").glob("python*/site-packages/*.dist-info"))
    urls = {json.loads((r / "direct_url.json").read_text())["url"].rpartition("/")[0]
            for r in records if r.name.startswith("kit_")}  # fmt: skip
    assert urls == {members.as_uri()}


def test_a_vendored_copy_of_another_build_ahead_of_the_install_is_refused(
    wheels: tuple[dict[str, Path], dict[str, Path]], tmp_path: Path
) -> None:
    a, b = wheels
    python = environment(tmp_path, *[a[d] for d in RUNTIME], flags=("--no-deps",))
    assert run(python, "import hermes_plugin_kit").returncode == 0
    for source, accepted in ((b, False), (a, True)):
        vendor = tmp_path / f"vendor-{'a' if accepted else 'b'}"
        with zipfile.ZipFile(source["kit-core"]) as archive:
            archive.extractall(vendor, [n for n in archive.namelist() if n.startswith("kit_core/")])
        code = "import hermes_plugin_kit, kit_lifecycle, kit_core; print(kit_core.__file__)"
        done = run(python, code, PYTHONPATH=str(vendor))
        if accepted:  # a copy of the same build is the same kit
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith(str(vendor))
        else:
            assert done.returncode != 0
            message = last_line(done)
            assert f"but kit_core at {vendor / 'kit_core'} is build" in message, message


def fake(tmp_path: Path, dist: str, marker: Path) -> Path:
    """Another project's wheel of the kit's name ``dist``: its import writes ``marker``."""
    project = tmp_path / f"fake-{dist}"
    package = project / dist.replace("-", "_")
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (project / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [build-system]
        requires = ["hatchling"]
        build-backend = "hatchling.build"
        [project]
        name = "{dist}"
        version = "{VERSION}"
        """))  # fmt: skip
    out = tmp_path / f"index-{dist}"
    uv("build", "--wheel", "--quiet", "--out-dir", str(out), str(project), cwd=tmp_path)
    return out


@pytest.mark.parametrize("dist", ["kit-lifecycle", "kit-core"])
def test_a_sibling_from_an_index_is_refused_before_its_code_runs(
    dist: str, wheels: tuple[dict[str, Path], dict[str, Path]], tmp_path: Path
) -> None:
    a, _ = wheels
    marker = tmp_path / "the-foreign-package-ran"
    index = fake(tmp_path, dist, marker)
    # the façade's own wheel and the siblings but one: the resolver takes that one from
    # the "index", as pip does from the public one for a sibling it is not given
    given = [a[d] for d in RUNTIME if d != dist]
    python = environment(tmp_path, *given, flags=("--find-links", str(index)))
    refused = run(python, "import hermes_plugin_kit")
    assert refused.returncode != 0
    message = last_line(refused)
    if dist == "kit-core":
        assert "is not hermes-plugin-kit's kit-core (it has no _build.py" in message, message
    else:
        assert "kit_lifecycle at" in message
        assert "is no build of this kit's (no _build.json, not in a checkout)" in message
    assert "never let an installer take a kit package from a package index" in message
    assert not marker.exists()  # refused before the foreign package's code ran
    assert run(python, f"import {dist.replace('-', '_')}").returncode == 0
    assert marker.exists()  # it was installed, and runs when a plugin imports it itself
