"""Typed-signature tools are the spec-style tools, as the real hermes sees them.

Each example plugin declares its tools twice: with ``params=`` (``tools.py``,
``surfaces.py``) and by typed signatures (``typed.py``). Both versions are installed, each
in a hermes home of its own (their tool names are the same, so one process cannot hold
both), loaded by hermes' own plugin discovery, and compared: the definitions hermes
sends the model (``model_tools.get_tool_definitions``, which sanitises the schemas), and
the answers of calls through hermes' whole tool pipeline
(``model_tools.handle_function_call``), good and refused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.host.test_host_contract import as_sent

from kit_core.hermes import installed_release
from kit_devtools.cli._real import SCRUBBED

ROOT = Path(__file__).resolve().parents[2]

ALL_EXAMPLES = {
    # folder: (toolset, the spec module __init__.py imports)
    "unit-convert": ("unit-convert", "tools"),
    "media-postcard": ("media-postcard", "tools"),
    "team-notes": ("team-notes", "surfaces"),
}
RELEASE = installed_release()
EXAMPLES = {
    folder: found
    for folder, found in ALL_EXAMPLES.items()
    # team-notes registers middleware, which hermes offers from 0.17.0 on: before, the
    # kit refuses the whole plugin (tests/host/test_lifecycle_contract.py pins that)
    if folder != "team-notes" or (RELEASE is not None and RELEASE.offers("register_middleware"))
}

ALL_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("units_convert_temperature", {"value": 21.5, "from_scale": "celsius", "to_scale": "kelvin"}),
    ("units_convert_temperature", {"value": 1, "from_scale": "celsius", "to_scale": "x"}),
    ("units_convert_temperature", {"value": -500, "from_scale": "celsius", "to_scale": "kelvin"}),
    ("units_convert_length", {"value": 3, "from_unit": "mi", "to_unit": "km"}),
    ("units_convert_length", {"valeu": 3, "from_unit": "mi", "to_unit": "km"}),
    ("notes_add_note", {"text": "Ship v2", "tags": ["release"]}),
    ("notes_add_note", {"text": "Plan", "tags": ["a", "b", "c", "d", "e", "f"]}),
    ("notes_add_note", {"text": "Retro"}),
    ("notes_list_notes", {"tag": "release"}),
    ("notes_list_notes", {"limit": 0}),
    ("postcard_send_picture", {}),
    ("postcard_send_picture", {"picture": "harbour.png", "caption": "x" * 201}),
]
"""Calls both versions answer: results, and refusals by the kit's checks."""
CALLS = [c for c in ALL_CALLS if "team-notes" in EXAMPLES or not c[0].startswith("notes_")]

BRIDGE_OFF = {"tools": {"tool_search": {"enabled": "off"}}}
"""The tool-search bridge off, as an operator switches it off (tests/host/conftest.py
BRIDGE_OFF_CONFIG says how hermes reads it): from 0.20.0 the default sends the model the
bridge in place of the plugins' schemas, which this file compares."""

LOADER = """
import json, sys
import model_tools  # imports hermes as its CLI does: discovery loads the plugins
toolsets, calls = json.loads(sys.argv[1])
found = model_tools.get_tool_definitions(enabled_toolsets=toolsets, quiet_mode=True)
answers = [model_tools.handle_function_call(name, args, task_id="t") for name, args in calls]
from kit_core import ToolSpec, declaration_of
from tools.registry import registry
kit = {
    d["function"]["name"]: declaration_of(
        registry.get_entry(d["function"]["name"]).handler, ToolSpec
    ).definition()
    for d in found
}  # what the kit itself says each tool's definition is
print("HPK-TYPED " + json.dumps({"definitions": found, "answers": answers, "kit": kit}))
"""


def _typed_copy(source: Path, target: Path, spec_module: str) -> None:
    """The example with its ``__init__.py`` importing ``typed`` in place of the spec module."""
    shutil.copytree(source, target)
    init = target / "__init__.py"
    text = init.read_text(encoding="utf-8")
    line = f"from . import {spec_module}\n"
    assert line in text, f"{source.name}/__init__.py no longer imports {spec_module}"
    init.write_text(text.replace(line, f"from . import typed as {spec_module}\n"), "utf-8")


def _load(home: Path) -> dict[str, Any]:
    (home / "config.yaml").write_text(
        json.dumps({"plugins": {"enabled": sorted(EXAMPLES)}, **BRIDGE_OFF}), encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env["HERMES_HOME"] = str(home)
    toolsets = [toolset for toolset, _ in EXAMPLES.values()]
    run = subprocess.run(
        [sys.executable, "-c", LOADER, json.dumps([toolsets, CALLS])],
        capture_output=True,
        text=True,
        check=False,
        cwd=home,
        env=env,
        timeout=300,
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("HPK-TYPED ")]
    assert run.returncode == 0, run.stderr[-3000:]
    assert lines, run.stdout[-3000:]
    return json.loads(lines[-1].removeprefix("HPK-TYPED "))


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """What hermes made of the spec-style examples, then of their typed versions."""
    spec_home = tmp_path_factory.mktemp("spec-home")
    typed_home = tmp_path_factory.mktemp("typed-home")
    for folder, (_, module) in EXAMPLES.items():
        shutil.copytree(ROOT / "examples" / folder, spec_home / "plugins" / folder)
        _typed_copy(ROOT / "examples" / folder, typed_home / "plugins" / folder, module)
    return _load(spec_home), _load(typed_home)


def _by_name(found: dict[str, Any]) -> dict[str, Any]:
    return {d["function"]["name"]: d for d in found["definitions"]}


def test_hermes_sends_the_model_the_same_definitions_for_both_styles(
    both: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    spec, typed = both
    names = {name for name, _ in CALLS}
    assert set(_by_name(spec)) == names  # every example tool reached the model
    assert _by_name(typed) == _by_name(spec)
    # and hermes sends exactly the definition the kit derived from the signatures (with
    # "required": [] added where the release's sanitizer adds it, 0.21.4 on)
    assert RELEASE is not None
    assert _by_name(typed) == {name: as_sent(d, RELEASE) for name, d in typed["kit"].items()}


def test_calls_through_hermes_answer_the_same_for_both_styles(
    both: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    spec, typed = both
    answers = {i: json.loads(a) for i, a in enumerate(spec["answers"])}
    # the calls exercise both outcomes: results, the kit's refusals and a handler error
    expected = [True, False, False, True, False, True, False, True, True, False, False, False]
    assert [answers[i]["success"] for i in range(len(CALLS))] == [
        ok for ok, call in zip(expected, ALL_CALLS, strict=True) if call in CALLS
    ]
    assert typed["answers"] == spec["answers"]
