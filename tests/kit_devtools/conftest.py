"""Fixtures of the kit_devtools tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from kit_devtools.testing._real_hermes import _hermes_packages


@pytest.fixture
def hermes_imported_for_the_test() -> Iterator[None]:
    """hermes imported by the test itself, and taken out again after it: a later real-host
    test must boot hermes in its own home."""
    before = set(sys.modules)
    yield
    packages = _hermes_packages()
    for name in [n for n in sys.modules if n not in before]:
        if name.partition(".")[0] in packages:
            del sys.modules[name]
