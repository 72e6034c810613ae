"""The README's main-job command prints the tools as the model sees them and one envelope."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_show_plugin_prints_definitions_and_an_envelope() -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "show_plugin.py"),
            str(ROOT / "examples" / "unit-convert"),
            "units_convert_temperature",
            '{"value": 100, "from_scale": "celsius", "to_scale": "kelvin"}',
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    head, _, tail = run.stdout.partition("\n# units_convert_temperature(")
    definitions = json.loads(head.split("\n", 1)[1])
    assert [d["function"]["name"] for d in definitions] == [
        "units_convert_length",
        "units_convert_temperature",
    ]
    assert all(d["type"] == "function" and "parameters" in d["function"] for d in definitions)
    assert json.loads(tail.split("\n", 1)[1]) == {
        "success": True,
        "data": {"value": 373.15, "scale": "kelvin"},
    }


def test_show_plugin_explains_its_usage() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "show_plugin.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 2
    assert "Usage:" in run.stderr
