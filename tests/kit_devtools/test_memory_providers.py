"""Memory providers are checked as hermes loads them: its general loader skips them
(exclusive), and its memory discovery (``plugins.memory.load_memory_provider``, the path
``memory.provider: <name>`` takes) gets the provider from ``register(ctx)`` or from a
``MemoryProvider`` subclass. ``check`` reports that provider, its tools, and what hermes'
memory manager would trip over, never "no register()" or "add kind: standalone" to a
real provider. tests/host/test_memory_provider_parity.py holds the same directories
against hermes' own loader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.kit_devtools._memory_providers import provider_dir

from kit_devtools.cli import main
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._real_hermes import hermes_installed

pytestmark = pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed")


def check(target: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    status = main(["check", str(target), "--format", "json"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("name", "how"),
    [
        ("by_register", "register(ctx)"),
        ("by_subclass", "MemoryProvider subclass"),
        ("register_raises", "MemoryProvider subclass"),
        ("wrapped_schema", "register(ctx)"),
    ],
)
def test_a_working_provider_has_no_finding_and_shows_its_tools(
    name: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = check(provider_dir(tmp_path, name), capsys)
    assert (status, report["findings"]) == (0, [])
    assert report["plugin"]["enabled"] is False  # hermes' general loader skips it too
    assert report["plugin"]["error"] == "exclusive plugin — activate via <category>.provider config"
    memory = report["memory_provider"]
    assert (memory["name"], memory["loaded_by"]) == ("recall", how)
    assert [t["function"]["name"] for t in memory["tools"]] == ["recall_search"]


def test_a_plugin_taken_for_a_provider_that_gives_none_is_one_error_with_both_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = check(provider_dir(tmp_path, "not_a_provider", "name: x\n"), capsys)
    assert status == 1
    [only] = report["findings"]
    assert (only["rule"], only["severity"]) == ("HPK601", "error")
    assert "register(ctx) never called ctx.register_memory_provider" in only["message"]
    assert "no MemoryProvider subclass" in only["message"]


def test_a_nameless_tool_is_reported_as_the_memory_manager_drops_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = check(provider_dir(tmp_path, "nameless_tool"), capsys)
    assert status == 1
    [only] = report["findings"]
    assert only["rule"] == "HPK602"
    assert "which has no name: hermes' memory manager skips it" in only["message"]
    assert [t["function"]["name"] for t in report["memory_provider"]["tools"]] == ["recall_search"]


def test_a_provider_tool_named_like_a_core_tool_is_dropped_as_hermes_drops_it(
    tmp_path: Path,
) -> None:
    """hermes-agent 0.19.0 ``agent/memory_manager.py`` 420-445: a provider tool named like
    one of ``toolsets._HERMES_CORE_TOOLS`` never enters the routing table."""
    directory = provider_dir(tmp_path, "by_register")
    init = directory / "__init__.py"
    init.write_text(init.read_text("utf-8").replace('"recall_search"', '"clarify"'), "utf-8")
    memory = InMemoryHost().load_memory_provider(directory)
    assert memory.tools == ()
    assert memory.problems == (
        "offers the tool 'clarify', a core tool's name: hermes' memory manager drops it",
    )
    # before 0.17.0 the memory manager offers it (check --real on 0.13.0 found the drop)
    kept = InMemoryHost(hermes="0.16.0").load_memory_provider(directory)
    assert ([t["name"] for t in kept.tools], kept.problems) == (["clarify"], ())


def test_a_provider_missing_an_abstract_member_or_raising_is_reported(tmp_path: Path) -> None:
    directory = provider_dir(tmp_path, "by_register")
    init = directory / "__init__.py"
    source = init.read_text("utf-8").replace("class Recall(MemoryProvider):", "class Recall:")
    source = source.replace("    def is_available(self):\n        return True\n", "")
    source = source.replace("return [TOOL]", "raise OSError('offline')")
    init.write_text(source, "utf-8")
    assert InMemoryHost().load_memory_provider(directory).problems == ("has no is_available",)
    init.write_text(source.replace("class Recall:", "class Recall:\n    def is_available(self):"
                                   "\n        return False\n"), "utf-8")  # fmt: skip
    assert InMemoryHost().load_memory_provider(directory).problems == (
        "get_tool_schemas() raised OSError: offline",
    )


def test_a_declared_standalone_kind_is_judged_as_a_general_plugin_and_as_a_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hermes' general loader loads a ``kind: standalone`` plugin, and its memory discovery
    still takes the folder for a provider by its text (``plugins/memory``
    ``find_provider_dir``, whatever the manifest says)."""
    directory = provider_dir(tmp_path, "by_register", "name: recall\nkind: standalone\n")
    status, report = check(directory, capsys)
    # hermes 0.19.0's PluginContext has no register_memory_provider: register() raises
    assert [f["rule"] for f in report["findings"]] == ["HPK001"]
    assert "register_memory_provider" in report["findings"][0]["message"]
    assert status == 1
    memory = report["memory_provider"]  # memory discovery's collector takes it
    assert (memory["name"], memory["loaded_by"]) == ("recall", "register(ctx)")


