"""Privacy-safe forms of routes and host results.

A display form keeps the platform and at most the last four characters of every id
segment (numeric or not): ``telegram:-1001234567890:17585`` becomes
``telegram:…7890:…7585``. At least one character of every segment is always hidden.
Host results are scrubbed of the raw ids they echo (``chat_id``, the home-channel
``note``) and passed through kit-core's secret redaction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from kit_core import redact, redact_text

REDACTED: Final = "***"
ELLIPSIS: Final = "…"
KEEP: Final = 4
MIN_SCRUBBED_ID: Final = 4
"""Raw ids at least this long are replaced wherever they appear in host result text;
shorter ones (a thread ``7``) are only masked under their own keys, since replacing
them in free text would garble unrelated numbers."""

_BOT_TOKEN: Final = re.compile(r"(?<![0-9])[0-9]{6,12}:[A-Za-z0-9_-]{30,}")
"""A Telegram bot token, also where kit-core's word-bounded pattern misses it: inside a
Bot API URL (``https://api.telegram.org/bot<token>/sendPhoto``), as client errors print it."""

_ID_KEYS: Final = frozenset({"chat_id", "thread_id", "channel_id", "target", "chat", "to"})


def mask_segment(segment: str) -> str:
    """``-1001234567890`` -> ``…7890``; always hides at least one character."""
    keep = min(KEEP, len(segment) - 1)
    return ELLIPSIS + (segment[-keep:] if keep > 0 else "")


def mask_id(value: str) -> str:
    """An id that may itself hold ``:`` (a Matrix room) with every segment masked."""
    return ":".join(mask_segment(part) for part in value.split(":"))


def mask_route(route: str) -> str:
    """``platform:chat[:thread]`` with every id segment masked; a bare platform is kept."""
    platform, sep, ref = route.partition(":")
    if not sep:
        return platform
    return f"{platform}:{mask_id(ref)}"


def route_ids(ref: str) -> list[str]:
    """The raw id text of a route reference: the whole reference and each segment."""
    ref = ref.strip()
    return [ref, *ref.split(":")] if ref else []


def scrub_host_result(
    result: Mapping[str, Any], raw_ids: Iterable[str], secrets: Iterable[str] = ()
) -> dict[str, Any]:
    """A copy of a host result fit for the model and for logs.

    Values under id keys (``chat_id``, ``thread_id``, ``target``, ...) are masked; every
    raw id (from the route, and those the result itself reports) is masked wherever it
    appears in text; secret keys and secret-shaped values are redacted by kit-core.
    """
    ids = {i.strip() for i in raw_ids if i and i.strip()}
    for key in _ID_KEYS:
        value = result.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool):
            ids |= set(route_ids(str(value)))
    pattern = _id_pattern(ids)
    secret_values = tuple(secrets)
    scrubbed = _scrub(dict(result), pattern, 0)
    return cast("dict[str, Any]", redact(scrubbed, secret_values))


def scrub_text(text: str, raw_ids: Iterable[str], secrets: Iterable[str] = ()) -> str:
    """``text`` with raw ids masked and secrets redacted (for reasons and log lines)."""
    pattern = _id_pattern({i.strip() for i in raw_ids if i and i.strip()})
    masked = pattern.sub(lambda m: mask_segment(m.group(0)), text) if pattern else text
    return redact_secrets(masked, secrets)


def redact_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """kit-core's :func:`redact_text`, plus bot tokens embedded in Bot API URLs."""
    return redact_text(_BOT_TOKEN.sub(REDACTED, text), tuple(secrets))


def _id_pattern(ids: set[str]) -> re.Pattern[str] | None:
    long_ids = sorted((i for i in ids if len(i) >= MIN_SCRUBBED_ID), key=len, reverse=True)
    if not long_ids:
        return None
    # one pass, longest first, so a masked id is never scanned again; an id is matched only
    # where it is not part of a longer run of id characters
    alternation = "|".join(re.escape(i) for i in long_ids)
    return re.compile(rf"(?<![\w@-])(?:{alternation})(?![\w])")


def _scrub(value: Any, pattern: re.Pattern[str] | None, depth: int) -> Any:
    if isinstance(value, str):
        value = _BOT_TOKEN.sub(REDACTED, value)
        return pattern.sub(lambda m: mask_segment(m.group(0)), value) if pattern else value
    if depth > 16:
        return "<max depth>"
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for key, item in cast("Mapping[Any, Any]", value).items():
            if key in _ID_KEYS and isinstance(item, str | int) and not isinstance(item, bool):
                out[key] = mask_route(str(item)) if key == "target" else mask_id(str(item))
            else:
                out[key] = _scrub(item, pattern, depth + 1)
        return out
    if isinstance(value, list | tuple):
        return [_scrub(item, pattern, depth + 1) for item in cast("list[Any]", value)]
    return value
