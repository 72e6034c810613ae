"""What to deliver: a local file and how hermes should send it.

A :class:`MediaPayload` is checked when it is built, so one that exists is deliverable
as far as the kit can tell; hermes still applies its own media policy at send time.

=============  ======================  ==================================================
media type     host directive          what hermes 0.19.0 sends on Telegram
=============  ======================  ==================================================
``AUTO``       none                    by extension: photo, video, ``.mp3``/``.m4a``
                                       audio, anything else as a document
``VOICE``      ``[[audio_as_voice]]``  a voice note (``.ogg``/``.opus`` only)
``DOCUMENT``   ``[[as_document]]``     images as uncompressed files; video and
                                       ``.mp3``/``.m4a`` keep their own method
=============  ======================  ==================================================
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kit_media._checks import (
    IMAGE_SUFFIXES,
    VOICE_SUFFIXES,
    check_caption,
    check_deliverable_file,
    coerce_path,
)
from kit_media._media_tag import DOCUMENT_DIRECTIVE, VOICE_DIRECTIVE, media_line
from kit_media.errors import MediaError

__all__ = ["MediaPayload", "MediaType"]


class MediaType(enum.StrEnum):
    """How hermes should send the file (see the module docstring)."""

    AUTO = "auto"
    VOICE = "voice"
    DOCUMENT = "document"


_DIRECTIVES: Final = {MediaType.VOICE: VOICE_DIRECTIVE, MediaType.DOCUMENT: DOCUMENT_DIRECTIVE}
"""The host directive each media type puts before the ``MEDIA:`` line (``AUTO``: none)."""


def _coerce_media_type(value: object) -> MediaType:
    if isinstance(value, MediaType):
        return value
    if isinstance(value, str):
        try:
            return MediaType(value.strip().lower())
        except ValueError:
            pass
    allowed = ", ".join(f"MediaType.{m.name}" for m in MediaType)
    msg = f"media_type must be one of {allowed} (or their values); got {value!r}"
    raise MediaError(msg)


@dataclass(frozen=True, slots=True, init=False)
class MediaPayload:
    """A local file to deliver, validated when built.

    Args:
        path: absolute path (``~`` is expanded) of an existing, non-empty regular file
            that hermes reads back from the ``MEDIA:`` line as itself: no ``MEDIA:`` or
            ``[[…]]`` directive in it, no trailing character hermes strips (whitespace,
            quotes, a backtick, ``,.;:)}]``), no backtick, and spaces or quotes only
            in a name ending in one of hermes' deliverable extensions, where the part
            before them names no other file (see :mod:`kit_media._media_tag`).
        media_type: a :class:`MediaType` or its value; ``VOICE`` needs ``.ogg``/``.opus``.
        caption: optional text sent with the file (as its caption; hermes sends it as a
            message of its own before a voice note): at most 1024 UTF-16 units, and no
            ``MEDIA:`` tags or ``[[…]]`` directives (hermes would act on them).
        spoiler: send as a Telegram spoiler photo; only for ``AUTO`` images (jpg, jpeg,
            png, webp), and only to Telegram targets.

    Raises:
        MediaError: a rule is broken; the message says which and how to fix it.
    """

    path: Path
    media_type: MediaType
    caption: str
    spoiler: bool

    def __init__(
        self,
        path: str | os.PathLike[str],
        media_type: MediaType | str = MediaType.AUTO,
        *,
        caption: str = "",
        spoiler: bool = False,
    ) -> None:
        resolved = coerce_path(path)
        kind = _coerce_media_type(media_type)
        check_deliverable_file(resolved)
        suffix = resolved.suffix.lower()
        if kind is MediaType.VOICE and suffix not in VOICE_SUFFIXES:
            msg = (
                f"voice media must use an ogg or opus container, got {resolved.name!r}:"
                " convert it to .ogg/.opus, or send it as MediaType.AUTO or DOCUMENT"
            )
            raise MediaError(msg)
        if kind is MediaType.VOICE and os.path.splitext(resolved.name)[1].lower() != suffix:
            # hermes flags a voice note by os.path.splitext's extension, which a name of only
            # dots before it has none of (0.20.0 on: extract_media), so it would send the
            # file as plain audio
            msg = (
                f"voice media {resolved.name!r} has only dots before its extension, and hermes"
                " then reads no extension and sends it as plain audio, not a voice note:"
                " rename it, e.g. to 'voice.ogg'"
            )
            raise MediaError(msg)
        if not isinstance(spoiler, bool):
            msg = f"spoiler must be True or False, got {type(spoiler).__name__}"
            raise MediaError(msg)
        if spoiler and (kind is not MediaType.AUTO or suffix not in IMAGE_SUFFIXES):
            msg = (
                "spoiler media must be an image using jpg, jpeg, png, or webp sent as"
                f" MediaType.AUTO, got {resolved.name!r} as {kind.name}:"
                " drop spoiler=True, or send a supported image"
            )
            raise MediaError(msg)
        object.__setattr__(self, "path", resolved)
        object.__setattr__(self, "media_type", kind)
        object.__setattr__(self, "caption", check_caption(caption))
        object.__setattr__(self, "spoiler", spoiler)

    @property
    def file_name(self) -> str:
        """The file's name without its folder (what the kit's INFO logs show)."""
        return self.path.name

    def to_message(self) -> str:
        """The ``send_message`` text: the caption, the directive, then ``MEDIA:<path>``."""
        lines = (self.caption, _DIRECTIVES.get(self.media_type), media_line(self.path))
        return "\n".join(line for line in lines if line)
