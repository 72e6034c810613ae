"""ECMA-262's pattern grammar, parsed into the syntax tree the matcher compiles.

:class:`Parser` reads a ``pattern`` as ECMA-262 does without flags (the
web-compatibility grammar of Annex B, over UTF-16 code units) into a tree of
:data:`Node`; what is not such a pattern, or is one no bounded-time matcher can run
(back-references, look-arounds), raises :class:`PatternError` with the reason.
:mod:`kit_core._ecma` compiles the tree into its automaton.
"""

from __future__ import annotations

from typing import Final, cast

from kit_core._ecma_units import CLASS_ESCAPES, LINE_TERMINATORS, UnitSet, code_units

__all__ = ["UNBOUNDED", "Node", "Parser", "PatternError", "parts"]

_CONTROL: Final = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_HEX: Final = frozenset("0123456789abcdefABCDEF")
UNBOUNDED: Final = -1


class PatternError(ValueError):
    """A ``pattern`` that is not an ECMA-262 regular expression, or one the kit cannot
    match in bounded time; the message says which and what to write instead."""


# The syntax tree: ("set", UnitSet) | ("cat", [nodes]) | ("alt", [nodes])
# | ("rep", node, low, high or UNBOUNDED) | ("assert", "^" | "$" | "b" | "B")
Node = tuple[object, ...]


