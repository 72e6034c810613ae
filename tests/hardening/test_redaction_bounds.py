"""Redaction is linear in its input and bounded per call, and a cut never shows a secret.

Time is never asserted here (``scripts/bench_redaction.py`` prints it). What is pinned is
what makes the time linear, read from the patterns themselves: every secret shape starts
with a literal and repeats only possessively or within a fixed bound, except the two
repeats listed below, each argued; and what bounds one call: a preview reads a fixed
number of characters, whatever the size of the text.
"""

from __future__ import annotations

import re
import string
from re import _constants as sre_constants  # pyright: ignore[reportAttributeAccessIssue]
from re import _parser as sre_parse  # pyright: ignore[reportAttributeAccessIssue]
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core import redaction
from kit_core._shapes import catalogue
from kit_core.redaction import CUT_MARGIN, redact_preview, redact_text

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))

UNBOUNDED_BUT_SAFE = {
    # the lazy scan of a private key block for its END line: the first BEGIN's scan always
    # succeeds (the END line or the end of the text), so the text is scanned once
    "a PEM or PGP private key block",
    # the password of URL credentials, searched back to its last "@": it cannot cross a
    # space, "/", "?" or "#", and an attempt starts only after "://"
    "credentials in a URL (scheme://user:password@host)",
}


def _unbounded_backtracking(parsed: Any) -> list[str]:
    """Every greedy or lazy repeat without an upper bound in a parsed pattern."""
    found: list[str] = []
    for op, arg in parsed:
        if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            low, high, body = arg
            if high == sre_constants.MAXREPEAT:
                found.append(f"{op} {low}..")
            found += _unbounded_backtracking(body)
        elif op is sre_constants.POSSESSIVE_REPEAT:
            found += _unbounded_backtracking(arg[2])
        elif op is sre_constants.SUBPATTERN:
            found += _unbounded_backtracking(arg[-1])
        elif op is sre_constants.BRANCH:
            for branch in arg[1]:
                found += _unbounded_backtracking(branch)
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT, sre_constants.ATOMIC_GROUP):
            found += _unbounded_backtracking(arg[-1])
        elif op is sre_constants.GROUPREF_EXISTS:
            found += _unbounded_backtracking(arg[1])
            if arg[2] is not None:
                found += _unbounded_backtracking(arg[2])
    return found


@pytest.mark.parametrize("shape", catalogue(), ids=lambda s: s.name)
def test_every_shape_starts_with_a_literal(shape: Any) -> None:
    """The engine then jumps from one occurrence of the literal to the next at C speed,
    instead of trying the pattern at every position of the text."""
    first_op, _ = sre_parse.parse(shape.pattern, re.ASCII)[0]
    assert first_op is sre_constants.LITERAL, f"{shape.name} starts with {first_op}"


@pytest.mark.parametrize("shape", catalogue(), ids=lambda s: s.name)
def test_no_shape_backtracks_without_bound(shape: Any) -> None:
    found = _unbounded_backtracking(sre_parse.parse(shape.pattern, re.ASCII))
    if shape.name in UNBOUNDED_BUT_SAFE:
        assert len(found) == 1, found
    else:
        assert found == [], f"{shape.name} can backtrack without bound: {found}"


def test_media_id_shapes_never_backtrack_without_bound() -> None:
    """What kit-media masks in host text (chat ids, addresses, handles, opaque ids) runs on
    every delivery's reply: the same rule holds for it (it once took 1 s on 16 KB)."""
    from kit_media._privacy import _ID_SHAPES

    assert _unbounded_backtracking(sre_parse.parse(_ID_SHAPES.pattern)) == []


def test_the_checker_sees_backtracking() -> None:
    """The walker above is not blind: the old JWT pattern, quadratic on eyJ-eyJ-…, fails it."""
    old_jwt = r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"
    assert _unbounded_backtracking(sre_parse.parse(old_jwt)) != []


@pytest.mark.parametrize(
    "text",
    [
        "eyJ-" * 250_000,  # the review's input: repeated JWT-like fragments
        "token " + "a" * 1_000_000,
        "x" * 1_000_000 + " password=hunter22",
        "Bearer " + "A" * 1_000_000,
    ],
    ids=["jwt-fragments", "one-long-word", "secret-at-the-end", "long-bearer"],
)
def test_a_preview_reads_a_bounded_window(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[int] = []
    real = redaction.secret_spans  # pyright: ignore[reportPrivateImportUsage]

    def recording(window: str) -> list[tuple[int, int]]:
        read.append(len(window))
        return real(window)

    monkeypatch.setattr(redaction, "secret_spans", recording)
    shown = redact_preview(text, 200)
    assert len(shown) <= 200 + len("***…")
    assert all(size <= 200 + CUT_MARGIN for size in read)


SECRET_CORES = st.text(string.ascii_letters + string.digits, min_size=40, max_size=60)
SHAPED = st.sampled_from(
    [
        "sk-proj-{}",
        "ghp_{}",
        "glpat-{}",
        "xoxb-1234-{}",
        "AIza{}",
        "hf_{}",
        "eyJ{}.eyJ{}.{}",
        "Bearer {}",
        "password={}",
        '"api_key": "{}"',
        "https://user:{}@host",
        "123456789:AA{}",
    ]
)


@HARDENING
@given(
    before=st.text(max_size=300),
    template=SHAPED,
    core=SECRET_CORES,
    after=st.text(max_size=50),
    limit=st.integers(min_value=1, max_value=400),
)
def test_a_cut_never_shows_part_of_a_secret(
    before: str, template: str, core: str, after: str, limit: int, tally: Any
) -> None:
    text = before + " " + template.replace("{}", core) + " " + after
    shown = redact_preview(text, limit)
    windows = [core[i : i + 12] for i in range(len(core) - 11)]
    windows = [w for w in windows if w not in before + after]  # there by chance: not planted
    assert not any(w in shown for w in windows), (text, limit, shown)
    assert len(shown) <= limit + len("***…")
    tally.fuzz("redaction cuts")


@HARDENING
@given(
    before=st.text(max_size=300),
    secret=st.text(min_size=12, max_size=80).filter(lambda s: s.strip() == s),
    limit=st.integers(min_value=1, max_value=400),
)
def test_a_cut_never_shows_part_of_a_named_secret(
    before: str, secret: str, limit: int, tally: Any
) -> None:
    text = f"{before} {secret!r} and more"
    shown = redact_preview(text, limit, (secret,))
    for form in (secret, repr(secret)[1:-1]):
        windows = [form[i : i + 12] for i in range(len(form) - 11)]
        windows = [w for w in windows if w not in before]
        assert not any(w in shown for w in windows), (text, limit, shown)
    tally.fuzz("redaction cuts")


def test_unbounded_redaction_still_masks_a_secret_far_into_the_text() -> None:
    text = "z " * 400_000 + "token=hunter22 " + "eyJ-" * 1000
    assert "hunter22" not in redact_text(text)
