"""Deselects the admission cases the selected releases do not have (``test_admission.py``
parametrises such a test with its ``NOT_HERE`` case alone): a release without a gate is
checked to refuse it instead, so nothing is skipped."""

from __future__ import annotations

import pytest

NOT_HERE = "no such case on the selected releases"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        (dropped if NOT_HERE in params.values() else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
