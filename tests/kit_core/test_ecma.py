"""``pattern`` follows ECMA-262, as JSON Schema says, and is matched in bounded time.

The semantics are held to a real ECMA-262 engine (Node's V8, which the machine has) on
thousands of generated pattern/text pairs; what the kit refuses (back-references,
look-arounds, automata too large) is refused with the reason; and the adversarial
patterns that made Python's backtracking ``re`` run for hours answer at once (their
times are printed by scripts/bench_patterns.py, never asserted here).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from kit_core import ToolDefinitionError, str_arg, tool
from kit_core._ecma import compile_ecma
from kit_core._ecma_syntax import PatternError


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
        (r"^[\S]$", "\ufeff", False),  # \S in a class: the red team's first case
        (r"^[^\S]$", "\ufeff", True),
        ("^a.b$", "a\rb", False),  # . excludes line terminators, \r and \u2028 too
        ("^a.b$", "a\u2028b", False),
        ("^a.b$", "a-b", True),
        (r"^(?<year>\d{4})-\d{2}$", "2026-12", True),  # ECMA named groups
        (r"^[$.]+$", "$.", True),  # inside a class, $ and . are literals
        (r"^\$\.$", "$.", True),
        (r"^\Z$", "Z", True),  # no \Z in ECMA-262: the letter itself
        (r"^\A$", "A", True),
        ("^a{,2}$", "a{,2}", True),  # no {,n} quantifier in ECMA-262: the text itself
        ("^a{,2}$", "aa", False),
        ("^[^]$", "\n", True),  # [^] is any unit, [] none
        ("[]", "anything", False),
        ("^.$", "\U0001f600", False),  # an emoji is two UTF-16 code units
        ("^..$", "\U0001f600", True),
        (r"\bcat\b", "a cat sat", True),
        (r"\bcat\b", "concatenate", False),
        (r"^\cJ$", "\n", True),
        (r"^\x41\u0042$", "AB", True),
        (r"^\0$", "\x00", True),
        ("^a??$", "", True),  # lazy quantifiers match the same strings
        ("(?:ab)+c", "xxababc", True),  # searched for anywhere, as JSON Schema says
    ],
)
def test_a_pattern_matches_as_ecma_262_reads_it(pattern: str, text: str, ecma: bool) -> None:
    assert compile_ecma(pattern).search(text) is ecma


@pytest.mark.parametrize(
    ("pattern", "said"),
    [
        ("(unclosed", "unterminated group"),
        ("a++", "nothing to repeat"),  # Python 3.11 reads it as possessive
        ("a**", "nothing to repeat"),
        ("*a", "nothing to repeat"),
        ("{2}", "nothing to repeat"),
        ("(?P<n>x)", "invalid group"),  # Python's named group
        ("(?i)x", "invalid group"),
        ("[b-a]", "range out of order"),
        ("a{3,2}", "numbers out of order"),
        ("[abc", "missing /]/"),
        ("x)", "unmatched ')'"),
        ("(?<a>x)(?<a>y)", "duplicate capture group name"),
        ("\\", "\\ at end of pattern"),
    ],
)
def test_what_ecma_refuses_is_refused_with_its_reason(pattern: str, said: str) -> None:
    with pytest.raises(PatternError, match="invalid regular expression") as caught:
        compile_ecma(pattern)
    assert said in str(caught.value)


@pytest.mark.parametrize(
    ("pattern", "what"),
    [
        (r"^(\d{4})-\1$", "a back-reference (\\1)"),
        (r"^(?<y>\d{4})-\k<y>$", "a back-reference (\\k<name>)"),
        (r"(?<=a)b", "a look-around ((?<=...)"),
        (r"(?<!a)b", "a look-around ((?<!...)"),
        (r"^(?=.*\d).{8,}$", "a look-around ((?=...)"),
        (r"x(?!y)", "a look-around ((?!...)"),
    ],
)
def test_what_cannot_be_matched_in_bounded_time_is_refused_naming_it(
    pattern: str, what: str
) -> None:
    with pytest.raises(PatternError) as caught:
        compile_ecma(pattern)
    assert f"uses {what}, which the kit cannot match in time bounded" in str(caught.value)


def test_annex_b_octal_and_identity_escapes_are_not_back_references() -> None:
    # no group: \1 is the octal escape U+0001, \8 the digit 8 (what browsers and Node do)
    assert compile_ecma(r"^\1$").search("\x01") is True
    assert compile_ecma(r"^\8$").search("8") is True
    assert compile_ecma(r"^\k$").search("k") is True  # no named group: the letter


def test_a_pattern_that_expands_too_far_is_refused_at_declaration() -> None:
    with pytest.raises(ToolDefinitionError, match=r"too large to match in bounded time"):

        @tool(
            toolset="tests",
            namespace="ecma",
            name="ecma_huge",
            params={"code": str_arg("A code", pattern="^(a{100}){200}$")},
        )
        def _huge(args: dict[str, object], **kwargs: object) -> str:
            """Take a code."""
            return "never"


def test_a_bad_pattern_fails_the_declaration_with_the_reason() -> None:
    with pytest.raises(ToolDefinitionError, match=r"look-around") as caught:

        @tool(
            toolset="tests",
            namespace="ecma",
            name="ecma_look",
            params={"word": str_arg("A password", pattern="^(?=.*[0-9]).{8,}$")},
        )
        def _look(args: dict[str, object], **kwargs: object) -> str:
            """Take a password."""
            return "never"

    assert "check this in the tool's handler" in str(caught.value)


def test_an_adversarial_argument_is_answered_not_backtracked() -> None:
    """The red team's cases: Python's re needs seconds to hours on each."""
    slug = compile_ecma(r"^([a-z0-9]+-?)*[a-z0-9]+$")
    host = compile_ecma(r"^([a-zA-Z0-9]+[-.]?)*[a-zA-Z0-9]+\.[a-z]{2,}$")
    email = compile_ecma(r"^[\w.+-]+@([\w-]+\.)+[a-z]{2,}$")
    assert slug.search("a" * 30 + "!") is False
    assert host.search("a" * 30) is False
    assert email.search("a" * 30 + "@" + "a" * 30) is False
    assert compile_ecma("(x+x+)+y").search("x" * 20_000) is False  # quadratic for re


# -- differential: the kit against V8 ---------------------------------------------------

_ATOMS = (
    "a", "b", "ab", ".", "[ab]", "[^a]", "[a-c]", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S",
    r"[\S]", r"[^\S]", r"[\d-]", r"\Z", r"\A", r"\b", r"\B", "^", "$", "[^]", "[]", r"\.",
    r"\-", "-", "]", "}", "{", "{,2}", "(?:ab|a)", "(a|b)", "(?<n>a)", r"\u0041", r"\x61",
    r"\t", r"\0", r"\1", r"\cA", r"\c", "\u00e9", "\U0001f600", "[\U0001f600]", r"[\b]",
)  # fmt: skip
_QUANTIFIERS = ("", "", "", "*", "+", "?", "*?", "{2}", "{1,}", "{0,2}", "{2,1}", "++")
_TEXTS = (
    "", "a", "b", "ab", "aab", "abc", "ba", "A", "Z", "-", "a-b", "1", "12", "a1_",
    " ", "\t", "\n", "\ufeff", "\u00a0", "\u00e9", "\U0001f600", "x\U0001f600y", "a{,2}",
    "{", "}", "]", ".", "\x00", "\x01", "\x08", "caf\u00e9 bar", "ab ab", "aaaa",
)  # fmt: skip
_NODE = """
const lines = require("fs").readFileSync(0, "utf8");
const {patterns, texts} = JSON.parse(lines);
const out = patterns.map((p) => {
  let re;
  try { re = new RegExp(p); } catch (e) { return null; }
  return texts.map((t) => re.test(t));
});
process.stdout.write(JSON.stringify(out));
"""


def _generated(count: int) -> list[str]:
    pick = random.Random(20261202)
    patterns = {"".join(pick.choice(_ATOMS) + pick.choice(_QUANTIFIERS) for _ in range(3))
                for _ in range(count)}  # fmt: skip
    for atom in _ATOMS:
        for quantifier in _QUANTIFIERS:
            patterns.add(atom + quantifier)
            patterns.add(f"^{atom}{quantifier}$")
    # what V8 accepts and the kit refuses as unbounded (and their octal neighbours)
    patterns.update([r"(a)\1", r"(a)(b)\2", r"(?<n>a)\k<n>", "(?=a)", "(?<!a)b", r"(a)\2"])
    return sorted(patterns)


def test_the_kit_reads_every_generated_pattern_as_v8_does() -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed: the differential test runs V8"
    patterns = _generated(400)
    done = subprocess.run(
        [node, "-e", _NODE],
        input=json.dumps({"patterns": patterns, "texts": _TEXTS}),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    v8: list[list[bool] | None] = json.loads(done.stdout)
    differ: list[str] = []
    compared = refused = 0
    for pattern, answers in zip(patterns, v8, strict=True):
        try:
            compiled = compile_ecma(pattern)
        except PatternError as exc:
            unbounded = "cannot match in time bounded" in str(exc)
            if answers is not None and not unbounded:
                differ.append(f"/{pattern}/: the kit refuses it ({exc}), V8 accepts it")
            refused += unbounded
            continue
        if answers is None:
            differ.append(f"/{pattern}/: the kit accepts it, V8 refuses it")
            continue
        for text, expected in zip(_TEXTS, answers, strict=True):
            compared += 1
            if compiled.search(text) is not expected:
                differ.append(f"/{pattern}/ on {text!r}: V8 says {expected}")
    assert differ == []
    assert compared > 20_000  # the generator still makes what it is meant to
    assert sum(a is None for a in v8) > 50  # and patterns V8 refuses
    assert refused > 0  # \1 after a group: refused as unbounded, accepted by V8


def test_a_search_past_its_work_limit_refuses_the_argument_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @tool(
        toolset="tests",
        namespace="ecma",
        name="ecma_code",
        params={"code": str_arg("A code", pattern="(a|b)*a(a|b){12}c")},
    )
    def code(args: dict[str, object], **kwargs: object) -> str:
        """Take a code."""
        return "ran"

    assert code({"code": "a" * 13 + "c"}) == "ran"
    monkeypatch.setattr("kit_core._ecma.WORK_LIMIT", 5_000)
    pick = random.Random(7)  # a new deterministic state at almost every character
    out = json.loads(code({"code": "".join(pick.choice("ab") for _ in range(1_000))}))
    assert out["success"] is False
    assert out["error"].endswith(
        "code is too long to check against the pattern '(a|b)*a(a|b){12}c' in bounded"
        " time (1,000 characters); send a shorter value"
    )


def test_one_compiled_pattern_answers_rightly_in_many_threads_as_its_table_is_emptied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tool's pattern serves every call in every hermes thread; its transition table
    is emptied when full (here: every 50 transitions), under the other threads' feet."""
    import re
    import threading

    monkeypatch.setattr("kit_core._ecma._CACHE_LIMIT", 50)
    compiled = compile_ecma(r"^[a-z0-9]+(-[a-z0-9]+)*$")
    wrong: list[str] = []

    def run(seed: int) -> None:
        pick = random.Random(seed)
        for _ in range(2_000):
            text = "".join(pick.choice("ab-1") for _ in range(pick.randint(0, 12)))
            expected = re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", text) is not None
            if compiled.search(text) is not expected:
                wrong.append(text)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
