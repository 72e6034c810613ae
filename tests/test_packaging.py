"""The wheels as plugin authors install them: exact pins resolve among the built packages,
and a plugin environment gets only the standard library plus the kit."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "packages/kit-core/pyproject.toml").read_text())["project"][
    "version"
]


def uv(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uv", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "UV_PYTHON_DOWNLOADS": "never", "VIRTUAL_ENV": ""},
    )


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    uv("build", "--all-packages", "--no-sources", "--wheel", "--out-dir", str(out))
    return out


def test_every_member_builds_a_wheel_at_the_shared_version(wheels: Path) -> None:
    names = sorted(p.name for p in wheels.glob("*.whl"))
    assert names == [
        f"hermes_plugin_kit-{VERSION}-py3-none-any.whl",
        f"kit_core-{VERSION}-py3-none-any.whl",
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


KIT_PACKAGES = {"kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit"}


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [("hermes-plugin-kit", KIT_PACKAGES), ("kit-core", {"kit-core"})],
)
def test_the_readme_install_lines_resolve_every_kit_package_from_one_commit(
    requirement: str, expected: set[str], tmp_path: Path
) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    sha = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    uv("init", "--quiet", "--bare", "--name", "consumer", "--python", sys.executable, cwd=consumer)
    line = f"{requirement} @ git+file://{clone}@{sha}#subdirectory=packages/{requirement}"
    uv("add", "--quiet", "--python", sys.executable, line, cwd=consumer)
    lock = tomllib.loads((consumer / "uv.lock").read_text())
    sources = {p["name"]: p["source"] for p in lock["package"] if p["name"] in KIT_PACKAGES}
    assert set(sources) == expected
    for name, source in sources.items():
        assert source["git"].endswith(f"#{sha}"), (name, source)
        assert f"subdirectory=packages%2F{name}" in source["git"]