BOTH = """
from agent.memory_provider import MemoryProvider


class Recall(MemoryProvider):
    name = "recall"

    def is_available(self):
        return True

    def initialize(self, session_id, **kwargs):
        pass

    def get_tool_schemas(self):
        return {"name": "recall_search"}


def register(ctx):
    if hasattr(ctx, "register_memory_provider"):  # hermes' memory discovery
        ctx.register_memory_provider(Recall())
    else:  # hermes' general loader
        ctx.register_hook("on_session_end", lambda **kwargs: None)
"""


def test_a_general_plugin_that_registers_a_provider_is_judged_on_both_halves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "recall"
    directory.mkdir()
    (directory / "__init__.py").write_text(BOTH, encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: recall\nkind: standalone\n", encoding="utf-8")
    status, report = check(directory, capsys)
    assert report["plugin"]["enabled"] is True  # the general half loads
    assert report["hooks"] == ["on_session_end"]
    memory, general = report["findings"]
    assert (status, memory["rule"]) == (1, "HPK602")  # the memory half: schemas in a dict
    assert "get_tool_schemas() returned a dict, not a list" in memory["message"]
    # the general half: 0.19.0's PluginContext has no register_memory_provider
    assert (general["rule"], general["severity"]) == ("HPK507", "warning")


def test_a_general_plugin_that_only_names_memory_provider_is_no_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "notes"
    directory.mkdir()
    source = '"""Works beside any MemoryProvider."""\n\ndef register(ctx):\n    pass\n'
    (directory / "__init__.py").write_text(source, encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: notes\nkind: standalone\n", encoding="utf-8")
    status, report = check(directory, capsys)
    assert (status, report["findings"]) == (0, [])
    assert "memory_provider" not in report


def test_an_entry_point_registering_a_memory_provider_fails_in_hermes_words() -> None:
    """cognee-integration-hermes-agent 1.3.2 and hermes-hy-memory 0.2.8 call
    ``ctx.register_memory_provider``, which hermes-agent 0.19.0's ``PluginContext`` lacks:
    hermes records "'PluginContext' object has no attribute 'register_memory_provider'",
    and so does the in-memory host."""
    import types

    module = types.ModuleType("cognee_like")
    exec("def register(ctx):\n    ctx.register_memory_provider(object())\n", vars(module))
    loaded = InMemoryHost().load(module)
    assert loaded.error == "'PluginContext' object has no attribute 'register_memory_provider'"


def test_an_entry_point_of_the_same_name_shadows_a_general_plugin_not_a_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """atomicmemory-hermes 0.2.3 ships its provider directory and an entry point of the
    same name: hermes' general loader keeps the entry point (scanned last), while its
    memory discovery still reads the directory (the corpus, docs/evidence.md)."""
    site = tmp_path / "site"
    info = site / "recall_dist-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: recall-dist\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hermes_agent.plugins]\nrecall = recall_mod\n")
    monkeypatch.syspath_prepend(str(site))
    provider = provider_dir(tmp_path, "by_register", "name: recall\n")
    status, report = check(provider, capsys)
    assert (status, report["findings"]) == (0, [])
    general = tmp_path / "general"
    general.mkdir()
    (general / "__init__.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    (general / "plugin.yaml").write_text("name: recall\nkind: standalone\n", encoding="utf-8")
    status, report = check(general, capsys)
    [only] = report["findings"]
    assert (status, only["rule"]) == (1, "HPK019")
    assert "'recall' of recall-dist (recall_mod)" in only["message"]
