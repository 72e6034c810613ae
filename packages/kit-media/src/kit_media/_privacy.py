"""Privacy-safe forms of routes and of whatever the host says.

**One masking.** A masked id keeps at most the last four characters of every ``:``
segment and always hides at least one: ``telegram:-1001234567890:17585`` is shown as
``telegram:…7890:…7585``. Routes, values under id keys and ids found in text all get
exactly this masking (:func:`mask_id`, :func:`mask_route`).

**Host text.** Everything the host (or Telegram, or a ``pre_tool_call`` policy) says is
treated as if it named chats the caller never gave: a home channel's id in
``send_message``'s ``note``, the new chat id in a Telegram "Group migrated to
supergroup. New chat id: …" error, a user in a Matrix error. So, besides the raw ids the
kit itself knows (the route's, and those the reply reports under its id keys), every
*id-shaped* token in host text is masked:

=================  ==========================================================  ============
shape              examples                                                    becomes
=================  ==========================================================  ============
number             ``-1001234567890``, ``+15551234567``, a Discord snowflake   ``…7890``
(5+ digits)
address            ``alice@example.org``, ``15551234567@s.whatsapp.net``       ``….org``
sigil id           ``!room:matrix.org``, ``@bot:matrix.org``, ``#a:b.org``     ``…room:….org``
handle             ``@my_channel``                                             ``…nnel``
opaque id          ``C024BE91L`` (Slack), ``oc_5ad5…`` (Feishu), a UUID:        ``…E91L``
                   9+ letters, digits, ``_`` or ``-`` with 2+ digits and a letter
=================  ==========================================================  ============

Values under id keys (``chat_id``, ``target``, any ``*_id`` key) are masked whole, and so
is an integer of five or more digits anywhere. ``message_id`` is kept: it names a message,
not a chat, and ``send_message``'s ``react`` action needs it. Secrets are redacted
*before* ids are masked, so masking never breaks a secret's shape (a bot token's numeric
part) and lets the rest through.
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
"""Raw ids the kit knows are replaced wherever they appear in text when at least this long;
shorter ones (a thread ``7``) are only masked under their own keys, since replacing them
in free text would garble unrelated numbers."""

_ID_KEYS: Final = frozenset({"chat_id", "thread_id", "channel_id", "target", "chat", "to"})
_KEPT_KEYS: Final = frozenset({"message_id", "message_ids"})
_MIN_ID_INT: Final = 10_000
"""Integers at least this large (five digits) are id-shaped wherever they stand."""

_ID_SHAPES: Final = re.compile(
    "|".join(
        (
            r"(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++",  # address: e-mail, XMPP, JID
            r"(?<![\w@])[!@#$+][\w.=/+-]++:[\w-]++(?:\.[\w-]++)++(?::\d++)?+",  # sigil id
            r"(?<![\w@])@\w{4,32}(?![\w@])",  # handle
            r"(?<![\w.+-])[-+]?\d{5,}+(?!\w)",  # number
            r"(?<![\w-])(?=[\d-]*+[^\W\d])(?=(?:[^\W\d]|-)*+\d(?:[^\W\d]|-)*+\d)"
            r"[\w-]{9,}+(?![\w-])",  # opaque: 9+ characters, a letter and two digits
        )
    )
)


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


def mask_ids_in_text(text: str) -> str:
    """``text`` with every id-shaped token masked (see the module docstring)."""
    return _ID_SHAPES.sub(lambda m: mask_id(m.group(0)), text)


def scrub_host_result(
    result: Mapping[str, Any], raw_ids: Iterable[str], secrets: Iterable[str] = ()
) -> dict[str, Any]:
    """A copy of a host result fit for the model and for logs.

    Secret keys and secret-shaped values are redacted (kit-core); then values under id
    keys are masked whole, and in every string (keys included) the raw ids the kit knows
    (from the route, and those the result itself reports under id keys) and every
    id-shaped token are masked.
    """
    ids = _known(raw_ids)
    for key, value in result.items():
        if _is_id_value(key, value):
            ids |= set(route_ids(str(value)))
    redacted = cast("dict[str, Any]", redact(dict(result), tuple(secrets)))
    return cast("dict[str, Any]", _scrub(redacted, _id_pattern(ids), 0))


def scrub_text(text: str, raw_ids: Iterable[str] = (), secrets: Iterable[str] = ()) -> str:
    """``text`` with secrets redacted, then known raw ids and id-shaped tokens masked."""
    return _mask_text(redact_text(text, tuple(secrets)), _id_pattern(_known(raw_ids)))


def _known(raw_ids: Iterable[str]) -> set[str]:
    return {i.strip() for i in raw_ids if i and i.strip()}


def _is_id_value(key: object, value: object) -> bool:
    """Whether ``value`` is an id held under an id key (masked whole)."""
    if not isinstance(key, str) or key in _KEPT_KEYS or isinstance(value, bool):
        return False
    return isinstance(value, str | int) and (key in _ID_KEYS or key.endswith(("_id", "_ids")))


def _id_pattern(ids: set[str]) -> re.Pattern[str] | None:
    long_ids = sorted((i for i in ids if len(i) >= MIN_SCRUBBED_ID), key=len, reverse=True)
    if not long_ids:
        return None
    # one pass, longest first, so a masked id is never scanned again; an id is matched only
    # where it is not part of a longer run of id characters
    alternation = "|".join(re.escape(i) for i in long_ids)
    return re.compile(rf"(?<![\w@-])(?:{alternation})(?![\w])")


def _mask_text(text: str, known: re.Pattern[str] | None) -> str:
    """Known raw ids first, then id shapes; a masked id (``…7890``) matches no shape."""
    if known is not None:
        text = known.sub(lambda m: mask_segment(m.group(0)), text)
    return mask_ids_in_text(text)


def _scrub(value: Any, known: re.Pattern[str] | None, depth: int) -> Any:
    if isinstance(value, str):
        return _mask_text(value, known)
    if isinstance(value, int) and not isinstance(value, bool):
        return mask_id(str(value)) if abs(value) >= _MIN_ID_INT else value
    if depth > 16:
        return "<max depth>"
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for key, item in cast("Mapping[Any, Any]", value).items():
            shown = _mask_text(key, known) if isinstance(key, str) else key
            if key in _KEPT_KEYS and isinstance(item, str | int):
                out[shown] = item
            elif _is_id_value(key, item):
                out[shown] = mask_route(str(item)) if key == "target" else mask_id(str(item))
            else:
                out[shown] = _scrub(item, known, depth + 1)
        return out
    if isinstance(value, list | tuple):
        return [_scrub(item, known, depth + 1) for item in cast("list[Any]", value)]
    return value
