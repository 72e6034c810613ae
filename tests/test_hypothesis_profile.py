"""No property test can fail because the machine is busy (deadline, speed health checks)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

pytestmark = pytest.mark.python_independent

TESTS = Path(__file__).resolve().parent
SPEED_CHECKS = {HealthCheck.too_slow, HealthCheck.data_too_large}


def test_the_default_profile_has_no_deadline_and_no_speed_health_checks() -> None:
    default = settings.get_profile("hpk")
    assert settings.default is not None
    assert settings.default.deadline is None
    assert default.deadline is None
    assert set(default.suppress_health_check) >= SPEED_CHECKS


OWN = settings(max_examples=5)
"""As a test module writes its own settings, at import (after the conftest loads the profile)."""


def test_a_module_own_settings_inherit_the_profile() -> None:
    assert OWN.deadline is None
    assert set(OWN.suppress_health_check) >= SPEED_CHECKS


def test_no_test_sets_a_deadline_or_lifts_the_suppression() -> None:
    """A ``deadline=<number>`` or a ``suppress_health_check`` list without too_slow in any
    test module would bring back a failure that depends on a quiet machine."""
    offending: list[str] = []
    for path in TESTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.keyword):
                continue
            if node.arg == "deadline" and not (
                isinstance(node.value, ast.Constant) and node.value.value is None
            ):
                offending.append(f"{path.relative_to(TESTS)}:{node.value.lineno} deadline")
            if node.arg == "suppress_health_check" and "too_slow" not in ast.unparse(node.value):
                offending.append(f"{path.relative_to(TESTS)}:{node.value.lineno} health checks")
    assert offending == []
