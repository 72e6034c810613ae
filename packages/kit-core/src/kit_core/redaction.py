"""Redaction: what keeps secrets out of log lines and error envelopes.

Three rules, applied together:

* a dict key that holds one of the secret key words (``token``, ``secret``,
  ``password``, ``passwd``, ``passphrase``, ``pwd``, ``api key``, ``auth``,
  ``credential``, ``private key``, ``bearer``, ``cookie``, ``access key``, ``account
  key``, ``subscription key``; compared in any case and with ``-``, ``_``, ``.`` and
  spaces ignored, so ``X-API-Key`` and ``apiKey`` count; ``author`` and ``authority`` do
  not), and a key that is ``sig`` or ends in ``signature``, has its value replaced by
  ``***``, at any depth of dicts, lists and tuples;
* in text, the value after such a key (``password=…``, ``"api_key": "…"``,
  ``Authorization: Bearer …``) and every secret shape of the catalogue in
  :mod:`kit_core._shapes` (provider keys, JWTs, bearer and Basic credentials, URL
  credentials, secret query parameters, private key blocks, bot tokens) is replaced,
  the whole value, by ``***``;
* every value the caller names as secret (the kit names the values of a tool's
  ``requires_env`` variables) is replaced wherever it stands, also as ``repr``, JSON
  and percent-encoding write it.

Finding them is linear in the text (see :mod:`kit_core._shapes`), and
:func:`redact_preview` bounds the work of one call by cutting first, safely.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from kit_core._shapes import AUTH_NOT_AUTHOR, KEY_WORDS, merge_spans, secret_spans

__all__ = ["REDACTED", "is_secret_key", "redact", "redact_preview", "redact_text"]

REDACTED: Final = "***"
ELLIPSIS: Final = "…"

MIN_SECRET_LENGTH: Final = 4
"""Named secret values shorter than this are not searched for (they would match everywhere)."""

CUT_MARGIN: Final = 256
"""How far past a preview's cut :func:`redact_preview` reads, so a secret cut by it is
still recognised."""

_KEY_NOISE: Final = str.maketrans("", "", "-_. ")
_HINTS: Final = ("-", "_", ":", "=", "%", "eyJ", "AKIA", "ASIA", "AIza", "ya29", "SG.")
_MAX_DEPTH: Final = 32


def is_secret_key(key: object) -> bool:
    """Whether a mapping key names something secret (its value is never shown)."""
    if not isinstance(key, str):
        return False
    return _is_secret_name(key)


@functools.lru_cache(maxsize=1024)
def _is_secret_name(key: str) -> bool:
    """:func:`is_secret_key` of a ``str`` (the same few keys come back in every call)."""
    plain = key.lower().translate(_KEY_NOISE)
    if plain == "sig" or plain.endswith("signature"):  # sig, x-amz-signature
        return True
    return _secret_key().search(plain) is not None


@functools.cache
def _secret_key() -> re.Pattern[str]:
    """The key words as one pattern, compiled on first use (logging a call), not at import."""
    return re.compile(
        "|".join(AUTH_NOT_AUTHOR if w == "auth" else w.replace(" ", "") for w in KEY_WORDS)
    )


def _may_hold_secret_shape(text: str) -> bool:
    """Whether ``text`` holds something every secret shape has (one of :data:`_HINTS`, or
    ``bearer`` or ``basic`` in any case); a text without any is returned as it is, without
    scanning it. Written out, not a loop over the hints: every logged text pays it."""
    if (
        "-" in text or "_" in text or ":" in text or "=" in text or "%" in text
        or "eyJ" in text or "AKIA" in text or "ASIA" in text or "AIza" in text
        or "ya29" in text or "SG." in text
    ):  # fmt: skip
        return True
    lowered = text.lower()
    return "bearer" in lowered or "basic" in lowered


@functools.lru_cache(maxsize=256)
def _written_forms(secret: str) -> tuple[str, ...]:
    """``secret`` as text may hold it: as it is, as ``repr`` and ``json.dumps`` escape
    it (inside the quotes), and percent-encoded; longest first."""
    import json
    from urllib.parse import quote, quote_plus

    forms = {
        secret,
        repr(secret)[1:-1],
        repr(secret + '"')[1:-2],  # repr's other quoting: ' escaped
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
    }
    return tuple(sorted(forms, key=len, reverse=True))


def named_forms(secrets: Iterable[str]) -> list[str]:
    """Every written form of every named secret long enough to look for."""
    forms: list[str] = []
    for secret in secrets:
        if isinstance(secret, str) and len(secret) >= MIN_SECRET_LENGTH:
            forms.extend(_written_forms(secret))
    return forms


def _spans(text: str, forms: list[str]) -> list[tuple[int, int]]:
    """Sorted, merged spans of ``text`` to mask: named secrets and secret shapes."""
    spans = secret_spans(text) if _may_hold_secret_shape(text) else []
    named: list[tuple[int, int]] = []
    for form in forms:
        at = text.find(form)
        while at >= 0:
            named.append((at, at + len(form)))
            at = text.find(form, at + len(form))
    if not named:
        return spans
    return merge_spans([*spans, *named])


def _render(text: str, spans: list[tuple[int, int]], stop: int) -> str:
    """``text`` up to position ``stop`` with every span replaced by ``***`` (a span that
    reaches past ``stop`` is shown as ``***`` and ends the text)."""
    if spans and spans[-1][0] >= stop:
        spans = spans[: bisect.bisect_left(spans, (stop, 0))]
    if not spans:
        return text[:stop]
    starts = [start for start, _ in spans]
    ends = [end for _, end in spans]
    starts.append(stop)
    ends.insert(0, 0)
    return REDACTED.join([text[a:b] for a, b in zip(ends, starts, strict=True)])


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace every named secret value and every secret-shaped substring with ``***``."""
    return _redacted(text, named_forms(secrets) if secrets else [])


