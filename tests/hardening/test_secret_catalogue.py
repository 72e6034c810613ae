"""One vocabulary for keys and text, whole values masked, every shape of the catalogue,
named secrets in every written form, and nothing unredacted on the error paths."""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core import redact, redact_text, str_arg, tool
from kit_core._shapes import KEY_WORDS, catalogue
from kit_core.redaction import is_secret_key

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))
ENV = "HPK_CATALOGUE_KEY"


@pytest.mark.parametrize(
    ("shape", "example"),
    [(s, e) for s in catalogue() for e in s.examples],
    ids=lambda v: getattr(v, "name", None) or str(v)[:30],
)
def test_every_catalogued_shape_is_masked_whole(shape: Any, example: str) -> None:
    """Each example holds the shape (its pattern finds it), and what the pattern calls the
    secret is gone from the redacted text, with the text around it kept."""
    flags = re.ASCII | (re.IGNORECASE if shape.folded else 0)
    found = re.search(shape.pattern, example, flags)
    assert found is not None, f"{shape.name}: its example {example!r} does not hold it"
    secret = found.group("secret") if "secret" in found.re.groupindex else found.group()
    shown = redact_text(f"before {example} after")
    assert secret not in shown, (shape.name, shown)
    assert shown.startswith("before ")
    assert "***" in shown


SEPARATORS = st.sampled_from(["", "-", "_", ".", " "])


@st.composite
def spelled_keys(draw: st.DrawFn) -> str:
    """A key word in any case, with any separator where one may stand, inside a longer key."""
    word = draw(st.sampled_from(KEY_WORDS))
    parts = [
        "".join(c.upper() if draw(st.booleans()) else c for c in part) for part in word.split()
    ]
    spelled = draw(SEPARATORS).join(parts)
    prefix = draw(st.sampled_from(["", "x-", "client_", "X-", "my"]))
    suffix = draw(st.sampled_from(["", "_value", "s", "-v2"]))
    return prefix + spelled + suffix


@HARDENING
@given(key=spelled_keys(), value=st.text("abcdefXYZ0123456789=+/", min_size=6, max_size=30))
def test_one_vocabulary_for_keys_and_text(key: str, value: str, tally: Any) -> None:
    """What masks a dict key's value masks the same pair written into text, whole."""
    assert is_secret_key(key), key
    assert redact({key: value}) == {redact_text(key): "***"}
    for written in (f"{key}={value}", f"{key}: {value}", f'"{key}": "{value} tail"'):
        shown = redact_text(f"error: {written}; next")
        assert value not in shown, (written, shown)
    tally.fuzz("secret key spellings")


@pytest.mark.parametrize("key", ["author", "authority", "Author-Name", "max_tokens_hint"])
def test_keys_that_only_look_alike(key: str) -> None:
    """``author`` and ``authority`` are not secret; ``max_tokens`` holds ``token`` and is."""
    expected = key == "max_tokens_hint"
    assert is_secret_key(key) is expected
    assert ("v4lue" in redact_text(f"{key}=v4lue")) is not expected


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        ("Authorization: Bearer abc=xyz", ["abc", "xyz"]),
        ("Bearer dGhpcyBpcyBhIHRva2Vu==", ["dGhpcyBpcyBhIHRva2Vu"]),
        ("token: c2VjcmV0LXZhbHVlLWhlcmU= done", ["c2VjcmV0LXZhbHVlLWhlcmU"]),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", ["dXNlcjpwYXNzd29yZA"]),
        ("dial postgres://svc:s3cr3t-pw@db:5432/app", ["s3cr3t-pw", "svc:"]),
        ("GET /v1?key=AbCdEf123456&lang=en", ["AbCdEf123456"]),
        ("GET /v1?lang=en&token=AbCdEf123456", ["AbCdEf123456"]),
        ("GET /v1?access_token=AbCdEf123456", ["AbCdEf123456"]),
        ("GET /v1?api_key=AbCdEf123456#top", ["AbCdEf123456"]),
        ("slack xapp-1-A0123456789-1234567890123-abcdef0123", ["A0123456789"]),
        ("id tokensk-AbC123defGHI456jklMNO789", ["AbC123defGHI456"]),
        ("env KEY_ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123", ["aBcDeFgHiJkLmNoPqRsT"]),
        ("url /bot123456789%3AAAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/send", ["HdqTcvCH1vGWJxfSeo"]),
        ("X-API-KEY=Zq8pL2mN7vB4", ["Zq8pL2mN7vB4"]),
        ("{'credentials': 'two words here'}", ["two words here"]),
        ("cookie: sid=abc123; theme=dark", ["abc123", "dark"]),
        ("passphrase=correct-horse", ["correct-horse"]),
        ("pwd=Tr0ub4dor", ["Tr0ub4dor"]),
        (
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGZ0c2VjcmV0\n"
            "-----END PGP PRIVATE KEY BLOCK-----",
            ["lQOYBGZ0c2VjcmV0"],
        ),
        ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk (cut)", ["b3BlbnNzaC1rZXk"]),
    ],
)
def test_review_findings_are_masked(text: str, gone: list[str]) -> None:
    shown = redact_text(text)
    for piece in gone:
        assert piece not in shown, shown


