"""The façade's import-time check: one version from one revision, on synthetic dist-info dirs.

Each test lays out a site directory as installers do (``<name>-<version>.dist-info`` with
an optional PEP 610 ``direct_url.json``, the import package beside it) and runs the check
on that path alone. The real two-commit install is in tests/test_packaging.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hermes_plugin_kit._versions import (
    FIX,
    KIT_DISTRIBUTIONS,
    SHORT_SHA,
    VERSION,
    Install,
    _expected_dist_infos,
    check_versions,
    find_installs,
    fix_for,
    install_problem,
    read_source,
)

SHA_A = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
SHA_B = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
REPO = "https://example.org/hermes-plugin-kit.git"
DEVTOOLS = "kit-devtools"

Record = dict[str, object] | bytes | None


def git(sha: str, dist: str = "kit-core", url: str = REPO) -> dict[str, object]:
    return {
        "url": url,
        "vcs_info": {"vcs": "git", "commit_id": sha, "requested_revision": sha[:7]},
        "subdirectory": f"packages/{dist}",
    }


def checkout(root: Path, dist: str = "kit-core") -> dict[str, object]:
    return {"url": (root / "packages" / dist).as_uri(), "dir_info": {"editable": True}}


def archive(dist: str = "kit-core") -> dict[str, object]:
    wheel = f"{dist.replace('-', '_')}-{VERSION}-py3-none-any.whl"
    return {"url": f"file:///tmp/dist/{wheel}", "archive_info": {"hashes": {"sha256": "00"}}}


def install(
    site: Path, dist: str, record: Record, version: str = VERSION, package: bool = True
) -> Path:
    """One installed distribution: its dist-info, its record and (unless editable) its package."""
    name = dist.replace("-", "_")
    info = site / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.4\nName: {dist}\nVersion: {version}\n")
    if record is not None:
        raw = record if isinstance(record, bytes) else json.dumps(record).encode()
        (info / "direct_url.json").write_bytes(raw)
    if package:
        (site / name).mkdir(exist_ok=True)
        (site / name / "__init__.py").touch()
    return info


def install_all(site: Path, record: Record | None = None, **records: Record) -> None:
    """The four runtime distributions; ``records`` by import name override ``record``."""
    for dist in KIT_DISTRIBUTIONS:
        chosen = records.get(dist.replace("-", "_"), record)
        if isinstance(chosen, dict) and "vcs_info" in chosen:
            chosen = {**chosen, "subdirectory": f"packages/{dist}"}
        install(site, dist, chosen)


def refusal(path: list[str]) -> str:
    with pytest.raises(ImportError) as refused:
        check_versions(path)
    message = str(refused.value)
    assert message.startswith("hermes_plugin_kit cannot start: ")
    assert "Install every kit package from one commit" in message
    return message


# --- one revision passes ---------------------------------------------------------------


def test_four_packages_from_one_commit_pass(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_A))
    check_versions([str(tmp_path)])
    installs = find_installs([str(tmp_path)])
    assert list(installs) == list(KIT_DISTRIBUTIONS)
    assert {i.revision for i in installs.values()} == {f"git {SHA_A}"}
    assert installs["kit-core"] == Install(VERSION, f"git {SHA_A}", REPO)


def test_one_workspace_checkout_passes_and_is_named_by_its_root(tmp_path: Path) -> None:
    site, root = tmp_path / "site", tmp_path / "work tree"
    for dist in KIT_DISTRIBUTIONS:  # editable: the packages live in the checkout
        install(site, dist, checkout(root, dist), package=False)
    check_versions([str(site)])
    (revision,) = {i.revision for i in find_installs([str(site)]).values()}
    assert revision == f"dir {(root / 'packages').as_uri()}"


def test_index_and_wheel_installs_are_held_to_the_version_alone(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_A), kit_core=None, kit_media=archive())
    check_versions([str(tmp_path)])
    installs = find_installs([str(tmp_path)])
    assert installs["kit-core"].revision is None
    assert installs["kit-media"].revision is None
    assert installs["kit-lifecycle"].revision == f"git {SHA_A}"


def test_the_fast_path_finds_what_the_full_listing_finds(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_A))
    expected = _expected_dist_infos(["/no/such/entry", str(tmp_path / "empty"), str(tmp_path)])
    assert expected is not None
    assert set(expected) == set(find_installs([str(tmp_path)]))


def test_the_check_takes_the_fast_path_in_this_environment() -> None:
    check_versions()
    assert _expected_dist_infos(sys.path) is not None  # no full listing in the dev environment


def test_an_empty_entry_means_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_all(tmp_path, git(SHA_A))
    monkeypatch.chdir(tmp_path)
    assert _expected_dist_infos([""]) is not None
    check_versions([""])


# --- the optional kit-devtools ---------------------------------------------------------


def test_kit_devtools_is_not_required(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_A))
    expected = _expected_dist_infos([str(tmp_path)])
    assert expected is not None
    assert DEVTOOLS not in expected


def test_kit_devtools_from_the_same_commit_passes(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_A))
    install(tmp_path, DEVTOOLS, git(SHA_A, DEVTOOLS))
    check_versions([str(tmp_path)])
    assert DEVTOOLS in (_expected_dist_infos([str(tmp_path)]) or {})


def test_kit_devtools_from_another_commit_is_refused(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_A))
    install(tmp_path, DEVTOOLS, git(SHA_B, DEVTOOLS))
    message = refusal([str(tmp_path)])
    assert f"kit-devtools {VERSION} (git {SHA_B[:SHORT_SHA]})" in message


@pytest.mark.parametrize("package", [True, False], ids=["installed", "editable"])
def test_kit_devtools_at_another_version_is_refused(tmp_path: Path, package: bool) -> None:
    site, src = tmp_path / "site", tmp_path / "src"
    install_all(site, git(SHA_A))
    install(site, DEVTOOLS, None, version="0.2.0", package=package)
    (src / "kit_devtools").mkdir(parents=True)  # an editable install's source folder
    message = refusal([str(site), str(src)])
    assert "the kit packages are at different versions" in message
    assert "kit-devtools 0.2.0 (revision unknown)" in message


# --- mixes are refused, naming each package ----------------------------------------------


def test_packages_from_two_commits_are_refused_with_each_short_sha(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_B), kit_core=git(SHA_A))
    message = refusal([str(tmp_path)])
    short_a, short_b = SHA_A[:SHORT_SHA], SHA_B[:SHORT_SHA]
    assert "the kit packages were installed from different revisions: " in message
    assert f"kit-core {VERSION} (git {short_a})" in message
    for dist in KIT_DISTRIBUTIONS[1:]:
        assert f"{dist} {VERSION} (git {short_b})" in message
    assert SHA_A not in message  # the short form only
    # the recorded repository is filled into the one-line fix
    assert f'`uv add "hermes-plugin-kit @ git+{REPO}@<sha>#subdirectory=' in message


def test_a_checkout_mixed_with_a_git_install_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    install_all(tmp_path / "site", git(SHA_A), hermes_plugin_kit=checkout(root))
    message = refusal([str(tmp_path / "site")])
    assert f"hermes-plugin-kit {VERSION} (checkout {root})" in message
    assert f"kit-core {VERSION} (git {SHA_A[:SHORT_SHA]})" in message


def test_two_checkouts_are_refused(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    site = tmp_path / "site"
    for dist in KIT_DISTRIBUTIONS:
        install(site, dist, checkout(two if dist == "kit-media" else one, dist), package=False)
    message = refusal([str(site)])
    assert f"kit-media {VERSION} (checkout {two})" in message
    assert f"kit-core {VERSION} (checkout {one})" in message


def test_mixed_versions_are_refused_with_each_version(tmp_path: Path) -> None:
    for dist in KIT_DISTRIBUTIONS:
        version = "0.2.0" if dist == "kit-lifecycle" else VERSION
        install(tmp_path, dist, git(SHA_A, dist), version=version)
    message = refusal([str(tmp_path)])
    assert "the kit packages are at different versions: " in message
    assert f"kit-lifecycle 0.2.0 (git {SHA_A[:SHORT_SHA]})" in message
    assert f"kit-core {VERSION} (git {SHA_A[:SHORT_SHA]})" in message


@pytest.mark.parametrize("dist", KIT_DISTRIBUTIONS)
def test_a_missing_runtime_package_is_refused(tmp_path: Path, dist: str) -> None:
    install_all(tmp_path, git(SHA_A))
    for info in tmp_path.glob(f"{dist.replace('-', '_')}-*.dist-info"):
        (info / "METADATA").unlink()
        (info / "direct_url.json").unlink()
        info.rmdir()
    message = refusal([str(tmp_path)])
    assert f"kit packages missing: {dist} (installed: " in message


def test_nothing_installed_is_refused(tmp_path: Path) -> None:
    message = refusal([str(tmp_path)])
    assert "kit packages missing: kit-core, kit-lifecycle, kit-media, hermes-plugin-kit." in message


# --- the first install on the path wins, as for importlib.metadata ----------------------


def test_an_earlier_install_at_another_version_shadows_and_is_refused(tmp_path: Path) -> None:
    early, site = tmp_path / "early", tmp_path / "site"
    install(early, "kit-core", None, version="0.0.9")
    install_all(site, git(SHA_A))
    assert _expected_dist_infos([str(early), str(site)]) is None
    assert "kit-core 0.0.9 (revision unknown)" in refusal([str(early), str(site)])


def test_an_earlier_install_from_another_commit_shadows_and_is_refused(tmp_path: Path) -> None:
    early, site = tmp_path / "early", tmp_path / "site"
    install(early, "kit-core", git(SHA_B))
    install_all(site, git(SHA_A))
    message = refusal([str(early), str(site)])
    assert f"kit-core {VERSION} (git {SHA_B[:SHORT_SHA]})" in message


def test_a_source_folder_without_metadata_before_the_install_passes(tmp_path: Path) -> None:
    early, site = tmp_path / "early", tmp_path / "site"
    (early / "kit_core").mkdir(parents=True)  # e.g. a PYTHONPATH onto some checkout's src
    install_all(site, git(SHA_A))
    assert _expected_dist_infos([str(early), str(site)]) is None  # the full listing decides
    check_versions([str(early), str(site)])


def test_dist_info_names_are_compared_case_insensitively_by_the_full_listing(
    tmp_path: Path,
) -> None:
    install_all(tmp_path, git(SHA_A))
    info = tmp_path / f"kit_core-{VERSION}.dist-info"
    info.rename(tmp_path / f"Kit_Core-{VERSION}.dist-info")
    check_versions([str(tmp_path)])
    assert find_installs([str(tmp_path)])["kit-core"].revision == f"git {SHA_A}"


# --- records the check cannot read never break it --------------------------------------

MALFORMED: list[bytes] = [
    b"",
    b"{",
    b"null",
    b"[]",
    b'"text"',
    b"\xff\xfe\x00garbage",
    b"[" * 100_000,
    b'{"url": 1}',
    b'{"url": ""}',
    b'{"vcs_info": {"vcs": "git", "commit_id": "abc"}}',
    b'{"url": "x", "vcs_info": []}',
    b'{"url": "x", "vcs_info": {"vcs": "git", "commit_id": 5}}',
    b'{"url": "x", "vcs_info": {"vcs": "git", "commit_id": "  "}}',
    b'{"url": "file:///", "dir_info": {}}',
    b'{"url": "x", "dir_info": null}',
    b'{"url": "x", "archive_info": {}}',
    b'{"url": "x", "vcs_info": {"commit_id": "' + b"9" * 5000 + b'"}, "n": ' + b"9" * 5000 + b"}",
    b"NaN",
]


@pytest.mark.parametrize("raw", MALFORMED, ids=range(len(MALFORMED)))
def test_an_unreadable_record_counts_as_no_record(tmp_path: Path, raw: bytes) -> None:
    install_all(tmp_path, git(SHA_A), kit_media=raw)
    assert read_source(str(tmp_path / f"kit_media-{VERSION}.dist-info")) is None
    check_versions([str(tmp_path)])  # version alone: it passes


def test_a_record_that_is_a_directory_counts_as_no_record(tmp_path: Path) -> None:
    install_all(tmp_path, git(SHA_A))
    record = tmp_path / f"kit_core-{VERSION}.dist-info" / "direct_url.json"
    record.unlink()
    record.mkdir()
    check_versions([str(tmp_path)])


def test_an_unreadable_record_does_not_hide_a_version_mix(tmp_path: Path) -> None:
    for dist in KIT_DISTRIBUTIONS:
        install(tmp_path, dist, b"{", version="0.2.0" if dist == "kit-media" else VERSION)
    assert "kit-media 0.2.0 (revision unknown)" in refusal([str(tmp_path)])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
RECORD_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "url": st.text(max_size=30) | JSON,
        "vcs_info": st.fixed_dictionaries(
            {}, optional={"vcs": st.text(max_size=5) | JSON, "commit_id": st.text() | JSON}
        )
        | JSON,
        "dir_info": st.fixed_dictionaries({}, optional={"editable": JSON}) | JSON,
        "archive_info": JSON,
    },
)


@pytest.fixture(scope="module")
def fuzz_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    install_all(site, git(SHA_A))
    return site


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=st.binary(max_size=200)
    | RECORD_FIELDS.map(lambda d: json.dumps(d).encode())
    | st.text(max_size=41).map(lambda commit: json.dumps(git(commit)).encode())
    | st.text(max_size=30).map(
        lambda url: json.dumps({"url": url, "dir_info": {"editable": True}}).encode()
    )
)
def test_any_record_either_passes_or_is_the_clear_refusal(fuzz_site: Path, raw: bytes) -> None:
    info = fuzz_site / f"kit_core-{VERSION}.dist-info"
    (info / "direct_url.json").write_bytes(raw)
    source = read_source(str(info))
    event("passes" if source is None or source[0] == f"git {SHA_A}" else "refused")
    if source is None or source[0] == f"git {SHA_A}":
        check_versions([str(fuzz_site)])
        return
    with pytest.raises(ImportError, match="were installed from different revisions") as refused:
        check_versions([str(fuzz_site)])
    assert f"kit-lifecycle {VERSION} (git {SHA_A[:SHORT_SHA]})" in str(refused.value)


# --- the wording helpers ------------------------------------------------------------------


def test_the_fix_names_no_repository_url_that_carries_credentials() -> None:
    secret = git(SHA_A, url="https://user:token@example.org/kit.git")
    installs = {"kit-core": Install(VERSION, f"git {SHA_A}", str(secret["url"]))}
    assert fix_for(installs) == FIX
    assert "<repo-url>" in FIX


def test_no_problem_with_one_commit_and_unknown_revisions() -> None:
    installs = {dist: Install(VERSION, f"git {SHA_A}", REPO) for dist in KIT_DISTRIBUTIONS}
    installs["kit-media"] = Install(VERSION)
    assert install_problem(installs) is None
