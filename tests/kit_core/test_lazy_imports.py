"""Importing the kit loads nothing it needs only on an error path or for a rare value.

Each check runs in a fresh interpreter, so what this test process imported does not
count. Timing is measured by ``scripts/bench_import.py``; here only which modules load.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

LAZY = (
    "asyncio", "difflib", "argparse", "uuid", "decimal", "datetime", "base64", "pathlib",
    "mimetypes", "pydantic",
)  # fmt: skip


@pytest.mark.parametrize("package", ["kit_core", "hermes_plugin_kit"])
def test_rare_modules_are_not_imported_with_the_kit(package: str) -> None:
    code = f"import sys, {package}\nprint(' '.join(m for m in {LAZY!r} if m in sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == [], f"import {package} loads {loaded}"
