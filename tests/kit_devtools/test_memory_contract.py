"""The memory-provider contract suite on the in-memory host: the provider of
docs/providers.md keeps its contract; each way of breaking it fails with its own violation
(member, rule, detail, fix), through ``check_memory_provider``, the
``memory_provider_contract`` fixture and ``check --probe``. tests/host/test_memory_contract.py
holds the same providers against each real release's own ``MemoryManager``."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.kit_devtools._memory_contract_providers import (
    BROKEN,
    DOCS_PROVIDER,
    EXPECTED,
    TURN_BOUND,
    provider_dir,
)

from kit_core.hermes import installed_release
from kit_devtools.cli import main
from kit_devtools.testing import (
    ContractFailure,
    InMemoryHost,
    RealHost,
    check_memory_provider,
    check_memory_providers,
    check_provider,
)
from kit_devtools.testing._real_hermes import hermes_installed

pytestmark = pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed")
pytest_plugins = ("pytester",)

LIFECYCLE = [
    "name",
    "is_available",
    "get_tool_schemas",
    "initialize",
    "system_prompt_block",
    "on_turn_start",
    "prefetch",
    "handle_tool_call",
    "sync_turn",
    "queue_prefetch",
    "on_memory_write",
    "on_pre_compress",
    "on_session_switch",
    "on_delegation",
    "get_config_schema",
    "backup_paths",
    "on_session_end",
    "shutdown",
]
"""The members driven on 0.19.0, in hermes' order."""


def test_the_docs_provider_keeps_its_contract_in_hermes_order(tmp_path: Path) -> None:
    report = check_memory_provider(provider_dir(tmp_path, "recall"), InMemoryHost(hermes="0.19.0"))
    assert report.violations == []
    assert (report.kind, report.host) == ("memory-provider", "memory")
    assert report.checked == LIFECYCLE
    report.assert_ok()


def test_the_suite_is_the_memory_provider_kind_of_check_provider(tmp_path: Path) -> None:
    directory = provider_dir(tmp_path, "dict_result")
    report = check_provider(directory, kind="memory-provider")
    assert [v.member for v in report.violations] == ["handle_tool_call"]


def test_the_lifecycle_follows_the_release_the_host_plays(tmp_path: Path) -> None:
    directory = provider_dir(tmp_path, "recall")
    old = check_memory_provider(directory, InMemoryHost(hermes="0.17.0"))
    new = check_memory_provider(directory, InMemoryHost(hermes="0.22.2"))
    assert "backup_paths" not in old.checked  # MemoryProvider has it from 0.18.0
    assert "backup_paths" in new.checked
    assert old.ok
    assert new.ok


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_broken_provider_fails_with_its_own_violation(name: str, tmp_path: Path) -> None:
    report = check_memory_provider(provider_dir(tmp_path, name), turn_bound=TURN_BOUND)
    member, rule, words = EXPECTED[name]
    assert [(v.member, v.rule) for v in report.violations] == [(member, rule)]
    (violation,) = report.violations
    assert words in violation.detail
    assert violation.fix
    assert violation.releases == (InMemoryHost().release.version,)
    with pytest.raises(ContractFailure, match=re.escape(f"{member}: {rule}")):
        report.assert_ok()