class Parser:
    """ECMA-262's pattern grammar without flags (Annex B.1.2), over UTF-16 code units."""

    def __init__(self, pattern: str) -> None:
        self.source = pattern
        self.text = code_units(pattern)
        self.at = 0
        self.groups, self.named = _count_groups(self.text)
        self.names: set[str] = set()

    # -- helpers ------------------------------------------------------------------------

    def fail(self, problem: str) -> PatternError:
        return PatternError(f"invalid regular expression /{self.source}/: {problem}")

    def unsupported(self, what: str, instead: str) -> PatternError:
        return PatternError(
            f"the pattern /{self.source}/ uses {what}, which the kit cannot match in time"
            f" bounded by the argument's length (it matches every pattern in linear time"
            f" so that no argument the model sends can stall hermes): {instead}"
        )

    def peek(self, offset: int = 0) -> str:
        at = self.at + offset
        return self.text[at] if at < len(self.text) else ""

    def startswith(self, prefix: str) -> bool:
        return self.text.startswith(prefix, self.at)

    # -- the grammar --------------------------------------------------------------------

    def parse(self) -> Node:
        node = self.disjunction()
        if self.at < len(self.text):
            raise self.fail("unmatched ')'" if self.peek() == ")" else "unexpected text")
        return node

    def disjunction(self) -> Node:
        branches = [self.alternative()]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.alternative())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def alternative(self) -> Node:
        terms: list[Node] = []
        while self.at < len(self.text) and self.peek() not in "|)":
            terms.append(self.term())
        return ("cat", terms)

    def term(self) -> Node:
        char = self.peek()
        if char in "^$":
            self.at += 1
            return ("assert", char)
        if self.text.startswith(("\\b", "\\B"), self.at):
            self.at += 2
            return ("assert", self.text[self.at - 1])
        for look in ("(?=", "(?!", "(?<=", "(?<!"):
            if self.startswith(look):
                raise self.unsupported(
                    f"a look-around ({look}...)",
                    "match the text itself, or check this in the tool's handler",
                )
        atom = self.atom()
        return self.quantified(atom)

    def quantified(self, atom: Node) -> Node:
        bounds = self.quantifier()
        if bounds is None:
            return atom
        if self.peek() == "?":  # lazy: the same strings match
            self.at += 1
        return ("rep", atom, bounds[0], bounds[1])

    def quantifier(self) -> tuple[int, int] | None:
        char = self.peek()
        if char in ("*", "+", "?") and char:
            self.at += 1
            return {"*": (0, UNBOUNDED), "+": (1, UNBOUNDED), "?": (0, 1)}[char]
        if char == "{":
            braced = self.braced()
            if braced is not None:
                low, high, length = braced
                self.at += length
                if high != UNBOUNDED and high < low:
                    raise self.fail("numbers out of order in {} quantifier")
                return low, high
        return None

    def braced(self) -> tuple[int, int, int] | None:
        """``{n}``, ``{n,}`` or ``{n,m}`` at the cursor: (low, high, length); else None
        (Annex B: a ``{`` that starts no such quantifier is the character itself)."""
        at = self.at + 1
        text = self.text

        def digits(start: int) -> int:
            end = start
            while end < len(text) and text[end].isdigit() and text[end] < "\x80":
                end += 1
            return end

        end = digits(at)
        if end == at:
            return None
        low = int(text[at:end])
        if end < len(text) and text[end] == "}":
            return low, low, end + 1 - self.at
        if end >= len(text) or text[end] != ",":
            return None
        stop = digits(end + 1)
        if stop < len(text) and text[stop] == "}":
            high = int(text[end + 1 : stop]) if stop > end + 1 else UNBOUNDED
            return low, high, stop + 1 - self.at
        return None

    def atom(self) -> Node:
        char = self.peek()
        if char in ("*", "+", "?"):
            raise self.fail("nothing to repeat")
        if char == "{" and self.braced() is not None:
            raise self.fail("nothing to repeat")
        if char == ".":
            self.at += 1
            return ("set", UnitSet.of(LINE_TERMINATORS, True))
        if char == "(":
            return self.group()
        if char == "[":
            return ("set", self.character_class())
        if char == "\\":
            return self.escape()
        self.at += 1
        return _unit(ord(char))

    def group(self) -> Node:
        self.at += 1
        if self.startswith("?:"):
            self.at += 2
        elif self.startswith("?<"):
            self.at += 2
            end = self.text.find(">", self.at)
            name = self.text[self.at : end] if end >= 0 else ""
            if not _identifier(name):
                raise self.fail("invalid capture group name")
            if name in self.names:
                raise self.fail(f"duplicate capture group name {name!r}")
            self.names.add(name)
            self.at = end + 1
        elif self.peek() == "?":
            raise self.fail("invalid group")
        node = self.disjunction()
        if self.peek() != ")":
            raise self.fail("unterminated group")
        self.at += 1
        return node

    def escape(self) -> Node:
        """``\\`` and what follows it, outside a class."""
        nxt = self.peek(1)
        if not nxt:
            raise self.fail("\\ at end of pattern")
        if nxt in "123456789":
            end = self.at + 1
            while end < len(self.text) and self.text[end] in "0123456789":
                end += 1
            if int(self.text[self.at + 1 : end]) <= self.groups:
                raise self.unsupported(
                    f"a back-reference (\\{self.text[self.at + 1 : end]})",
                    "repeat the group's pattern instead of referring back to it",
                )
        if nxt == "k" and self.named:
            raise self.unsupported(
                "a back-reference (\\k<name>)",
                "repeat the group's pattern instead of referring back to it",
            )
        if nxt in CLASS_ESCAPES:
            self.at += 2
            ranges, negated = CLASS_ESCAPES[nxt]
            return ("set", UnitSet.of(ranges, negated))
        return _unit(self.character_escape(in_class=False))

    def character_escape(self, *, in_class: bool) -> int:
        """The code unit of the escape at the cursor (``\\`` included), consumed."""
        nxt = self.peek(1)
        if nxt in _CONTROL:
            self.at += 2
            return _CONTROL[nxt]
        if nxt == "c":
            letter = self.peek(2)
            if letter.isascii() and (
                letter.isalpha() or (in_class and (letter.isdigit() or letter == "_"))
            ):
                self.at += 3
                return ord(letter) % 32
            self.at += 1  # Annex B: the backslash is itself, and "c" comes next
            return ord("\\")
        for letter, width in (("x", 2), ("u", 4)):  # \xHH, \uHHHH; else the letter
            digits = self.text[self.at + 2 : self.at + 2 + width]
            if nxt == letter and len(digits) == width and all(c in _HEX for c in digits):
                self.at += 2 + width
                return int(digits, 16)
        if nxt in "01234567":
            return self.octal()
        if nxt == "k" and self.named:
            raise self.fail("invalid escape \\k")
        self.at += 2  # an identity escape: \Z is "Z", \8 is "8"
        return ord(nxt)

    def octal(self) -> int:
        """Annex B's legacy octal escape (``\\0`` NUL, ``\\12`` is ``\\n``), at most 0o377."""
        start = self.at + 1
        end = start
        limit = 3 if self.text[start] in "0123" else 2
        while end < len(self.text) and end - start < limit and self.text[end] in "01234567":
            end += 1
        self.at = end
        return int(self.text[start:end], 8)

    def character_class(self) -> UnitSet:
        self.at += 1
        negated = self.peek() == "^"
        if negated:
            self.at += 1
        ranges: list[tuple[int, int]] = []
        while True:
            if self.at >= len(self.text):
                raise self.fail("missing /]/ to end a character class")
            if self.peek() == "]":
                self.at += 1
                break
            first = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.at += 1
                second = self.class_atom()
                if isinstance(first, int) and isinstance(second, int):
                    if first > second:
                        raise self.fail("range out of order in character class")
                    ranges.append((first, second))
                    continue
                ranges.append((ord("-"), ord("-")))  # Annex B: [\d-z] is \d, "-" and "z"
                ranges.extend(_atom_ranges(second))
            ranges.extend(_atom_ranges(first))
        found = UnitSet(ranges)
        return found.complement() if negated else found

    def class_atom(self) -> int | UnitSet:
        char = self.peek()
        if char != "\\":
            self.at += 1
            return ord(char)
        nxt = self.peek(1)
        if not nxt:
            raise self.fail("\\ at end of pattern")
        if nxt == "b":
            self.at += 2
            return 0x08
        if nxt in CLASS_ESCAPES:
            self.at += 2
            ranges, negated = CLASS_ESCAPES[nxt]
            return UnitSet.of(ranges, negated)
        if nxt == "-":
            self.at += 2
            return ord("-")
        return self.character_escape(in_class=True)


def parts(node: Node) -> list[Node]:
    return cast("list[Node]", node[1])


def _atom_ranges(atom: int | UnitSet) -> list[tuple[int, int]]:
    return [(atom, atom)] if isinstance(atom, int) else atom.ranges()


def _unit(unit: int) -> Node:
    return ("set", UnitSet([(unit, unit)]))


def _identifier(name: str) -> bool:
    return (
        bool(name)
        and (name[0].isalpha() or name[0] in "$_")
        and all(c.isalnum() or c in "$_\u200c\u200d" for c in name)
    )


def _count_groups(text: str) -> tuple[int, bool]:
    """(capturing groups, whether any is named): what Annex B reads ``\\N`` and ``\\k`` by."""
    groups = 0
    named = False
    at = 0
    in_class = False
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            if not text.startswith("?", at + 1):
                groups += 1
            elif text.startswith("?<", at + 1) and text[at + 3 : at + 4] not in ("=", "!"):
                groups += 1
                named = True
        at += 1
    return groups, named
