"""JSON Schema ``pattern``: ECMA-262's regular expressions, matched in bounded time.

The model and the providers that check tool arguments read a ``pattern`` as an ECMA-262
regular expression without flags (JSON Schema 2020-12, section 6.3.3), searched for
anywhere in the string. The kit reads it the same way, with its own parser of ECMA-262's
grammar (the web-compatibility grammar of Annex B, which browsers and Node use without
the ``u`` flag), and never hands it to Python's ``re``, for two reasons:

* the dialects differ: ``$`` is the end of the input only; ``\\d``, ``\\w`` and ``\\b``
  are ASCII; ``\\s`` counts ``\\ufeff``; ``.`` excludes ``\\r``, ``\\u2028`` and
  ``\\u2029``; ``\\Z``, ``\\A`` are the letters ``Z`` and ``A``; ``{,5}`` is text;
  ``[^]`` is any character and ``[]`` none; ``(?P<n>...)`` and ``a++`` are syntax
  errors; and the string is matched as UTF-16 code units (``.`` takes half an emoji);
* Python's ``re`` backtracks: a pattern of the kind authors write (a slug, a host name,
  an e-mail address) can take hours on a 30-character argument the model sends, holding
  the interpreter lock.

The pattern is compiled to a Thompson automaton of at most :data:`MAX_STATES` states and
searched with a lazily built deterministic automaton: each code unit of the argument is
one table lookup once its state is known, and at most one new state (a set of automaton
states, built in time bounded by the pattern's size) is made per code unit. The work is
linear in the argument, whatever the pattern. What no such matcher can do is refused when
the tool is declared, with the reason: back-references (``\\1``, ``\\k<name>``) and
look-arounds (``(?=``, ``(?!``, ``(?<=``, ``(?<!``).
"""

from __future__ import annotations

import bisect
from typing import Any, Final, cast

__all__ = [
    "MAX_STATES",
    "WORK_LIMIT",
    "EcmaPattern",
    "PatternError",
    "SearchTooCostly",
    "compile_ecma",
]

MAX_STATES: Final = 10_000
"""The largest automaton a pattern may compile to (counted repeats are copied out)."""

_CACHE_LIMIT: Final = 20_000
"""Transitions kept per pattern before the table is started afresh."""

WORK_LIMIT: Final = 4_000_000
"""Automaton states one search may visit while building states (about a second at
most): a pattern whose deterministic states keep growing with the argument (``(a|b)*a``
followed by a long counted repeat) gives up there and the argument is refused, never
searched for longer."""

