"""Deselects the admission cases the selected releases do not have (``test_admission.py``
parametrises such a test with its ``NOT_HERE`` case alone): a release without a gate is
checked to refuse it instead, so nothing is skipped. Likewise team-notes' own in-memory
tests where the release the in-memory host plays has no middleware (before 0.17.0): the
kit refuses the plugin there, as hermes does, and ``test_every_host.py`` checks that
refusal on every host."""

from __future__ import annotations

import pytest

from kit_devtools.testing.host_names import profile

NOT_HERE = "no such case on the selected releases"
NEEDS_MIDDLEWARE = "test_team_notes.py"
"""The example tests of a plugin that registers middleware."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    middleware = profile(None).offers("register_middleware")
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        absent = item.path.name == NEEDS_MIDDLEWARE and not middleware
        (dropped if absent or NOT_HERE in params.values() else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
