"""Where to deliver: ``origin``, a platform's home channel, or an explicit chat.

===================================  ====================================================
target                               resolves to
===================================  ====================================================
``"origin"``                         the chat (and thread or topic) of the current turn,
                                     read from hermes' task-local session context
``"<platform>"``                     that platform's home channel, resolved by hermes at
                                     send time (``/sethome`` or ``<PLATFORM>_HOME_CHANNEL``)
``"<platform>:<chat>[:<thread>]"``   that chat, passed to hermes' own target parser
===================================  ====================================================

hermes 0.19.0 has no ``origin`` target of its own: the current chat lives in
ContextVars the gateway binds per message (``gateway/session_context.py``), which the
kit reads through ``get_session_env`` so a plugin never imports gateway internals and
the model never sees a raw chat id. Every resolved target carries a display form that
keeps the platform and at most the last four characters of each id segment. A target
that looks like it holds a secret (a key or token, checked on the text exactly as given)
is refused, and error messages quote targets only redacted and masked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final, Literal

from kit_core import redact_text
from kit_media._host import HostRefusal, session_env
from kit_media._privacy import mask_route
from kit_media.errors import MediaError

__all__ = ["ResolvedDeliveryTarget", "TargetKind", "resolve_delivery_target"]

TargetKind = Literal["origin", "home", "explicit"]

ORIGIN: Final = "origin"
_PLATFORM = re.compile(r"[a-z][a-z0-9_-]*")
_FORMS: Final = "'origin', '<platform>' or '<platform>:<chat>[:<thread>]'"


class OriginUnavailableError(HostRefusal):
    """The current turn has no chat to deliver to (CLI, cron, or outside a turn)."""


@dataclass(frozen=True, slots=True)
class ResolvedDeliveryTarget:
    """A delivery target resolved for hermes' ``send_message``.

    ``requested`` and ``display`` are safe to show to the model and to log;
    ``host_target`` and ``chat_ref`` hold raw ids and are left out of ``repr``.
    """

    requested: str
    """What was asked for: ``origin``, the platform name, or the masked explicit route."""
    display: str
    """Privacy-safe form: ``telegram:…7890:…7585`` or ``telegram (home channel)``."""
    platform: str
    kind: TargetKind
    host_target: str = field(repr=False)
    """The raw ``send_message`` target (``platform`` or ``platform:chat[:thread]``)."""
    chat_ref: str = field(default="", repr=False)
    """The raw ``chat[:thread]`` part; empty for a home channel."""

    def __str__(self) -> str:
        return self.display


def parse_delivery_target(target: object) -> ResolvedDeliveryTarget | None:
    """Check a target's form; ``None`` stands for ``origin`` (resolved later).

    A target that looks like it holds a secret (checked on the text as given, before
    the platform name is lower-cased) is refused without being echoed.

    Raises:
        MediaError: ``target`` is not a str, is blank, holds something secret-shaped, or
            is not one of the three forms.
    """
    if not isinstance(target, str):
        msg = f"delivery target must be a str such as {_FORMS}, got {type(target).__name__}"
        raise MediaError(msg)
    text = target.strip()
    if not text:
        msg = f"delivery target is required: use {_FORMS}"
        raise MediaError(msg)
    if text.lower() == ORIGIN:
        return None
    if redact_text(text) != text:  # the text as given: lower-casing hides some shapes (AKIA…)
        msg = (
            f"delivery target {_shown(text)!r} looks like it holds a secret (a key or"
            f" token, shown as ***), so it was refused and nothing was sent: use {_FORMS}"
        )
        raise MediaError(msg)
    head, sep, ref = text.partition(":")
    platform = head.strip().lower()
    if not _PLATFORM.fullmatch(platform):
        msg = (
            f"delivery target must start with a platform name such as 'telegram', got"
            f" {_shown(text)!r}: use {_FORMS}"
        )
        raise MediaError(msg)
    if not sep:
        return ResolvedDeliveryTarget(
            requested=platform,
            display=f"{platform} (home channel)",
            platform=platform,
            kind="home",
            host_target=platform,
        )
    ref = ref.strip()
    if not ref or any(not part.strip() for part in ref.split(":")) or _has_control(ref):
        msg = (
            f"delivery target {_shown(text)!r} has an empty or malformed chat part:"
            f" use {_FORMS}, or just '{platform}' for its home channel"
        )
        raise MediaError(msg)
    return _chat_target(platform, ref, "explicit")


def resolve_origin() -> ResolvedDeliveryTarget:
    """The current turn's chat from hermes' task-local session context.

    Raises:
        HostUnavailableError: hermes is not importable.
        OriginUnavailableError: this turn has no platform chat (CLI, cron, a slash command).
    """
    platform = session_env("HERMES_SESSION_PLATFORM").lower()
    chat_id = session_env("HERMES_SESSION_CHAT_ID")
    thread_id = session_env("HERMES_SESSION_THREAD_ID")
    if not platform or not chat_id or not _PLATFORM.fullmatch(platform) or _has_control(chat_id):
        msg = (
            "the current hermes session has no platform chat to deliver to: 'origin' is"
            " only known inside a gateway chat turn (not under the CLI, in cron jobs or in"
            " slash commands); pass '<platform>' for its home channel or"
            " '<platform>:<chat>' instead"
        )
        raise OriginUnavailableError(msg)
    ref = f"{chat_id}:{thread_id}" if thread_id and not _has_control(thread_id) else chat_id
    return _chat_target(platform, ref, "origin", requested=ORIGIN)


def resolve_delivery_target(target: str) -> ResolvedDeliveryTarget:
    """Resolve ``origin``, ``<platform>`` or ``<platform>:<chat>[:<thread>]``.

    ``origin`` is read from hermes' task-local session context (the gateway binds it
    for each message; tool handlers inherit it). A home channel is resolved by hermes
    itself when it sends. An explicit route is passed through unchanged.

    Raises:
        MediaError: the target is malformed or looks like it holds a secret (refused
            without echoing it), hermes is not importable (for ``origin``), or the
            current turn has no chat (``origin`` under the CLI or cron).
    """
    parsed = parse_delivery_target(target)
    return resolve_origin() if parsed is None else parsed


def _chat_target(
    platform: str, ref: str, kind: TargetKind, requested: str | None = None
) -> ResolvedDeliveryTarget:
    """The target of route ``platform:ref``; ``requested`` defaults to its masked form."""
    route = f"{platform}:{ref}"
    display = mask_route(route)
    return ResolvedDeliveryTarget(requested or display, display, platform, kind, route, ref)


def _shown(text: str) -> str:
    """A target as an error message may quote it: secret-shaped parts redacted (in the text
    as given, before anything else changes it), then ids masked."""
    return mask_route(redact_text(text))


def _has_control(text: str) -> bool:
    return any(ord(ch) < 32 or ch == "\x7f" for ch in text)