def _redacted(text: str, forms: list[str]) -> str:
    if not forms and not _may_hold_secret_shape(text):
        return text
    return _render(text, _spans(text, forms), len(text))


def redact_preview(text: str, limit: int, secrets: Iterable[str] = ()) -> str:
    """``text`` redacted and cut to at most ``limit`` characters of it (``…`` marks a cut).

    Only the first ``limit`` + :data:`CUT_MARGIN` characters (plus the length of the
    longest named secret) are read, so the work is bounded whatever the size of
    ``text``. A secret that the cut goes through is recognised in the characters past
    the cut and shown as ``***``, never in part.
    """
    forms = named_forms(secrets) if secrets else []
    if len(text) <= limit:
        return _redacted(text, forms)
    window = text[: limit + CUT_MARGIN + max((len(f) for f in forms), default=0)]
    return _render(window, _spans(window, forms), limit) + ELLIPSIS


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A redacted copy of ``value`` fit for a log line.

    Secret keys are masked at any depth; strings are passed through
    :func:`redact_text`; tuples become lists; other scalars are kept.
    """
    return _redact(value, tuple(secrets), 0)


def _redact(value: Any, secrets: tuple[str, ...], depth: int) -> Any:
    if isinstance(value, str):
        return redact_text(value, secrets)
    if depth >= _MAX_DEPTH:
        return "<max depth>"
    cls = value.__class__
    if cls is int or cls is float or cls is bool or value is None:
        return value  # told apart by class before the slower ABC tests
    if cls is dict or isinstance(value, Mapping):
        items = cast("Mapping[Any, Any]", value).items()
        return {
            (redact_text(k, secrets) if isinstance(k, str) else k): (
                REDACTED if is_secret_key(k) else _redact(v, secrets, depth + 1)
            )
            for k, v in items
        }
    if isinstance(value, list | tuple):
        return [_redact(v, secrets, depth + 1) for v in cast("list[Any]", value)]
    return value
