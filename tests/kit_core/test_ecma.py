"""``pattern`` follows ECMA-262, as JSON Schema says, where Python's ``re`` differs."""

from __future__ import annotations

import re

import pytest

from kit_core._ecma import compile_ecma


@pytest.mark.parametrize(
    ("pattern", "text", "ecma"),
    [
        ("^[a-z]+$", "abc", True),
        ("^[a-z]+$", "abc\n", False),  # Python's $ also matches before a final newline
        (r"^\d+$", "123", True),
        (r"^\d+$", "\u0661\u0662\u0663", False),  # Arabic-Indic digits: \d is ASCII only
        (r"^\w+$", "caf\u00e9", False),  # \w is ASCII only
        (r"^\s$", "\ufeff", True),  # ECMA counts the BOM as a space, Python does not
        (r"^[\s]$", "\u00a0", True),
        (r"^\S$", "\ufeff", False),
        ("^a.b$", "a\rb", False),  # . excludes line terminators, \r and \u2028 too
        ("^a.b$", "a\u2028b", False),
        ("^a.b$", "a-b", True),
        (r"^(?<year>\d{4})-\k<year>$", "2026-2026", True),  # ECMA named groups
        (r"^(?<year>\d{4})-\k<year>$", "2026-2027", False),
        (r"(?<=a)b", "ab", True),  # look-behind stays look-behind
        (r"(?<!a)b", "ab", False),
        (r"^[$.]+$", "$.", True),  # inside a class, $ and . are literals
        (r"^\$\.$", "$.", True),
    ],
)
def test_ecma_semantics(pattern: str, text: str, ecma: bool) -> None:
    assert (compile_ecma(pattern).search(text) is not None) is ecma


def test_a_pattern_python_cannot_run_is_still_refused() -> None:
    with pytest.raises(re.error):
        compile_ecma("(unclosed")
