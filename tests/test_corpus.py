"""scripts/corpus.py (the registry corpus, run by hand: it needs the package registry):
its list covers what the issue asked for, and its verdicts call a disagreement by its
name. The corpus itself is measured in docs/evidence.md."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


@pytest.fixture
def corpus(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("corpus", SCRIPTS / "corpus.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "corpus", module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_the_list_has_sixty_entry_points_and_more_across_every_kind(corpus: ModuleType) -> None:
    entries = corpus.read_list()
    assert len(entries) >= 60
    assert len({(e.dist, e.entry_point) for e in entries}) == len(entries)
    kinds = Counter(e.kind for e in entries)
    assert {
        "tools", "memory-provider", "platform", "hooks", "web-search", "model-provider",
        "context-engine", "commands", "tts", "image-gen", "video-gen", "transcription",
        "skills-only", "secret-source", "middleware",
    } <= set(kinds)  # fmt: skip
    assert {e.group for e in entries} > {"hermes_agent.plugins"}  # groups hermes never scans
    assert all(e.version[0].isdigit() for e in entries)  # each pinned at an exact version
    directories = [e for e in entries if e.group == corpus.DIRECTORY]
    assert len({e.dist for e in directories if e.kind == "memory-provider"}) >= 10


def result(corpus: ModuleType, enabled: bool, findings: list[dict[str, Any]],
           listed: dict[str, Any] | None, names: dict[str, list[str]] | None = None,
           registered: list[str] | None = None) -> Any:  # fmt: skip
    entry = corpus.Entry("demo", "1.0", "demo", "hermes_agent.plugins", "tools")
    check = {"plugin": {"enabled": enabled}, "findings": findings,
             "registered_tools": registered or [], "hooks": [], "middleware": [],
             "commands": []}  # fmt: skip
    return corpus.Result(entry, None, check, {"listed": listed, "names": names or {}})


def error(rule: str, message: str = "m") -> dict[str, Any]:
    return {"rule": rule, "severity": "error", "message": message}


def test_each_pair_of_outcomes_gets_its_verdict(corpus: ModuleType) -> None:
    loads = {"enabled": True, "error": None}
    refuses = {"enabled": False, "error": "no register() function"}
    names = {"tools": ["demo_a"], "hooks": [], "middleware": [], "commands": []}
    agree = result(corpus, True, [], loads, names, ["demo_a"])
    assert corpus.verdict(agree) == ("agrees", "both load it, same registrations")
    false_error = result(corpus, True, [error("HPK001")], loads, names, ["demo_a"])
    assert corpus.verdict(false_error)[0] == "false error"
    miss = result(corpus, True, [], refuses)
    assert corpus.verdict(miss) == ("miss", "hermes does not load it: no register() function;"
                                    " check passes it")  # fmt: skip
    differ = result(corpus, True, [], loads, names, ["demo_a", "demo_b"])
    assert corpus.verdict(differ) == (
        "registrations",
        "tools: hermes ['demo_a'], check ['demo_a', 'demo_b']",
    )
    # an error that does not stop hermes loading it is listed, not counted against it
    broken = result(corpus, True, [error("HPK103")], loads, names, ["demo_a"])
    assert corpus.verdict(broken)[0] == "agrees"
    assert corpus.other_errors(broken) == ["HPK103"]
    said = result(corpus, True, [error("HPK007", "... records 'no register() function'")],
                  refuses)  # fmt: skip
    assert corpus.verdict(said)[0] == "agrees"
    assert corpus.same_reason(said)
    unseen = result(corpus, True, [error("HPK008")], None)
    assert corpus.verdict(unseen)[1].startswith("hermes never discovers it; check: HPK008")
    assert corpus.same_reason(unseen)


def test_paths_of_the_environments_stay_out_of_the_table(corpus: ModuleType) -> None:
    text = "raised at /work/x/.cache/corpus/d/lib/python3.11/site-packages/d/__init__.py:3"
    assert corpus.short(text) == "raised at d/__init__.py:3"
