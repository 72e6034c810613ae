"""``kit_core._build``: the one check that the kit packages imported are of one build.

What says which build a folder is of, and the refusals worded from it, in this process;
then installs laid out by hand (tests/_kit_installs.py) imported for real in a fresh
interpreter: wheels of one build, checkouts, and their mixes. Wheels built and installed
by uv are in tests/test_builds.py and tests/test_packaging.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests._kit_installs import (
    CHECKOUT,
    RUNTIME,
    SHA_A,
    SHA_B,
    TREE_A,
    TREE_B,
    checkout,
    lay,
    refusal,
    run,
    wheel,
    wheels,
    write_stamp,
)

import kit_core
from hermes_plugin_kit import _foreign_core
from kit_core._build import FIX, PACKAGES, build_of, check, confirm, describe

SHORT_A, SHORT_B = TREE_A[:12], TREE_B[:12]
COMMIT_A, COMMIT_B = SHA_A[:12], SHA_B[:12]


def stamped(folder: Path, tree: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "_build.json").write_text(json.dumps({"version": "0.1.0", "tree": tree}))
    return folder


# --- what a folder says ------------------------------------------------------------------


def test_a_wheels_folder_is_of_its_stamps_tree(tmp_path: Path) -> None:
    assert build_of(str(stamped(tmp_path / "kit_core", "ab" * 32))) == f"build {'ab' * 32}"


def test_a_folder_of_the_checkout_is_of_the_checkout() -> None:
    folder = Path(kit_core.__file__).resolve().parent
    assert build_of(str(folder)) == f"checkout {CHECKOUT}"


def test_a_build_is_described_by_its_short_tree_and_commit(tmp_path: Path) -> None:
    folder = wheel(tmp_path, "kit_media", TREE_B, SHA_B)
    assert describe(str(folder), build_of(str(folder))) == f"build {SHORT_B} of commit {COMMIT_B}"
    bare = wheel(tmp_path / "bare", "kit_media", TREE_B, None)  # built outside Git
    assert describe(str(bare), build_of(str(bare))) == f"build {SHORT_B}"


MALFORMED: list[bytes] = [
    b"",
    b"{not json",
    b"null",
    b"[1]",
    b'"text"',
    b"\xff\xfe\x00garbage",
    b"[" * 100_000,
    b'{"tree": ""}',
    b'{"tree": 7}',
    b'{"tree": null, "commit": "' + SHA_A.encode() + b'"}',
    b'{"version": "0.1.0"}',
    b"NaN",
]


@pytest.mark.parametrize("raw", [None, *MALFORMED], ids=range(len(MALFORMED) + 1))
def test_a_folder_that_says_nothing_readable_is_of_no_build(
    raw: bytes | None, tmp_path: Path
) -> None:
    folder = tmp_path / "site-packages" / "kit_core"
    folder.mkdir(parents=True)
    if raw is not None:
        (folder / "_build.json").write_bytes(raw)
    assert build_of(str(folder)) is None
    said = describe(str(folder), None)
    if raw is None:
        assert said == "no build of this kit's (no _build.json, not in a checkout)"
    else:
        assert said.startswith("no build of this kit's (its _build.json cannot be read")


def test_a_stamp_that_is_a_folder_is_of_no_build(tmp_path: Path) -> None:
    folder = tmp_path / "kit_core"
    (folder / "_build.json").mkdir(parents=True)
    assert build_of(str(folder)) is None
    assert "its _build.json cannot be read" in describe(str(folder), None)


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return stamped(tmp_path_factory.mktemp("site") / "kit_core", TREE_A)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=st.binary(max_size=200)
    | st.fixed_dictionaries(
        {}, optional={"tree": st.text(max_size=70) | JSON, "commit": JSON, "version": JSON}
    ).map(lambda d: json.dumps(d).encode())
)
def test_any_stamp_is_its_tree_or_no_build(fuzz_folder: Path, raw: bytes) -> None:
    (fuzz_folder / "_build.json").write_bytes(raw)
    try:
        stamp: object = json.loads(raw)
    except ValueError:
        stamp = None
    tree = stamp.get("tree") if isinstance(stamp, dict) else None
    expected = f"build {tree}" if isinstance(tree, str) and tree else None
    event("a build" if expected else "no build")
    assert build_of(str(fuzz_folder)) == expected
    described = describe(str(fuzz_folder), expected)
    assert described.startswith("build " if expected else "no build of this kit's"), described


# --- the refusals, in this process ---------------------------------------------------------


def test_kit_core_of_another_build_refuses_every_installed_sibling(tmp_path: Path) -> None:
    core = stamped(tmp_path / "vendor" / "kit_core", "cd" * 32)
    with pytest.raises(ImportError) as refused:
        check(str(core / "__init__.py"))
    message = str(refused.value)
    assert message.startswith(
        f"kit_core cannot start: kit_lifecycle at {CHECKOUT}/kit-lifecycle/src/kit_lifecycle"
        f" is checkout {CHECKOUT}, kit_media at {CHECKOUT}/kit-media/src/kit_media is"
        f" checkout {CHECKOUT}, "
    )
    assert f", but kit_core at {core} is build cdcdcdcdcdcd;" in message
    for name in PACKAGES[1:]:
        assert f"{name} at {CHECKOUT}/{name.replace('_', '-')}/src/{name} is checkout" in message
    assert f"Fix: {FIX}" in message


def test_a_sibling_imported_from_elsewhere_is_refused(tmp_path: Path) -> None:
    check(kit_core.__file__)  # this checkout: one build
    elsewhere = stamped(tmp_path / "vendor" / "kit_media", "ef" * 32)
    with pytest.raises(ImportError, match=r"^kit_media cannot start: kit_media at .*vendor"):
        confirm("kit_media", str(elsewhere / "__init__.py"))
    confirm("kit_media", str(CHECKOUT / "kit-media/src/kit_media/__init__.py"))


def test_the_facades_fix_for_a_foreign_kit_core_is_the_build_checks() -> None:
    assert _foreign_core.FIX == FIX


def test_the_fix_names_no_repository_and_no_credentials() -> None:
    assert "<repo-url>" in FIX
    assert "://" not in FIX


# --- real imports: one build passes ----------------------------------------------------------

IMPORT_ALL = "import hermes_plugin_kit, kit_lifecycle, kit_media, kit_core; print('imported')"


def test_wheels_of_one_build_import(tmp_path: Path) -> None:
    done = run([wheels(tmp_path / "site")], IMPORT_ALL)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "imported\n"


def test_one_checkout_imports(tmp_path: Path) -> None:
    srcs = [checkout(tmp_path / "work tree", package) for package in RUNTIME]
    done = run(srcs, IMPORT_ALL)
    assert done.returncode == 0, done.stderr


def test_kit_devtools_is_not_required_and_of_the_same_build_passes(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site")
    code = (
        "import hermes_plugin_kit, importlib.util; print(importlib.util.find_spec('kit_devtools'))"
    )
    assert run([site], code).stdout == "None\n"
    wheel(site, "kit_devtools")
    done = run([site], IMPORT_ALL)
    assert done.returncode == 0, done.stderr


# --- real imports: every mix is refused, naming both builds ------------------------------


@pytest.mark.parametrize(
    "code", ["import hermes_plugin_kit", "import kit_core", "import kit_media"]
)
def test_packages_of_two_builds_are_refused_with_each_short_tree_and_commit(
    tmp_path: Path, code: str
) -> None:
    site = wheels(tmp_path / "site", *RUNTIME[1:], tree=TREE_B, commit=SHA_B)
    wheel(site, "kit_core", TREE_A, SHA_A)
    message = refusal([site], code)
    assert message.startswith("kit_core cannot start: kit_lifecycle at ")
    for name in RUNTIME[1:]:
        assert f"{name} at {site / name} is build {SHORT_B} of commit {COMMIT_B}" in message
    assert (
        f"but kit_core at {site / 'kit_core'} is build {SHORT_A} of commit {COMMIT_A};" in message
    )
    assert SHA_A not in message
    assert TREE_A not in message  # the short forms only


def test_kit_devtools_of_another_build_is_refused(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site")
    wheel(site, "kit_devtools", TREE_B, SHA_B)
    message = refusal([site])
    assert (
        f"kit_devtools at {site / 'kit_devtools'} is build {SHORT_B} of commit {COMMIT_B},"
        in message
    )
    assert (
        f"but kit_core at {site / 'kit_core'} is build {SHORT_A} of commit {COMMIT_A};" in message
    )
    assert "kit_lifecycle at" not in message  # of kit_core's build: not named


def test_a_checkout_mixed_with_built_wheels_is_refused(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site", *RUNTIME[:3])
    root = tmp_path / "checkout"
    message = refusal([site, checkout(root, "hermes_plugin_kit")])
    facade = root / "packages/hermes-plugin-kit/src/hermes_plugin_kit"
    assert f"hermes_plugin_kit at {facade} is checkout {root / 'packages'}," in message
    assert (
        f"but kit_core at {site / 'kit_core'} is build {SHORT_A} of commit {COMMIT_A};" in message
    )


def test_two_checkouts_are_refused(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    srcs = [checkout(two if p == "kit_media" else one, p) for p in RUNTIME]
    message = refusal(srcs)
    media = two / "packages/kit-media/src/kit_media"
    core = one / "packages/kit-core/src/kit_core"
    assert f"kit_media at {media} is checkout {two / 'packages'}," in message
    assert f"but kit_core at {core} is checkout {one / 'packages'};" in message


# --- real imports: a shadowing copy ---------------------------------------------------------


@pytest.mark.parametrize("package", ["kit_core", "kit_media", "hermes_plugin_kit"])
def test_a_copy_of_another_build_earlier_on_the_path_is_refused(
    tmp_path: Path, package: str
) -> None:
    early, site = tmp_path / "early", wheels(tmp_path / "site")
    wheel(early, package, TREE_B, SHA_B)
    message = refusal([early, site], IMPORT_ALL)
    if package == "kit_core":
        assert (
            f"but kit_core at {early / 'kit_core'} is build {SHORT_B} of commit {COMMIT_B};"
            in message
        )
        assert (
            f"kit_lifecycle at {site / 'kit_lifecycle'} is build {SHORT_A} of commit {COMMIT_A}"
            in message
        )
    else:
        assert f"{package} at {early / package} is build {SHORT_B} of commit {COMMIT_B}," in message
        assert f"but kit_core at {site / 'kit_core'} is build {SHORT_A}" in message


def test_a_copy_of_the_same_build_earlier_on_the_path_is_the_same_kit(tmp_path: Path) -> None:
    early, site = tmp_path / "early", wheels(tmp_path / "site")
    wheel(early, "kit_core")
    done = run([early, site], IMPORT_ALL + "; print(kit_core.__file__)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith(str(early / "kit_core"))


def test_a_copy_put_on_the_path_after_kit_core_is_refused_at_its_import(tmp_path: Path) -> None:
    site, late = wheels(tmp_path / "site"), tmp_path / "late"
    wheel(late, "kit_lifecycle", TREE_B, SHA_B)
    code = f"import kit_core; sys.path.insert(0, {str(late)!r}); import kit_lifecycle"
    message = refusal([site], code)
    assert message.startswith(
        f"kit_lifecycle cannot start: kit_lifecycle at {late / 'kit_lifecycle'} is build"
        f" {SHORT_B} of commit {COMMIT_B}, but kit_core at {site / 'kit_core'} is build"
        f" {SHORT_A} of commit {COMMIT_A};"
    )


# --- real imports: a copy that says no build ------------------------------------------------


def test_a_copy_with_no_stamp_outside_a_checkout_is_refused(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site", "kit_core", "kit_media", "hermes_plugin_kit")
    lay(site / "kit_lifecycle", "kit_lifecycle")  # vendored from source
    message = refusal([site])
    assert (
        f"kit_lifecycle at {site / 'kit_lifecycle'} is no build of this kit's (no _build.json,"
        " not in a checkout), but kit_core at"
    ) in message
    assert f"is build {SHORT_A} of commit {COMMIT_A};" in message


@pytest.mark.parametrize("raw", [b"{not json", b'{"tree": ""}', b"\xff\xfe"], ids=range(3))
def test_an_unreadable_stamp_counts_as_no_build_and_is_refused(tmp_path: Path, raw: bytes) -> None:
    site = wheels(tmp_path / "site")
    (site / "kit_media" / "_build.json").write_bytes(raw)
    message = refusal([site])
    assert (
        f"kit_media at {site / 'kit_media'} is no build of this kit's (its _build.json cannot"
        " be read or names no tree: a damaged or hand-made copy), but kit_core at"
        f" {site / 'kit_core'} is build {SHORT_A} of commit {COMMIT_A};"
    ) in message


def test_kit_core_of_no_build_refuses_even_siblings_of_no_build(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for package in RUNTIME:
        lay(site / package, package)
    message = refusal([site])
    assert message.count("is no build of this kit's (no _build.json, not in a checkout)") == 4


def test_the_refusal_repeats_nothing_of_a_stamp_but_tree_and_commit(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site")
    secret = "https://user:token@example.org/kit.git"
    write_stamp(site / "kit_media", TREE_B, SHA_B, url=secret)
    message = refusal([site])
    assert "token" not in message
    assert "example.org" not in message


def test_a_foreign_kit_core_is_refused_by_the_facade_before_it_runs(tmp_path: Path) -> None:
    site = wheels(tmp_path / "site", *RUNTIME[1:])
    marker = tmp_path / "the-foreign-package-ran"
    (site / "kit_core").mkdir()
    (site / "kit_core" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    message = refusal([site])
    assert message.startswith(
        f"hermes_plugin_kit cannot start: the kit_core at {site / 'kit_core'} is not"
        " hermes-plugin-kit's kit-core (it has no _build.py"
    )
    assert not marker.exists()
