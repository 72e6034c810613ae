"""No hand-written module of the packages runs past 400 lines: a maintainer reads a module
whole. Generated data (a module whose docstring says it is written by a script and not to
be edited by hand) is exempt."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.python_independent  # counting lines of text

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 400


def hand_written() -> dict[str, int]:
    """Each hand-written module of the packages -> its number of lines."""
    found: dict[str, int] = {}
    for path in sorted((ROOT / "packages").glob("*/src/**/*.py")):
        text = path.read_text("utf-8")
        if "do not edit by hand" in text[:1000]:
            continue
        found[path.relative_to(ROOT / "packages").as_posix()] = len(text.splitlines())
    return found


def test_the_generated_model_is_the_only_exemption() -> None:
    exempt = {
        path.relative_to(ROOT / "packages").as_posix()
        for path in (ROOT / "packages").glob("*/src/**/*.py")
    } - set(hand_written())
    assert exempt == {"kit-core/src/kit_core/_host_releases.py"}


def test_no_hand_written_module_is_over_the_limit() -> None:
    over = {path: lines for path, lines in hand_written().items() if lines > LIMIT}
    assert not over, f"over {LIMIT} lines: {over}; split them by what they hold"
