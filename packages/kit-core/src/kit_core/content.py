"""Tool results with images and files: :class:`Rich`, :class:`Image`, :class:`File`.

A handler that returns ``Rich("The chart for Paris", Image.from_path(png))`` answers
the host with hermes' multimodal envelope, ``{"_multimodal": true, "content": [...],
"text_summary": ...}``, the one result besides a string that hermes' tool registry
hands on unchanged. hermes gives the parts to a model that reads images and the
summary to one that does not; the summary names every image and file, so the model
knows what it was sent either way.

=============  ==============================================================
part           what the model gets
=============  ==============================================================
``str``        a text part
:class:`Image` an ``image_url`` part: a ``data:`` URL of its bytes, or its URL
:class:`File`  a text part: its text for a text type (``text/*``, JSON, XML,
               YAML, CSV), else its name, type, size and where it is, since
               hermes passes a model text and images only
=============  ==============================================================

An image or file is refused, with :class:`ContentTooLarge`, when its encoded form is
over :data:`MAX_PART_CHARS` (20 MiB): hermes drops a larger ``data:`` URL before the
model sees it. The tool's answer is then a ``result_too_large`` error envelope that
says so. A handler that builds hermes' envelope itself gets it passed on as it is.
"""

from __future__ import annotations

import os
from typing import Any, Final, cast

__all__ = ["MAX_PART_CHARS", "ContentTooLarge", "File", "Image", "Rich"]

MAX_PART_CHARS: Final = 20 * 1024 * 1024
"""The most characters one encoded part may take: hermes skips a ``data:`` URL whose
base64 payload is longer (``run_agent.py``, ``_MAX_DATA_URL_BASE64_BYTES``)."""
MULTIMODAL_KEY: Final = "_multimodal"
_TEXT_TYPES: Final = frozenset(
    {"application/json", "application/xml", "application/yaml", "application/x-yaml",
     "application/toml", "application/csv"}
)  # fmt: skip


class ContentTooLarge(ValueError):
    """An image or file of a :class:`Rich` result is larger than hermes passes on."""


def _size(count: int) -> str:
    for unit, scale in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def _guess(name: str, what: str) -> str:
    import mimetypes  # on first use: reading the system's type tables takes time

    mime = mimetypes.guess_type(name, strict=False)[0]
    if mime is None:
        msg = (
            f"cannot tell the MIME type of {what} {name!r} from its name;"
            f" pass it, e.g. mime='image/png'"
        )
        raise ValueError(msg)
    return mime


def _checked_mime(mime: object, what: str) -> str:
    if not isinstance(mime, str) or "/" not in mime or mime != mime.strip():
        msg = f"the MIME type of {what} must be a str such as 'image/png', got {mime!r}"
        raise ValueError(msg)
    return mime.lower()


def _read(path: str | os.PathLike[str], what: str) -> bytes:
    """The bytes of ``path``, refused before reading when their base64 is too long."""
    size = os.stat(path).st_size
    if (size + 2) // 3 * 4 > MAX_PART_CHARS:
        raise _too_large(what, os.fspath(path), size)
    with open(path, "rb") as file:  # os and open, not pathlib: it costs the kit's import 3 ms
        return file.read()


def _too_large(what: str, name: str, size: int) -> ContentTooLarge:
    if what == "image":
        limit = f"the {_size(MAX_PART_CHARS * 3 // 4)} hermes passes to a model as a data URL"
        fix = "scale it down, or return it by URL (Image.from_url)"
    else:
        limit = f"the {_size(MAX_PART_CHARS)} of text a Rich result passes on"
        fix = "return a part of it, or its path (File.from_path with a non-text mime)"
    return ContentTooLarge(f"the {what} {name!r} is {_size(size)}, over {limit}; {fix}")


def _bytes_of(data: object, what: str) -> bytes:
    if not isinstance(data, bytes | bytearray | memoryview):
        msg = f"the data of {what} must be bytes, got {type(data).__name__}"
        raise TypeError(msg)
    return bytes(cast("bytes", data))