def test_a_schema_wrapped_for_the_model_breaks_only_releases_that_wrap_it_again(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "wrapped"
    directory.mkdir()
    (directory / "__init__.py").write_text(
        DOCS_PROVIDER.replace(
            "return [SEARCH]", "return [{'type': 'function', 'function': SEARCH}]"
        )
    )
    old = check_memory_provider(directory, InMemoryHost(hermes="0.17.0"))
    assert [(v.member, v.rule) for v in old.violations] == [
        ("get_tool_schemas", "must give bare function schemas")
    ]
    assert check_memory_provider(directory, InMemoryHost(hermes="0.18.0")).ok


def test_a_class_and_an_instance_are_driven_as_the_directory_is(tmp_path: Path) -> None:
    provider_dir(tmp_path, "dict_result")
    sys.path.insert(0, str(tmp_path))
    try:
        import dict_result  # pyright: ignore[reportMissingImports]
    finally:
        sys.path.remove(str(tmp_path))
    broken: Any = dict_result.Broken
    for target in (broken, broken()):
        report = check_memory_provider(target)
        assert [v.member for v in report.violations] == ["handle_tool_call"]
        assert report.target == "dict_result.Broken"


def test_an_initialize_without_kwargs_is_told_what_hermes_passes(tmp_path: Path) -> None:
    directory = tmp_path / "narrow"
    directory.mkdir()
    (directory / "__init__.py").write_text(
        DOCS_PROVIDER.replace(
            "def initialize(self, session_id, **kwargs):", "def initialize(self, session_id):"
        ).replace('kwargs["hermes_home"]', '"."')
    )
    (violation,) = check_memory_provider(directory, InMemoryHost(hermes="0.19.0")).violations
    assert (violation.member, violation.rule) == ("initialize", "must not raise")
    assert "TypeError" in violation.detail
    assert violation.fix.startswith("declare initialize(self, session_id, **kwargs)")
    assert "warning_callback" in violation.fix


def check_probe(directory: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    main(["check", str(directory), "--probe", "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_check_probe_finds_nothing_in_the_docs_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_probe(provider_dir(tmp_path, "recall"), capsys)["findings"] == []


@pytest.mark.parametrize("name", sorted(set(BROKEN) - {"blocking_sync", "missing_member"}))
def test_check_probe_reports_the_violation_as_hpk605(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    member, rule, words = EXPECTED[name]
    (only,) = check_probe(provider_dir(tmp_path, name), capsys)["findings"]
    assert (only["rule"], only["severity"]) == ("HPK605", "error")
    assert f"on hermes {InMemoryHost().release.version}: {member}: {rule}" in only["message"]
    assert words in only["message"]


def test_check_reports_a_missing_member_as_the_provider_hermes_does_not_get(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (only,) = check_probe(provider_dir(tmp_path, "missing_member"), capsys)["findings"]
    assert only["rule"] == "HPK601"
    # Python 3.11 says "abstract method get_tool_schemas", 3.12 on "abstract method 'get_...'"
    assert "abstract method" in only["message"]
    assert "get_tool_schemas" in only["message"]


def test_check_probe_reports_a_blocking_sync_turn_as_hpk606(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kit_devtools.cli import _memory_contract
    from kit_devtools.testing import check_memory_provider as real

    monkeypatch.setattr(
        _memory_contract,
        "check_memory_provider",
        lambda target, host: real(target, host, turn_bound=TURN_BOUND),
    )
    (only,) = check_probe(provider_dir(tmp_path, "blocking_sync"), capsys)["findings"]
    assert (only["rule"], only["severity"]) == ("HPK606", "warning")
    assert "sync_turn: it was still running 1 s after hermes called it" in only["message"]


def test_check_without_probe_leaves_the_contract_undriven(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    main(["check", str(provider_dir(tmp_path, "dict_result")), "--format", "json"])
    assert json.loads(capsys.readouterr().out)["findings"] == []


FIXTURE_TEST = """
from pathlib import Path

def test_good(memory_provider_contract):
    memory_provider_contract(Path({good!r})).assert_ok()

def test_broken(memory_provider_contract):
    memory_provider_contract(Path({broken!r})).assert_ok()
"""


def test_the_fixture_runs_the_suite_and_fails_a_broken_provider(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    good, broken = provider_dir(tmp_path, "recall"), provider_dir(tmp_path, "dict_result")
    pytester.makepyfile(test_providers=FIXTURE_TEST.format(good=str(good), broken=str(broken)))
    ran = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider")
    ran.assert_outcomes(passed=1, failed=1)
    ran.stdout.fnmatch_lines([
        "*test_good[[]memory[]] PASSED*",
        "*handle_tool_call: must return a str (a JSON string)*",
    ])  # fmt: skip


def test_an_unavailable_provider_is_reported_undriven(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "offline"
    directory.mkdir()
    (directory / "__init__.py").write_text(
        DOCS_PROVIDER.replace("return True  # configuration", "return False  # configuration")
    )
    (directory / "plugin.yaml").write_text("name: offline\nversion: 0.1.0\n")
    report = check_memory_provider(directory)
    assert [(v.member, v.rule) for v in report.violations] == [
        ("is_available", "must return True where the provider can work")
    ]
    assert report.checked == ["name", "is_available"]
    (only,) = check_probe(directory, capsys)["findings"]
    assert (only["rule"], only["severity"]) == ("HPK607", "warning")


def test_a_provider_without_the_base_class_is_told_each_member_it_lacks() -> None:
    class Bare:
        name = "bare"

        def is_available(self) -> bool:
            return True

    report = check_memory_provider(Bare())
    assert [(v.member, v.detail) for v in report.violations] == [
        ("initialize", "the provider has none"),
        ("get_tool_schemas", "the provider has none"),
    ]


def test_a_real_hermes_is_given_a_directory_not_a_class_of_a_test_module() -> None:
    class Inline:
        pass

    with RealHost(warm=False) as host, pytest.raises(TypeError, match="pass the provider's"):
        check_memory_provider(Inline, host)


def test_several_providers_give_one_report_each_in_order(tmp_path: Path) -> None:
    names = ["recall", "dict_result", "prefetch_raises"]
    reports = check_memory_providers([provider_dir(tmp_path, n) for n in names])
    assert [r.target for r in reports] == [str(tmp_path / n) for n in names]
    assert [[v.member for v in r.violations] for r in reports] == [
        [],
        ["handle_tool_call"],
        ["prefetch"],
    ]


def test_a_real_hermes_refuses_two_providers_of_one_folder_name(tmp_path: Path) -> None:
    # hermes keys a memory provider by its folder's name: the second would replace the first
    one, two = provider_dir(tmp_path / "a", "recall"), provider_dir(tmp_path / "b", "recall")
    with RealHost(warm=False) as host, pytest.raises(ValueError, match="repeats one"):
        check_memory_providers([one, two], host)


def test_a_release_named_as_hermes_names_it_is_started_for_the_check(tmp_path: Path) -> None:
    # the host named by a string is the same start on every release: here once, on the
    # installed one (tests/host/test_memory_contract.py drives each release's own)
    release = installed_release()
    assert release is not None
    report = check_memory_provider(provider_dir(tmp_path, "recall"), "installed")
    assert (report.host, report.violations) == (f"hermes {release.version}", [])


DUCK_PROVIDER = """
class Duck:  # no MemoryProvider base: only the members the base declares abstract
    name = "duck"

    def is_available(self):
        return True

    def initialize(self, session_id, **kwargs):
        pass

    def get_tool_schemas(self):
        return []


def register(ctx):
    ctx.register_memory_provider(Duck())
"""


def test_a_provider_without_the_optional_hooks_is_driven_as_hermes_drives_it(
    tmp_path: Path,
) -> None:
    """hermes' MemoryManager reads each optional hook inside its try (0.19.0
    ``sync_all``, ``queue_prefetch_all``, ``on_memory_write``, ``on_session_switch``):
    a provider lacking one is logged at debug level, not broken (hermes-bort, memex-hermes
    on the corpus)."""
    directory = tmp_path / "duck"
    directory.mkdir()
    (directory / "__init__.py").write_text(DUCK_PROVIDER)
    memory = check_memory_provider(directory)
    real = check_memory_provider(directory, "installed")
    assert (memory.violations, real.violations) == ([], [])
    assert {"on_memory_write", "on_session_switch", "shutdown"} <= set(memory.checked)
    assert memory.checked == real.checked


FRESH_PROVIDER = DUCK_PROVIDER.replace(
    """    def get_tool_schemas(self):
        return []
""",
    """    def get_tool_schemas(self):  # a new list of new dicts on every call
        return [{"name": "duck_recall", "description": "Recall a fact.",
                 "parameters": {"type": "object", "properties": {}}}]

    def handle_tool_call(self, name, args, **kwargs):
        import json
        return json.dumps({"error": f"unknown tool {name}"} if name != "duck_recall" else {})
""",
)


def test_schemas_built_afresh_on_each_call_reach_the_model(tmp_path: Path) -> None:
    """hermes offers what a second get_tool_schemas() call returns (0.19.0
    ``get_all_tool_schemas`` 774-809): a provider that builds its list on each call (most
    of the corpus': verbatim-memory, colony-hermes) has its tools offered all the same."""
    directory = tmp_path / "fresh"
    directory.mkdir()
    (directory / "__init__.py").write_text(FRESH_PROVIDER)
    memory = check_memory_provider(directory)
    real = check_memory_provider(directory, "installed")
    assert (memory.violations, real.violations) == ([], [])
    assert "handle_tool_call" in memory.checked
