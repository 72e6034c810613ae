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

This module holds the automaton and the search; the grammar is parsed by
:mod:`kit_core._ecma_syntax`, over the code units and sets of :mod:`kit_core._ecma_units`.
"""

from __future__ import annotations

from typing import Any, Final, cast

from kit_core._ecma_syntax import UNBOUNDED, Node, Parser, PatternError, parts
from kit_core._ecma_units import UnitSet, code_units

__all__ = [
    "MAX_STATES",
    "WORK_LIMIT",
    "EcmaPattern",
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


class SearchTooCostly(Exception):
    """A search that would visit more than :data:`WORK_LIMIT` automaton states."""


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

    def build(self, node: Node, then: int) -> int:
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
            for part in reversed(parts(node)):
                entry = self.build(part, entry)
            return entry
        if tag == "alt":
            split = self.add(_SPLIT)
            self.outs[split].extend(self.build(b, then) for b in parts(node))
            return split
        body, low, high = cast("Node", node[1]), cast("int", node[2]), cast("int", node[3])
        entry = then
        if high == UNBOUNDED:
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
        self._start = auto.build(Parser(pattern).parse(), final)
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
            found = frozenset(outs[s][0] for s in chars if unit in cast("UnitSet", args[s]))
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
        for char in code_units(text):
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
