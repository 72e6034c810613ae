"""Rules a media payload must meet, shared by payload construction and delivery.

The rules about what hermes does with the ``MEDIA:`` line itself (directives, the
characters it strips, the paths it would read as another file) are in
:mod:`kit_media._media_tag`; :func:`check_deliverable_file` applies them too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final, cast

from kit_media._media_tag import check_tag_path, held_directive
from kit_media.errors import MediaError

VOICE_SUFFIXES: Final = frozenset({".ogg", ".opus"})
"""Containers Telegram plays as a voice note (``send_message_tool.py`` ``_VOICE_EXTS``)."""

IMAGE_SUFFIXES: Final = frozenset({".jpg", ".jpeg", ".png", ".webp"})
"""Images Telegram accepts as a (spoiler) photo."""

CAPTION_LIMIT: Final = 1024
"""Telegram's caption limit in UTF-16 code units; a longer text would go out as a separate
message (``send_message_tool.py`` ``_TELEGRAM_CAPTION_LIMIT`` and ``_media_caption_split``)."""


def coerce_path(value: object) -> Path:
    """An absolute path (``~`` expanded) that hermes' ``MEDIA:`` tag can carry."""
    if not isinstance(value, str | os.PathLike):
        msg = f"media path must be a str or a path, got {type(value).__name__}"
        raise MediaError(msg)
    try:
        text: str | bytes = os.fspath(cast("str | os.PathLike[str] | os.PathLike[bytes]", value))
    except Exception as exc:  # a path-like object whose __fspath__ fails or returns no path
        given = type(cast(object, value)).__name__
        msg = f"media path {given} gave no path ({type(exc).__name__}): pass a str"
        raise MediaError(msg) from exc
    if not isinstance(text, str) or not text.strip():
        msg = "media path is empty: pass the absolute path of the file to send"
        raise MediaError(msg)
    if any(ch in text for ch in "\n\r\x00"):
        msg = (
            "media path contains a line break or NUL character, which hermes' MEDIA: tag"
            " cannot carry: rename the file"
        )
        raise MediaError(msg)
    path = Path(os.path.expanduser(text))
    if not path.is_absolute():
        msg = (
            f"media path must be absolute, got {text!r}: pass an absolute path"
            " (for example Path(...).resolve())"
        )
        raise MediaError(msg)
    return path


def check_deliverable_file(path: Path, *, at_delivery: bool = False) -> None:
    """Raise :class:`MediaError` unless ``path`` is an existing, non-empty regular file
    that hermes reads back from ``MEDIA:<path>`` as itself (:mod:`kit_media._media_tag`;
    ``at_delivery``: see :func:`kit_media._media_tag.check_tag_path`)."""
    try:
        if not path.exists():
            msg = f"media file {path.name!r} does not exist ({path}): create it before delivery"
            raise MediaError(msg)
        if not path.is_file():
            msg = f"media path {path.name!r} is not a regular file ({path}): pass a file"
            raise MediaError(msg)
        empty = path.stat().st_size == 0
    except OSError as exc:
        msg = (
            f"media file {path.name!r} cannot be read ({type(exc).__name__}): check its permissions"
        )
        raise MediaError(msg) from exc
    if empty:
        msg = f"media file {path.name!r} is empty: messaging platforms refuse empty files"
        raise MediaError(msg)
    check_tag_path(path, at_delivery=at_delivery)


def check_caption(value: object) -> str:
    """The stripped caption, or :class:`MediaError` when hermes could not send it as one."""
    if not isinstance(value, str):
        msg = f"caption must be a str, got {type(value).__name__}"
        raise MediaError(msg)
    caption = value.strip()
    if held_directive(caption) is not None:
        msg = (
            "caption must not contain MEDIA: tags or [[audio_as_voice]]/[[as_document]]"
            " directives (hermes would act on them): set media_type instead, and deliver"
            " each file with its own payload"
        )
        raise MediaError(msg)
    try:
        units = len(caption.encode("utf-16-le")) // 2  # the unit Telegram counts in
    except UnicodeEncodeError:
        msg = "caption holds an unpaired surrogate, which is not text: remove it"
        raise MediaError(msg) from None
    if units > CAPTION_LIMIT:
        msg = (
            f"caption is {units} UTF-16 units long; Telegram allows"
            f" {CAPTION_LIMIT}: shorten it, or send the text as a message of its own"
        )
        raise MediaError(msg)
    return caption
