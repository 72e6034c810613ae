"""How hermes reads the kit's ``MEDIA:`` line back, and the paths it would misread.

The kit sends a file as the last line of a ``send_message`` message, ``MEDIA:<path>``,
after the caption and a ``[[…]]`` directive. hermes does not take that path verbatim:
``send_message`` checks the whole message for ``[[as_document]]``, then
``gateway.platforms.base.BasePlatformAdapter.extract_media`` looks for
``[[audio_as_voice]]`` anywhere in the message, blanks text between backticks and finds
paths with two patterns: one for paths ending in a deliverable extension
(``MEDIA_TAG_CLEANUP_RE``, the extensions ``MEDIA_DELIVERY_EXTS``), and one for any other
path, which ends at the first whitespace or quote (``MEDIA_EXTENSIONLESS_TAG_RE``) and runs
over every tag too. Each path is then trimmed by ``_normalize_media_tag_path``. (Where
each is in each release: docs/hermes-sources.md.)

So a path that satisfies the kit's checks can still make hermes send a different file,
send it another way, or send a second one. Such a path is refused with a
:class:`~kit_media.MediaError` naming the rule and the fix, when the payload is built
and again at delivery:

=========================================  ==============================================
the path                                   what hermes 0.19.0 would do
=========================================  ==============================================
holds ``MEDIA:`` (any case),               act on it: send every file of the message as
``[[as_document]]`` or                     a document or a voice note, or read a second
``[[audio_as_voice]]``                     tag
ends in whitespace, a quote, a backtick    strip it: ``cat.png)`` is sent as ``cat.png``
or one of ``,.;:)}]``
holds a backtick                           blank the text between two backticks
has no deliverable extension and holds     end the path there (or after an inner
whitespace, a quote, or an inner           ``.png,``) and send that file, or none
deliverable extension followed by a
space, quote or one of ``,;:)]}``
has an extension hermes reads two ways     send the file twice (``.svg`` spelt with a
(``.svg`` with a long s, U+017F; a file    long s is ``.svg`` to the pattern, not to
named ``.png``)                            the extension check)
has whitespace right before its            end the path at an earlier extension, or send
extension (``cat .png``)                   nothing
holds whitespace or a quote where the      send that other file as well
part before it names another file
=========================================  ==============================================

:func:`check_host_reads_back` asks the running host's own ``extract_media`` at
delivery, so a host whose parser differs from this model refuses rather than sends; and
since ``validate_media_delivery_path`` trims a path the same way,
the delivery also refuses a media-policy answer that names another file.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Final, cast

from kit_core._running_host import loaded
from kit_media._host import HostRefusal, import_host
from kit_media.errors import MediaError

MEDIA_PREFIX: Final = "MEDIA:"
VOICE_DIRECTIVE: Final = "[[audio_as_voice]]"
DOCUMENT_DIRECTIVE: Final = "[[as_document]]"
DIRECTIVES: Final = (MEDIA_PREFIX, VOICE_DIRECTIVE, DOCUMENT_DIRECTIVE)
"""What hermes acts on wherever it stands in a message (matched here in any case)."""

STRIPPED_END: Final = "`\"',.;:)}]"
"""Characters ``_normalize_media_tag_path`` strips from the end of a path."""

MEDIA_DELIVERY_EXTS: Final = frozenset(
    {
        *(".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tiff", ".svg"),
        *(".mp4", ".mov", ".avi", ".mkv", ".webm"),
        *(".mp3", ".wav", ".ogg", ".opus", ".m4a", ".flac"),
        *(".pdf", ".docx", ".doc", ".odt", ".rtf", ".txt", ".md", ".epub"),
        *(".xlsx", ".xls", ".ods", ".csv", ".tsv", ".json", ".xml", ".yaml", ".yml"),
        *(".pptx", ".ppt", ".odp", ".key"),
        *(".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".apk", ".ipa"),
        *(".html", ".htm"),
    }
)
"""hermes' deliverable extensions (``gateway.platforms.base.MEDIA_DELIVERY_EXTS``) from
0.16.0 to 0.19.0: the kit's model where no hermes parser is loaded."""

NEWER_MEDIA_DELIVERY_EXTS: Final = MEDIA_DELIVERY_EXTS | {
    *(".3gp", ".m2a"),
    *(".kmz", ".kml", ".geojson", ".gpx"),
}
"""The table from 0.20.0 on: a video, an audio and four geospatial extensions more
(``MEDIA_DELIVERY_EXTS``; the same through 0.22.2)."""

_TAG_END: Final = r"[\s`\"',;:)\]}]"
"""What may follow a deliverable extension where ``MEDIA_TAG_CLEANUP_RE`` ends a path."""


