"""The log lines' preview of a call's arguments: the short way for a flat dict of a few
scalars (nearly every call) shows exactly what the general walk shows; and the quick test
that lets a text skip the secret scan knows every hint the shapes have."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core._preview import _FLAT_KEYS, _Budget, _flat, _shown, preview
from kit_core.redaction import _HINTS, _may_hold_secret_shape, is_secret_key

KEYS = st.one_of(
    st.sampled_from(["query", "region", "limit", "api_key", "Authorization", "x-sig", "author"]),
    st.text(max_size=12),
)
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**250, max_value=2**300),
    st.floats(allow_nan=False),
    st.text(max_size=40),
    st.sampled_from(["sk-" + "a" * 40, "Bearer abc.def.ghi", "token=s3cr3tvalue", "eu"]),
)


@settings(max_examples=300, deadline=None)
@given(
    args=st.dictionaries(KEYS, VALUES, max_size=_FLAT_KEYS),
    secrets=st.sampled_from([(), ("s3cr3tvalue",), ("eu-west",)]),
    limit=st.sampled_from([5, 20, 200]),
)
def test_a_flat_dict_is_shown_as_the_general_walk_shows_it(
    args: dict[str, Any], secrets: tuple[str, ...], limit: int
) -> None:
    walked = _shown(args, secrets, limit, 0, _Budget(limit))
    short = _flat(args, secrets, limit)
    if short is not None:
        assert short == walked
        assert list(short) == list(walked)  # the same order of keys too
    elif len(args) < limit:  # only a big int (shown as its size) leaves the short way
        assert any(type(v) is int and v.bit_length() > 256 for v in args.values())


def test_a_dict_the_short_way_cannot_show_takes_the_general_walk() -> None:
    nested = {"where": {"city": "Oslo"}, "token": "x"}
    assert _flat(nested, (), 200) is None
    assert preview(nested, (), 200) == '{"where": {"city": "Oslo"}, "token": "***"}'
    assert _flat({1: "a"}, (), 200) is None
    many = {f"k{i}": i for i in range(_FLAT_KEYS + 1)}
    assert _flat(many, (), 200) is None
    assert preview({"api_key": "sk-" + "a" * 40, "q": "eu"}, (), 200) == (
        '{"api_key": "***", "q": "eu"}'
    )
    assert is_secret_key("api_key")
    assert not is_secret_key("author")


def test_every_hint_of_a_secret_shape_makes_a_text_scanned() -> None:
    for hint in _HINTS:
        assert _may_hold_secret_shape(f"plain {hint} text"), hint
    for word in ("Bearer", "BASIC", "bearer"):
        assert _may_hold_secret_shape(f"an {word} word")
    assert not _may_hold_secret_shape("query is required (e.g. 'coffee')")
