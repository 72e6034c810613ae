"""The README's main-job command, run as a plugin author would run it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_command_checks_and_calls_the_bundled_plugin() -> None:
    run = subprocess.run(
        ["bash", str(ROOT / "scripts" / "example")], capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("plugin unit-convert (directory: ")
    assert lines[0].endswith("): enabled")
    assert "0 error(s), 0 warning(s)" in lines
    assert '"name": "units_convert_temperature",' in run.stdout
    assert json.loads(lines[-1]) == {
        "success": True,
        "data": {"value": 70.7, "scale": "fahrenheit"},
    }
