"""Redaction: what keeps secrets out of log lines and error envelopes.

Two rules, applied together:

* a dict key that looks secret (it contains ``token``, ``secret``, ``password``,
  ``passwd``, ``api_key``, ``apikey`` or ``auth``, also ``credential``,
  ``private_key``, ``bearer`` or ``cookie``; ``author`` and ``authority`` are not
  secret) has its value replaced by ``***``, at any depth of dicts, lists and tuples;
* a value shaped like a secret (a bearer token, a JWT, a provider key such as
  ``sk-…``, ``ghp_…``, ``xoxb-…``, ``AKIA…``, ``AIza…``, a Telegram bot token, a
  PEM private key, or ``password=…`` written into text) is replaced by ``***``
  wherever it stands, and so is every exact value the caller names as secret
  (the kit names the values of a tool's ``requires_env`` variables).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

__all__ = ["REDACTED", "is_secret_key", "redact", "redact_text"]

REDACTED: Final = "***"

MIN_SECRET_LENGTH: Final = 4
"""Named secret values shorter than this are not searched for (they would match everywhere)."""

_SECRET_KEY = re.compile(
    r"token|secret|passw(?:or)?d|api_?key|auth(?!or(?!i[sz]))|credential|private_?key|bearer|cookie"
)

_SECRET_VALUE_PATTERN: Final = "|".join(
    (
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)",
        r"(?i:\bbearer\s+)[A-Za-z0-9\-._~+/]{8,}=*",
        r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*",
        r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}",
        r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}",
        r"\bgh[pousr]_[A-Za-z0-9]{20,}",
        r"\bgithub_pat_[A-Za-z0-9_]{20,}",
        r"\bglpat-[A-Za-z0-9_-]{16,}",
        r"\bxox[abposr]-[A-Za-z0-9-]{10,}",
        r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
        r"\bAIza[0-9A-Za-z_-]{30,}",
        r"\bhf_[A-Za-z0-9]{20,}",
        r"(?<![0-9])\d{6,12}:AA[A-Za-z0-9_-]{30,}",
        r"(?i:(?<![A-Za-z0-9])(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secret"
        r"|password|passwd|pwd)[\"']?\s*[:=]\s*[\"']?)[^\s\"',;&]{3,}",
    )
)
# Every branch above starts with one of these characters ("\u017f", the long s, matches
# "s" under (?i)). Testing for it first lets the engine skip most positions of a text
# instead of trying every branch at each: about three times faster, same matches.
_FIRST_CHARACTERS: Final = r"(?=[-\dABPSTabeghprstx\u017f])"


def _may_hold_secret_value(text: str) -> bool:
    """Whether ``text`` holds something every secret-shaped value has: a text without any
    of these is returned as it is, without running the pattern over it."""
    return (
        "-" in text
        or "_" in text
        or ":" in text
        or "=" in text
        or "eyJ" in text
        or "AKIA" in text
        or "ASIA" in text
        or "AIza" in text
        or "bearer" in text.lower()
    )


@functools.cache
def _secret_values() -> re.Pattern[str]:
    """The secret-value pattern, compiled on first use: only log lines and error
    envelopes need it, so importing the kit does not pay for it."""
    return re.compile(f"{_FIRST_CHARACTERS}(?:{_SECRET_VALUE_PATTERN})")


_MAX_DEPTH: Final = 32


def is_secret_key(key: object) -> bool:
    """Whether a mapping key names something secret (its value is never shown)."""
    return isinstance(key, str) and _SECRET_KEY.search(key.lower()) is not None


def _mask(match: re.Match[str]) -> str:
    text = match.group(0)
    # keep the "password=" / "Bearer " part so a reader still sees what was hidden
    for sep in ("=", ":", " "):
        head, found, _ = text.partition(sep)
        if found and not text.startswith("-----") and len(head) < 24 and "." not in head:
            return head + found + REDACTED
    return REDACTED


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace secret-shaped substrings and every named secret value with ``***``."""
    for secret in secrets:
        if len(secret) >= MIN_SECRET_LENGTH and secret in text:
            text = text.replace(secret, REDACTED)
    if not _may_hold_secret_value(text):
        return text
    return _secret_values().sub(_mask, text)


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
