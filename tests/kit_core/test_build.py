"""``kit_core._build``: what says which build a kit package's folder is of, and the
refusals worded from it (real installs are in tests/test_builds.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kit_core
from kit_core._build import build_of, check, confirm

CHECKOUT = Path(kit_core.__file__).resolve().parents[3]  # .../packages


def stamped(folder: Path, tree: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "_build.json").write_text(json.dumps({"version": "0.1.0", "tree": tree}))
    return folder


def test_a_wheels_folder_is_of_its_stamps_tree(tmp_path: Path) -> None:
    assert build_of(str(stamped(tmp_path / "kit_core", "ab" * 32))) == f"build {'ab' * 32}"


def test_a_folder_of_the_checkout_is_of_the_checkout() -> None:
    folder = Path(kit_core.__file__).resolve().parent
    assert build_of(str(folder)) == f"checkout {CHECKOUT}"


@pytest.mark.parametrize("stamp", [None, "{not json", '{"tree": ""}', "[1]", '{"tree": 7}'])
def test_a_folder_that_says_nothing_readable_is_of_no_build(
    stamp: str | None, tmp_path: Path
) -> None:
    folder = tmp_path / "site-packages" / "kit_core"
    folder.mkdir(parents=True)
    if stamp is not None:
        (folder / "_build.json").write_text(stamp)
    assert build_of(str(folder)) is None


def test_kit_core_of_another_build_refuses_the_installed_siblings(tmp_path: Path) -> None:
    core = stamped(tmp_path / "vendor" / "kit_core", "cd" * 32)
    with pytest.raises(ImportError) as refused:
        check(str(core / "__init__.py"))
    message = str(refused.value)
    assert message.startswith(
        f"kit_core cannot start: kit_lifecycle at {CHECKOUT}/kit-lifecycle/src/kit_lifecycle"
        f" is checkout {CHECKOUT}, but kit_core at {core} is build cdcdcdcdcdcd;"
    )
    assert "Fix: install every kit package from one build" in message


def test_a_sibling_imported_from_elsewhere_is_refused(tmp_path: Path) -> None:
    check(kit_core.__file__)  # this checkout: one build
    elsewhere = stamped(tmp_path / "vendor" / "kit_media", "ef" * 32)
    with pytest.raises(ImportError, match=r"^kit_media cannot start: kit_media at .*vendor"):
        confirm("kit_media", str(elsewhere / "__init__.py"))
    confirm("kit_media", str(CHECKOUT / "kit-media/src/kit_media/__init__.py"))
