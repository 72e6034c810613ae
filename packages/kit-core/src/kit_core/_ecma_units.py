"""The code units a ``pattern`` and an argument are read as, and the sets of them.

ECMA-262 matches a string as UTF-16 code units (:func:`code_units`), and every
character, class and escape of a pattern stands for a set of them (:class:`UnitSet`):
among them the line terminators ``.`` excludes and the classes of ``\\d``, ``\\s`` and
``\\w`` (:data:`CLASS_ESCAPES`), ASCII except ``\\s``.
"""

from __future__ import annotations

import bisect
from typing import Final

__all__ = ["CLASS_ESCAPES", "LINE_TERMINATORS", "UnitSet", "code_units"]

LINE_TERMINATORS: Final = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
_DIGITS: Final = ((0x30, 0x39),)
_WORD: Final = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACES: Final = (
    (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
    (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
)  # fmt: skip
CLASS_ESCAPES: Final = {
    "d": (_DIGITS, False), "D": (_DIGITS, True), "s": (_SPACES, False),
    "S": (_SPACES, True), "w": (_WORD, False), "W": (_WORD, True),
}  # fmt: skip


def code_units(text: str) -> str:
    """``text`` as UTF-16 code units (one character each), as ECMA-262 matches it."""
    if text.isascii() or max(text, default="\x00") <= "\uffff":  # at C speed
        return text
    return "".join(c if ord(c) <= 0xFFFF else _surrogates(ord(c)) for c in text)


def _surrogates(point: int) -> str:
    offset = point - 0x10000
    return chr(0xD800 + (offset >> 10)) + chr(0xDC00 + (offset & 0x3FF))


class UnitSet:
    """A set of code units: sorted, merged ``(low, high)`` ranges."""

    __slots__ = ("highs", "lows")

    def __init__(self, ranges: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> None:
        merged: list[list[int]] = []
        for low, high in sorted(ranges):
            if merged and low <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        self.lows = [low for low, _ in merged]
        self.highs = [high for _, high in merged]

    @staticmethod
    def of(ranges: tuple[tuple[int, int], ...], negated: bool) -> UnitSet:
        found = UnitSet(list(ranges))
        return found.complement() if negated else found

    def complement(self) -> UnitSet:
        out: list[tuple[int, int]] = []
        at = 0
        for low, high in zip(self.lows, self.highs, strict=True):
            if low > at:
                out.append((at, low - 1))
            at = high + 1
        if at <= 0xFFFF:
            out.append((at, 0xFFFF))
        return UnitSet(out)

    def ranges(self) -> list[tuple[int, int]]:
        return list(zip(self.lows, self.highs, strict=True))

    def __contains__(self, unit: int) -> bool:
        at = bisect.bisect_right(self.lows, unit) - 1
        return at >= 0 and unit <= self.highs[at]
