"""How a refused call is worded.

The :class:`Rejection` a check returns (its code, argument and message), the quoting of
what arrived (:func:`describe_value`, :func:`short_name`, :func:`render_example`), the
hints for a misspelt or missing name (:func:`did_you_mean`, :func:`sent_instead` …) and
the one message of a call with several errors (:func:`combined`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from kit_core._json_types import NAME_OF_VALUE
from kit_core.redaction import redact_preview

__all__ = [
    "ECHO_CHARS",
    "EXTRA_CHARS",
    "INVALID",
    "MAX_LISTED",
    "MISSING",
    "Problem",
    "Rejection",
    "accepted",
    "combined",
    "describe_value",
    "did_you_mean",
    "render_example",
    "sent_instead",
    "sent_instead_and_key",
    "short_name",
    "suggest",
]

MISSING: Final = "missing_argument"
INVALID: Final = "invalid_argument"
ECHO_CHARS: Final = 40
"""The most of anything the caller sent (a value, an unknown key) that an error quotes."""


Problem = tuple[str, str, str, str]
"""One argument error: its JSON path (``filters.tags[2]``), the rule it breaks (the JSON
Schema keyword: ``required``, ``type``, ``minimum`` …, or ``unknown``), its message, and a
tail the message shares with others (``This tool accepts: …``), written once."""

MAX_LISTED: Final = 5
"""The most errors a rejection spells out; the rest are named in a summary."""
EXTRA_CHARS: Final = 800
"""The most characters a rejection's message adds after its first error."""


class Rejection:
    """Why a call was refused before its handler ran: the first error (``message``, the
    text a one-error call has always had) and, when the call has several, each listed
    one as ``(argument path, rule, message)`` in ``errors`` (the first one first)."""

    __slots__ = ("argument", "code", "errors", "listed_reason", "message")

    def __init__(
        self,
        code: str,
        argument: str,
        message: str,
        errors: tuple[tuple[str, str, str], ...] = (),
        listed_reason: str = "",
    ) -> None:
        self.code = code
        self.argument = argument
        self.message = message
        self.errors = errors
        self.listed_reason = listed_reason

    def __repr__(self) -> str:
        return (
            f"Rejection(code={self.code!r}, argument={self.argument!r}, message={self.message!r})"
        )

    @property
    def reason(self) -> str:
        """A short log phrase, e.g. ``missing thread_id`` (``missing thread_id, invalid
        limit`` for several errors)."""
        return (
            self.listed_reason
            or f"{'missing' if self.code == MISSING else 'invalid'} {self.argument}"
        )


def describe_value(value: Any, secret: bool = False) -> str:
    """How an arrived value is quoted in an error: its JSON type and a short preview."""
    cls: type[object] = type(value)  # pyright: ignore[reportUnknownVariableType]
    kind = NAME_OF_VALUE.get(cls) or cls.__name__
    if secret:
        return f"{kind} (value hidden)"
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        if isinstance(value, str):
            # cut before repr: the work and the quote are bounded whatever the size
            return f"{kind} {redact_preview(repr(value[: 2 * ECHO_CHARS]), ECHO_CHARS)}"
        try:
            preview = repr(value)
        except ValueError:  # an int too long to print (sys.get_int_max_str_digits)
            return f"{kind} of {value.bit_length()} bits" if isinstance(value, int) else kind
        return f"{kind} {redact_preview(preview, ECHO_CHARS)}"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return kind


def short_name(key: object) -> str:
    """An argument name the caller sent, as an error or log line may show it: cut short
    and redacted."""
    name = key if isinstance(key, str) else str(key)
    return redact_preview(name[: 2 * ECHO_CHARS], ECHO_CHARS)


def render_example(value: Any) -> str:
    """An example as the model reads it: strings quoted as Python does, the rest as JSON."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def did_you_mean(name: str, known: list[str]) -> str:
    """``; did you mean 'x'?`` for an unknown key spelt close to a known one, else ``.``"""
    import difflib  # here, not at import: only a refused call needs it

    close = difflib.get_close_matches(name[: 2 * ECHO_CHARS], known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else "."


def accepted(known: list[str]) -> str:
    """`` This tool accepts: a, b``: the names an unknown key is told of."""
    return f" This tool accepts: {', '.join(known)}" if known else " This tool accepts no arguments"


def suggest(name: str, known: list[str]) -> str:
    """A did-you-mean phrase for an unknown key, plus the accepted names."""
    return did_you_mean(name, known) + accepted(known)


def sent_instead(missing: str, args: Mapping[Any, Any], known: frozenset[str]) -> str:
    """A did-you-mean for a missing argument when the call sent an unknown one spelt
    close to it (``minuts`` for ``minutes``), else ``""``. Only a refused call asks."""
    return sent_instead_and_key(missing, args, known)[0]


def sent_instead_and_key(
    missing: str, args: Mapping[Any, Any], known: frozenset[str]
) -> tuple[str, Any]:
    """:func:`sent_instead`'s phrase and the unknown key it names (None without one)."""
    if known.issuperset(args):  # the common case, without a loop
        return "", None
    unknown = [k for k in args if k.__class__ is str and k not in known]
    if not unknown:
        return "", None
    import difflib  # here, not at import: only a refused call needs it

    by_cut = {k[: 2 * ECHO_CHARS]: k for k in unknown}
    close = difflib.get_close_matches(missing, list(by_cut), n=1, cutoff=0.75)
    if not close:
        return "", None
    sent = by_cut[close[0]]
    return f"; got {short_name(sent)!r} instead: did you mean {missing!r}?", sent


def combined(first: Rejection, found: list[Problem]) -> Rejection:
    """``first`` (the first error, as the check found it) with the others ``found``: the
    message keeps ``first``'s text first and adds each other error (``" | "`` between),
    at most :data:`MAX_LISTED` in all and :data:`EXTRA_CHARS` more characters; those past
    either are named in a summary (``and 7 more: a, b, c``)."""
    head = next((p for p in found if p[2] + p[3] == first.message), None)
    rest = [p for p in found if p is not head]
    if not rest:
        return first
    path, rule = (head[0], head[1]) if head else (first.argument, "invalid")
    listed = [(path, rule, first.message)]
    parts = [first.message]
    told = {p[3] for p in found if p[3] and p[3] in first.message}
    budget = EXTRA_CHARS
    left = 0
    for index, (where, why, text, tail) in enumerate(rest):
        if tail and tail not in told:
            text += tail
        piece = f" | {text}"
        if len(listed) >= MAX_LISTED or len(piece) > budget - 40:  # room for the summary
            left = index
            break
        told.add(tail)
        budget -= len(piece)
        listed.append((where, why, text))
        parts.append(piece)
    else:
        left = len(rest)
    unlisted = rest[left:]
    if unlisted:
        names = list(dict.fromkeys(p[0] for p in unlisted))
        summary = f" | and {len(unlisted)} more: "
        shown: list[str] = []
        for name in names:
            if len(summary) + len(", ".join([*shown, name])) + 2 > budget:
                break
            shown.append(name)
        summary += ", ".join(shown) + (" …" if len(shown) < len(names) else "")
        parts.append(summary)
    reason = ", ".join(
        [
            first.reason,
            *(
                f"{'missing' if why == 'required' else 'invalid'} {where}"
                for where, why, _ in listed[1:]
            ),
        ]
    )
    if unlisted:
        reason += f" and {len(unlisted)} more"
    return Rejection(first.code, first.argument, "".join(parts), tuple(listed), reason)