_LINE_TERMINATORS: Final = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
_DIGITS: Final = ((0x30, 0x39),)
_WORD: Final = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACES: Final = (
    (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
    (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
)  # fmt: skip
_ALL: Final = ((0, 0xFFFF),)
_CLASS_ESCAPES: Final = {
    "d": (_DIGITS, False), "D": (_DIGITS, True), "s": (_SPACES, False),
    "S": (_SPACES, True), "w": (_WORD, False), "W": (_WORD, True),
}  # fmt: skip
_CONTROL: Final = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SYNTAX: Final = frozenset("^$\\.*+?()[]{}|/")
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_UNBOUNDED: Final = -1


class PatternError(ValueError):
    """A ``pattern`` that is not an ECMA-262 regular expression, or one the kit cannot
    match in bounded time; the message says which and what to write instead."""


class SearchTooCostly(Exception):
    """A search that would visit more than :data:`WORK_LIMIT` automaton states."""


def _units(text: str) -> str:
    """``text`` as UTF-16 code units (one character each), as ECMA-262 matches it."""
    if text.isascii() or max(text, default="\x00") <= "\uffff":  # at C speed
        return text
    return "".join(c if ord(c) <= 0xFFFF else _surrogates(ord(c)) for c in text)


def _surrogates(point: int) -> str:
    offset = point - 0x10000
    return chr(0xD800 + (offset >> 10)) + chr(0xDC00 + (offset & 0x3FF))


class _Set:
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
    def of(ranges: tuple[tuple[int, int], ...], negated: bool) -> _Set:
        found = _Set(list(ranges))
        return found.complement() if negated else found

    def complement(self) -> _Set:
        out: list[tuple[int, int]] = []
        at = 0
        for low, high in zip(self.lows, self.highs, strict=True):
            if low > at:
                out.append((at, low - 1))
            at = high + 1
        if at <= 0xFFFF:
            out.append((at, 0xFFFF))
        return _Set(out)

    def ranges(self) -> list[tuple[int, int]]:
        return list(zip(self.lows, self.highs, strict=True))

    def __contains__(self, unit: int) -> bool:
        at = bisect.bisect_right(self.lows, unit) - 1
        return at >= 0 and unit <= self.highs[at]


# The syntax tree: ("set", _Set) | ("cat", [nodes]) | ("alt", [nodes])
# | ("rep", node, low, high or _UNBOUNDED) | ("assert", "^" | "$" | "b" | "B")
_Node = tuple[object, ...]
_EMPTY: Final[_Node] = ("cat", [])


class _Parser:
    """ECMA-262's pattern grammar without flags (Annex B.1.2), over UTF-16 code units."""

    def __init__(self, pattern: str) -> None:
        self.source = pattern
        self.text = _units(pattern)
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

    def parse(self) -> _Node:
        node = self.disjunction()
        if self.at < len(self.text):
            raise self.fail("unmatched ')'" if self.peek() == ")" else "unexpected text")
        return node

    def disjunction(self) -> _Node:
        branches = [self.alternative()]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.alternative())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def alternative(self) -> _Node:
        terms: list[_Node] = []
        while self.at < len(self.text) and self.peek() not in "|)":
            terms.append(self.term())
        return ("cat", terms)

    def term(self) -> _Node:
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

    def quantified(self, atom: _Node) -> _Node:
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
            return {"*": (0, _UNBOUNDED), "+": (1, _UNBOUNDED), "?": (0, 1)}[char]
        if char == "{":
            braced = self.braced()
            if braced is not None:
                low, high, length = braced
                self.at += length
                if high != _UNBOUNDED and high < low:
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
            high = int(text[end + 1 : stop]) if stop > end + 1 else _UNBOUNDED
            return low, high, stop + 1 - self.at
        return None

    def atom(self) -> _Node:
        char = self.peek()
        if char in ("*", "+", "?"):
            raise self.fail("nothing to repeat")
        if char == "{" and self.braced() is not None:
            raise self.fail("nothing to repeat")
        if char == ".":
            self.at += 1
            return ("set", _Set.of(_LINE_TERMINATORS, True))
        if char == "(":
            return self.group()
        if char == "[":
            return ("set", self.character_class())
        if char == "\\":
            return self.escape()
        self.at += 1
        return _unit(ord(char))

    def group(self) -> _Node:
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

    def escape(self) -> _Node:
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
        if nxt in _CLASS_ESCAPES:
            self.at += 2
            ranges, negated = _CLASS_ESCAPES[nxt]
            return ("set", _Set.of(ranges, negated))
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

    def character_class(self) -> _Set:
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
        found = _Set(ranges)
        return found.complement() if negated else found

    def class_atom(self) -> int | _Set:
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
        if nxt in _CLASS_ESCAPES:
            self.at += 2
            ranges, negated = _CLASS_ESCAPES[nxt]
            return _Set.of(ranges, negated)
        if nxt == "-":
            self.at += 2
            return ord("-")
        return self.character_escape(in_class=True)


def _parts(node: _Node) -> list[_Node]:
    return cast("list[_Node]", node[1])


def _atom_ranges(atom: int | _Set) -> list[tuple[int, int]]:
    return [(atom, atom)] if isinstance(atom, int) else atom.ranges()


def _unit(unit: int) -> _Node:
    return ("set", _Set([(unit, unit)]))


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


# -- the automaton ----------------------------------------------------------------------

_CHAR, _SPLIT, _ASSERT, _MATCH = range(4)


class _Automaton:
    """A Thompson automaton: state ``i`` is ``kinds[i]`` with ``args[i]`` and ``outs[i]``."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.kinds: list[int] = []
        self.args: list[object] = []
        self.outs: list[list[int]] = []

    def add(self, kind: int, arg: object = None) -> int:
        if len(self.kinds) >= MAX_STATES:
            msg = (
                f"the pattern /{self.source}/ is too large to match in bounded time (more than"
                f" {MAX_STATES:,} automaton states: counted repeats such as {{1000}} are"
                " copied out); use smaller counts, or check the length with maxLength"
            )
            raise PatternError(msg)
        self.kinds.append(kind)
        self.args.append(arg)
        self.outs.append([])
        return len(self.kinds) - 1

    def build(self, node: _Node, then: int) -> int:
        """States for ``node`` that go on to ``then``; returns the entry state."""
        tag = node[0]
        if tag == "set":
            state = self.add(_CHAR, node[1])
            self.outs[state].append(then)
            return state
        if tag == "assert":
            state = self.add(_ASSERT, node[1])
            self.outs[state].append(then)
            return state
        if tag == "cat":
            entry = then
            for part in reversed(_parts(node)):
                entry = self.build(part, entry)
            return entry
        if tag == "alt":
            split = self.add(_SPLIT)
            self.outs[split].extend(self.build(b, then) for b in _parts(node))
            return split
        body, low, high = cast("_Node", node[1]), cast("int", node[2]), cast("int", node[3])
        entry = then
        if high == _UNBOUNDED:
            loop = self.add(_SPLIT)
            self.outs[loop].extend([self.build(body, loop), then])
            entry = loop
        else:
            for _ in range(high - low):
                optional = self.add(_SPLIT)
                self.outs[optional].extend([self.build(body, entry), then])
                entry = optional
        for _ in range(low):
            entry = self.build(body, entry)
        return entry


def _is_word(unit: int) -> bool:
    return 0x30 <= unit <= 0x39 or 0x41 <= unit <= 0x5A or unit == 0x5F or 0x61 <= unit <= 0x7A


_NOTHING: Final[frozenset[int]] = frozenset()
_BEGIN: Final = None
"""The key of the position before the first unit (its closure holds ``^``)."""
_UNBUILT: Final[Any] = object()
"""What the transition table answers for a transition not built yet."""


class _State(dict[str, "_State | None"]):
    """A deterministic state, built as searches reach it: its set of automaton states
    (``None``: the start), whether the unit before it is a word unit, and, as a dict, the
    node each unit read so far leads to (``None`` once the pattern has matched)."""

    __slots__ = ("before", "end", "states")

    def __init__(self, states: frozenset[int] | None, before: bool) -> None:
        super().__init__()
        self.states = states
        self.before = before
        self.end: bool | None = None
        """Whether the pattern matches when the input ends here (once asked)."""


class EcmaPattern:
    """A compiled ``pattern``: :meth:`search` says whether it matches anywhere in a string.

    One object serves every call of its tool, in any thread: a deterministic state is a
    :class:`_State`, found again by its set of automaton states (a frozenset, its hash
    kept); a node only ever gains moves, each added whole, and when the nodes built reach
    :data:`_CACHE_LIMIT` moves the graph is started afresh (a search under way keeps the
    nodes it holds), so no search depends on another's numbering or counters. A search
    reads one dict per unit once its moves are built.
    """

    __slots__ = ("_auto", "_begin", "_moves", "_nodes", "_start", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        auto = _Automaton(pattern)
        final = auto.add(_MATCH)
        self._start = auto.build(_Parser(pattern).parse(), final)
        self._auto = auto
        self._afresh()

    def _afresh(self) -> None:
        begin = _State(_BEGIN, False)
        self._nodes: dict[tuple[frozenset[int] | None, bool], _State] = {(_BEGIN, False): begin}
        self._begin = begin
        self._moves = 0

    def _closure(
        self, states: frozenset[int], start: bool, end: bool, before: bool, after: bool
    ) -> tuple[list[int], bool, int]:
        """The character states reachable from ``states`` without reading, at a position
        where the input starts/ends and the units before/after are word characters;
        whether the match state is among them; and how many states were visited."""
        kinds, args, outs = self._auto.kinds, self._auto.args, self._auto.outs
        seen: set[int] = set()
        stack = [*states, self._start]
        chars: list[int] = []
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            kind = kinds[state]
            if kind == _MATCH:
                return chars, True, len(seen)
            if kind == _CHAR:
                chars.append(state)
                continue
            if kind == _ASSERT and not _holds(args[state], start, end, before, after):
                continue
            stack.extend(outs[state])
        return chars, False, len(seen)

    def _move(self, node: _State, char: str) -> tuple[_State | None, int]:
        """Build the move from ``node`` on ``char``: the next node (None: the pattern has
        matched), and the work it took."""
        unit = ord(char)
        word = _is_word(unit)
        current = node.states
        states = _NOTHING if current is None else current
        chars, matched, work = self._closure(states, current is _BEGIN, False, node.before, word)
        target: _State | None = None
        if not matched:
            args, outs = self._auto.args, self._auto.outs
            found = frozenset(outs[s][0] for s in chars if unit in cast("_Set", args[s]))
            key = (found, word)
            if self._moves >= _CACHE_LIMIT:  # memory stays bounded: start afresh
                self._afresh()
            target = self._nodes.setdefault(key, _State(*key))
        self._moves += 1
        node[char] = target
        return target, work

    def search(self, text: str) -> bool:
        """Whether the pattern matches somewhere in ``text`` (JSON Schema's reading).

        Raises:
            SearchTooCostly: the search would visit more than :data:`WORK_LIMIT` states.
        """
        node = self._begin
        work = 0
        for char in _units(text):
            found: Any = node.get(char, _UNBUILT)
            if found is _UNBUILT:
                found, cost = self._move(node, char)
                work += cost
                if work > WORK_LIMIT:
                    raise SearchTooCostly
            if found is None:
                return True
            node = found
        return self._at_end(node)

    def _at_end(self, node: _State) -> bool:
        if node.end is None:
            states = _NOTHING if node.states is None else node.states
            node.end = self._closure(states, node.states is _BEGIN, True, node.before, False)[1]
        return node.end


def _holds(what: object, start: bool, end: bool, before: bool, after: bool) -> bool:
    """Whether the assertion ``what`` (``^``, ``$``, ``b``, ``B``) holds at a position."""
    if what == "^":
        return start
    if what == "$":
        return end
    return (before != after) if what == "b" else before == after


def compile_ecma(pattern: str) -> EcmaPattern:
    """``pattern`` (ECMA-262, as JSON Schema reads it) compiled for bounded-time search.

    Raises:
        PatternError: not an ECMA-262 regular expression, or one with a back-reference or
            a look-around, or too large; the message says which.
    """
    return EcmaPattern(pattern)