def _checked_url(url: object, what: str) -> str:
    """``url``, checked; ``what``: ``"image"`` or ``"file"``."""
    if not isinstance(url, str) or not url.startswith(("https://", "http://", "data:")):
        msg = (
            f"the URL of the {what} must be a str starting https://, http:// or data:, got {url!r}"
        )
        raise ValueError(msg)
    if url.startswith("data:") and len(url) - url.find(",") - 1 > MAX_PART_CHARS:
        raise _too_large(what, url[:40] + "…", (len(url) - url.find(",") - 1) * 3 // 4)
    return url


class Image:
    """An image a tool returns in a :class:`Rich` result. Build it with
    :meth:`from_path`, :meth:`from_bytes` or :meth:`from_url`."""

    __slots__ = ("mime", "name", "size", "url")

    def __init__(self, url: str, mime: str, name: str, size: int | None) -> None:
        self.url = url
        """What hermes hands the model: a ``data:`` URL, or the image's own URL."""
        self.mime = mime
        self.name = name
        """How the summary names it: the file name, or the URL."""
        self.size = size
        """Its size in bytes, when the kit has them (not for a URL)."""

    @classmethod
    def from_bytes(cls, data: bytes, mime: str, name: str = "image") -> Image:
        """An image from its bytes, e.g. ``Image.from_bytes(png, "image/png")``.

        Raises:
            ContentTooLarge: its base64 is over :data:`MAX_PART_CHARS`.
            ValueError, TypeError: ``mime`` is not an image type, ``data`` not bytes.
        """
        raw = _bytes_of(data, "an image")
        mime = _image_mime(_checked_mime(mime, "an image"))
        if (len(raw) + 2) // 3 * 4 > MAX_PART_CHARS:
            raise _too_large("image", name, len(raw))
        import base64

        encoded = base64.b64encode(raw).decode("ascii")
        return cls(f"data:{mime};base64,{encoded}", mime, name, len(raw))

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], mime: str | None = None) -> Image:
        """An image file, read now; its type from its name unless given.

        Raises:
            OSError: the file cannot be read.
            ContentTooLarge: its base64 would be over :data:`MAX_PART_CHARS`.
            ValueError: the type is not an image type or cannot be told.
        """
        name = os.path.basename(path)
        kind = _guess(name, "the image") if mime is None else mime
        return cls.from_bytes(_read(path, "image"), kind, name)

    @classmethod
    def from_url(cls, url: str, mime: str = "image/*") -> Image:
        """An image the model's provider fetches itself (``https://…``), or a
        ``data:`` URL you built."""
        return cls(_checked_url(url, "image"), _checked_mime(mime, "an image"), url, None)

    def part(self) -> dict[str, Any]:
        return {"type": "image_url", "image_url": {"url": self.url}}

    def summary(self) -> str:
        size = "" if self.size is None else f", {_size(self.size)}"
        return f"[image {self.name} ({self.mime}{size})]"

    def __repr__(self) -> str:
        return f"Image({self.summary()[7:-1]})"


def _image_mime(mime: str) -> str:
    if not mime.startswith("image/"):
        msg = f"an Image needs an image type such as 'image/png', got {mime!r}; use File for others"
        raise ValueError(msg)
    return mime


def _is_text(mime: str) -> bool:
    return mime.startswith("text/") or mime in _TEXT_TYPES or mime.endswith(("+json", "+xml"))