@HARDENING
@given(
    secret=st.text(min_size=8, max_size=40).filter(
        lambda s: any(c in s for c in "\\\t\n'\"%&/ ") and s.strip()
    )
)
def test_named_secrets_in_every_written_form(secret: str, tally: Any) -> None:
    """A ``requires_env`` value is found as repr, KeyError, JSON and URLs write it."""
    written = [
        repr(secret),
        str(KeyError(secret)),
        f"{secret!r} and {[secret]!r}",
        json.dumps({"v": secret}),
        json.dumps(secret, ensure_ascii=False),
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
    ]
    for text in written:
        shown = redact_text(f"failed: {text}", (secret,))
        form_core = text.strip("'\"[]{}").replace('"v": ', "").strip('"')
        assert secret not in shown
        if len(form_core) >= 8 and form_core not in "failed: ":
            assert form_core not in shown, (text, shown)
    tally.fuzz("named secret forms")


# -- the tool paths: non-JSON arguments and the not-serializable message ---------------------


@dataclass
class Report:
    title: str

    def __getattribute__(self, name: str) -> Any:
        if name == "title":
            raise ValueError(f"cannot read the title with {os.environ[ENV]} sk-{'Q1w' * 8}")
        return object.__getattribute__(self, name)


@tool(
    toolset="hardening",
    name="catalogue_report",
    requires_env=[ENV],
    params={"q": str_arg("Query", required=True)},
)
def catalogue_report(args: dict[str, Any], **kwargs: Any) -> object:
    """Returns a value whose encoding fails quoting secrets."""
    return Report("t")


def test_not_serializable_message_is_redacted(
    monkeypatch: pytest.MonkeyPatch, capture: Any, no_leaks: Any
) -> None:
    monkeypatch.setenv(ENV, "svc-value-9f8e7d6c5b4a")
    with capture() as logs:
        answer = catalogue_report({"q": "x"})
    body = json.loads(answer)
    assert body["error_code"] == "result_not_serializable"
    assert "svc-value-9f8e7d6c5b4a" not in answer
    assert "Q1wQ1wQ1w" not in answer
    assert "***" in body["error"]
    no_leaks(logs, [answer], path="result not serializable")


@pytest.mark.parametrize(
    "wrap",
    [
        lambda s: {s, "other"},
        lambda s: s.encode(),
        lambda s: bytearray(s.encode()),
        lambda s: frozenset({s}),
        lambda s: type("Opaque", (), {"__repr__": lambda self: f"Opaque({s})"})(),
    ],
    ids=["set", "bytes", "bytearray", "frozenset", "object"],
)
def test_non_json_argument_values_are_redacted_in_the_rejection_line(
    wrap: Any, monkeypatch: pytest.MonkeyPatch, capture: Any, corpus: list[Any]
) -> None:
    monkeypatch.setenv(ENV, "svc-value-9f8e7d6c5b4a")
    planted = [s for s in corpus if s.where == "anywhere"] + [
        type(corpus[0])("env", "svc-value-9f8e7d6c5b4a", "svc-value-9f8e7d6c5b4a")
    ]
    for secret in planted:
        logger = logging.getLogger(__name__)
        with capture(logger.name) as logs:
            answer = catalogue_report({"q": wrap(secret.text)})  # q must be a string
        assert json.loads(answer)["error_code"] == "invalid_argument"
        for text in [*logs.texts(), answer]:
            for window in secret.windows():
                assert window not in text, (secret.kind, text[:300])