def delivery_extensions() -> frozenset[str]:
    """The extensions the running hermes delivers by name: its own ``MEDIA_DELIVERY_EXTS``
    where it has loaded its parser (releases differ: :data:`NEWER_MEDIA_DELIVERY_EXTS` from
    0.20.0), else the kit's model, :data:`MEDIA_DELIVERY_EXTS` (never imported here:
    building a payload must not boot hermes)."""
    table = loaded("gateway.platforms.base", "MEDIA_DELIVERY_EXTS")
    if isinstance(table, (tuple, list, set, frozenset)) and table:
        found = frozenset(str(e).lower() for e in cast("tuple[object, ...]", table))
        if all(e.startswith(".") for e in found):
            return found
    return MEDIA_DELIVERY_EXTS


@functools.cache
def _patterns_for(extensions: frozenset[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A path ending in a deliverable extension, and one inside a path before a character
    that ends it (for a table such as the running host's, compiled on first use)."""
    alternation = "|".join(sorted((e[1:] for e in extensions), key=len, reverse=True))
    return (
        re.compile(rf"\.(?:{alternation})\Z", re.IGNORECASE),
        re.compile(rf"\.(?:{alternation})(?={_TAG_END})", re.IGNORECASE),
    )


_PATH_BREAK: Final = re.compile(r"[\s\"']")
"""Where ``MEDIA_EXTENSIONLESS_TAG_RE`` ends a path (``[^\\s\\n`"']+``)."""
_FIX: Final = "rename the file (or its folder)"


def media_line(path: Path) -> str:
    """The ``MEDIA:`` line that carries ``path`` in a ``send_message`` message."""
    return f"{MEDIA_PREFIX}{path}"


def held_directive(text: str) -> str | None:
    """The first of :data:`DIRECTIVES` that ``text`` holds, in any case, else ``None``."""
    lowered = text.lower()
    return next((d for d in DIRECTIVES if d.lower() in lowered), None)


def check_tag_path(path: Path, *, at_delivery: bool = False) -> None:
    """Raise :class:`MediaError` unless hermes reads ``MEDIA:<path>`` back as ``path``.

    ``at_delivery``: when the running hermes has loaded its parser, only the rules that
    hold for every release are checked here, since the delivery then asks that parser
    about the whole message (:func:`check_host_reads_back`) and reports its answer as a
    failed delivery.
    """
    text = str(path)
    if at_delivery and loaded_parser() is not None:
        problem = _always_problem(text)
    else:
        problem = tag_problem(text)
    if problem is not None:
        raise MediaError(problem)


def tag_problem(text: str) -> str | None:
    """Why hermes would not read ``MEDIA:<text>`` back as ``text`` (the message for the
    author), or ``None``; see the module docstring for the rules.

    The directive and backtick rules always apply. The rules about which path hermes
    reads follow the running hermes when it has loaded its parser: its own
    ``extract_media`` is asked (releases read the line differently: 0.13.0 reads any
    non-space run, 0.14.0 to 0.17.0 only a path ending in a deliverable extension, 0.18.0
    and newer also other paths that exist), and the kit's model only explains a
    refusal. Without a loaded parser the kit's model (hermes 0.19.0's) decides.
    """
    name = PurePosixPath(text).name or text
    problem = _always_problem(text)
    if problem is not None:
        return problem
    modelled = _path_problem(text, name)
    extract = loaded_parser()
    if extract is None:
        return modelled
    read = _read(extract, f"{MEDIA_PREFIX}{text}")
    if read == [(text, False)]:
        return None
    names = ", ".join(repr(PurePosixPath(p).name) for p, _ in read) or "no file"
    because = modelled or f"{_FIX} without spaces, quotes or trailing punctuation"
    return f"hermes would read MEDIA:{name} as {names}, not {name!r} alone: {because}"


def loaded_parser() -> Callable[[str], object] | None:
    """The running hermes' ``BasePlatformAdapter.extract_media``, if hermes has loaded it
    (never imported here: building a payload must not boot hermes)."""
    adapter = loaded("gateway.platforms.base", "BasePlatformAdapter")
    extract = getattr(adapter, "extract_media", None)
    return extract if callable(extract) else None


def _read(extract: Callable[[str], object], message: str) -> list[tuple[str, bool]]:
    media, _ = cast("tuple[list[tuple[str, bool]], str]", extract(message))
    return [(str(p), bool(v)) for p, v in media]


def _always_problem(text: str) -> str | None:
    """The rules that hold for every release: what hermes acts on in a path."""
    directive = held_directive(text)
    if directive is not None:
        return (
            f"media path {text!r} holds {directive!r}, which hermes acts on wherever it stands"
            " in a message (every file of it would go out as a document or a voice note, or"
            f" a second file would be read): {_FIX} without it"
        )
    if "`" in text:
        return (
            f"media path {text!r} holds a backtick, and hermes skips text between backticks"
            f" as inline code, so it would send another file or nothing: {_FIX} without it"
        )
    return None


def _path_problem(text: str, name: str) -> str | None:
    """The kit's model (hermes 0.19.0's) of the path hermes reads from ``MEDIA:<text>``."""
    last = text[-1]
    if last.isspace() or last in STRIPPED_END:
        return (
            f"media file {name!r} ends in {last!r}, which hermes strips from a MEDIA: path,"
            f" so it would send {_trimmed(name)!r} (another file) or nothing: {_FIX} so that"
            " its name ends in its extension"
        )
    ending = _patterns_for(delivery_extensions())[0].search(text)
    deliverable = ending is not None
    if deliverable != (_suffix(text) in delivery_extensions()):
        return (
            f"hermes reads the extension of media file {name!r} two ways (its MEDIA: pattern"
            " and its extension check disagree), so it may send the file twice: rename it to"
            " end in a plain extension such as .png or .pdf"
        )
    if ending is None:
        return _unknown_extension_problem(text, name)
    if text[ending.start() - 1].isspace():
        return (
            f"media file {name!r} has whitespace right before its extension, and hermes"
            " only sees an extension that follows a name, so it would send another file or"
            f" nothing: {_FIX} so that its extension follows a name directly"
        )
    other = _also_sent(text)
    if other is not None:
        return (
            f"the part of media path {text!r} before its first space or quote names another"
            f" file ({PurePosixPath(other).name!r}), which hermes would send as well: {_FIX}"
            " without spaces and quotes, or move it"
        )
    return None


def check_host_reads_back(message: str, path: Path, *, voice: bool) -> None:
    """Ask the running host's ``extract_media`` what it reads from ``message``.

    Raises:
        HostRefusal: it would send anything but ``path`` alone (with the voice flag
            the payload asked for). A host without ``extract_media`` is not asked.
    """
    base = import_host("gateway.platforms.base")
    extract = getattr(getattr(base, "BasePlatformAdapter", None), "extract_media", None)
    if not callable(extract):
        return
    read = _read(extract, message)
    if len(read) == 1 and read[0][1] == voice and same_file(read[0][0], path):
        return
    names = ", ".join(repr(PurePosixPath(p).name) for p, _ in read) or "no file"
    msg = (
        f"hermes would read this MEDIA: line as {names}, not {path.name!r} alone, so"
        f" nothing was sent: {_FIX} without spaces, quotes, backticks or [[…]]"
        " directives, ending in its extension"
    )
    raise HostRefusal(msg)


def _unknown_extension_problem(text: str, name: str) -> str | None:
    inner = _patterns_for(delivery_extensions())[1].search(text)
    if inner is not None:
        cut = PurePosixPath(text[: inner.end()]).name
        return (
            f"hermes would end media path {text!r} after {cut!r} (a deliverable extension"
            f" followed by {text[inner.end()]!r}) and send that file instead: {_FIX} so"
            " that no inner extension is followed by a space, quote or ,;:)]}"
        )
    brk = _PATH_BREAK.search(text)
    if brk is not None:
        return (
            f"media file {name!r} has no extension hermes delivers by name (.png, .pdf,"
            f" .txt, …), and for such a path hermes stops at the first space or quote"
            f" ({brk.group(0)!r}), so it would send another file or nothing: {_FIX}"
            " without spaces and quotes"
        )
    return None


def _also_sent(text: str) -> str | None:
    """The other file hermes' extension-less pattern would read from ``text``, if any."""
    brk = _PATH_BREAK.search(text)
    if brk is None:
        return None
    head = text[: brk.start()].rstrip(STRIPPED_END)
    if not head or _suffix(head) in delivery_extensions():  # hermes skips those
        return None
    return head if os.path.isfile(head) else None


def _suffix(text: str) -> str:
    """The extension as hermes' ``_path_lacks_deliverable_extension`` sees it."""
    return PurePosixPath(text).suffix.lower()


def _trimmed(name: str) -> str:
    while name and (name[-1].isspace() or name[-1] in STRIPPED_END):
        name = name[:-1]
    return name


def same_file(read: str, path: Path) -> bool:
    """Whether the host's answer ``read`` names the file at ``path`` (symlinks resolved)."""
    return os.path.realpath(read) == os.path.realpath(path)