class File:
    """A file a tool returns in a :class:`Rich` result: its text reaches the model when
    it is a text type, else its name, type, size and where it is. Build it with
    :meth:`from_path`, :meth:`from_bytes` or :meth:`from_url`."""

    __slots__ = ("mime", "name", "size", "text", "where")

    def __init__(
        self, name: str, mime: str, size: int | None, text: str | None, where: str | None
    ) -> None:
        self.name = name
        self.mime = mime
        self.size = size
        self.text = text
        """Its contents, for a text type that decodes as UTF-8; else None."""
        self.where = where
        """Its path or URL, when it has one."""

    @classmethod
    def from_bytes(cls, data: bytes, mime: str, name: str, where: str | None = None) -> File:
        """A file from its bytes, named ``name`` (e.g. ``"report.csv"``).

        Raises:
            ContentTooLarge: a text file over :data:`MAX_PART_CHARS` characters.
        """
        raw = _bytes_of(data, "a file")
        mime = _checked_mime(mime, "a file")
        text = None
        if _is_text(mime):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            if text is not None and len(text) > MAX_PART_CHARS:
                raise _too_large("file", name, len(raw))
        return cls(name, mime, len(raw), text, where)

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], mime: str | None = None) -> File:
        """A file on disk: a text file is read now; of any other, the model is told its
        path, type and size.

        Raises:
            OSError: the file cannot be read.
            ValueError: its type cannot be told from its name and is not given.
        """
        name = os.path.basename(path)
        kind = _checked_mime(_guess(name, "the file") if mime is None else mime, "a file")
        where = os.path.realpath(path)
        if _is_text(kind):
            return cls.from_bytes(_read(path, "file"), kind, name, where)
        return cls(name, kind, os.stat(path).st_size, None, where)

    @classmethod
    def from_url(cls, url: str, mime: str, name: str | None = None) -> File:
        """A file at a URL, named to the model with its type."""
        checked = _checked_url(url, "file")
        return cls(name or url.rsplit("/", 1)[-1] or url, _checked_mime(mime, "a file"),
                   None, None, checked)  # fmt: skip

    def part(self) -> dict[str, Any]:
        if self.text is not None:
            return {"type": "text", "text": f"{self.summary()}\n{self.text}"}
        return {"type": "text", "text": self.summary()}

    def summary(self) -> str:
        size = "" if self.size is None else f", {_size(self.size)}"
        where = "" if self.where is None else f" at {self.where}"
        return f"[file {self.name} ({self.mime}{size}){where}]"

    def __repr__(self) -> str:
        return f"File({self.summary()[6:-1]})"


class Rich:
    """A tool result of text, images and files, in order:
    ``Rich("Here is the chart", Image.from_path("chart.png"))``.

    ``summary`` is the text a model that reads no images gets instead; by default the
    text parts, with each image and file named in its place.
    """

    __slots__ = ("parts", "summary")

    def __init__(self, *parts: str | Image | File, summary: str | None = None) -> None:
        for part in parts:
            if not isinstance(part, str | Image | File):
                msg = (
                    f"a Rich result takes str, Image and File parts, got"
                    f" {type(part).__name__}; encode other values as text (json.dumps)"
                )
                raise TypeError(msg)
        if not parts:
            msg = "a Rich result needs at least one part: Rich('text', Image.from_path(...))"
            raise ValueError(msg)
        if summary is not None and not isinstance(summary, str):
            msg = f"summary must be a str, got {type(summary).__name__}"
            raise TypeError(msg)
        self.parts: tuple[str | Image | File, ...] = parts
        self.summary = summary

    def envelope(self) -> dict[str, Any]:
        """hermes' multimodal envelope of this result."""
        content = [
            {"type": "text", "text": p} if isinstance(p, str) else p.part() for p in self.parts
        ]
        summary = self.summary
        if summary is None:
            summary = "\n".join(p if isinstance(p, str) else p.summary() for p in self.parts)
        return {MULTIMODAL_KEY: True, "content": content, "text_summary": summary}

    def describe(self) -> str:
        """How the success log line names it: ``Rich(1 text, 2 images)``."""
        counts = {"text": 0, "image": 0, "file": 0}
        for p in self.parts:
            counts["text" if isinstance(p, str) else type(p).__name__.lower()] += 1
        shown = [f"{n} {k}{'s' if n > 1 and k != 'text' else ''}" for k, n in counts.items() if n]
        return f"Rich({', '.join(shown)})"

    def __repr__(self) -> str:
        return f"Rich({', '.join(repr(p) for p in self.parts)})"


def is_multimodal(result: object) -> bool:
    """Whether ``result`` is hermes' own multimodal envelope (a plain dict with
    ``"_multimodal": True`` and a list ``content``), which the kit passes on as it is."""
    return (
        type(result) is dict
        and result.get(MULTIMODAL_KEY) is True  # pyright: ignore[reportUnknownMemberType]
        and isinstance(result.get("content"), list)  # pyright: ignore[reportUnknownMemberType]
    )
