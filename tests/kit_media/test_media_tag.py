"""Paths hermes would read back from the MEDIA: line as another file are refused, saying
why and how to fix it; the running host's own parser is asked again at delivery."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest

from kit_media import MediaError, MediaPayload, MediaType, deliver_media
from kit_media._markers import MARKERS
from kit_media._media_tag import MEDIA_DELIVERY_EXTS, held_directive, media_line, tag_problem

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost


def made(folder: Path, name: str, data: bytes = b"bytes") -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x[[as_document]].png", "holds '[[as_document]]', which hermes acts on"),
        ("x[[AUDIO_AS_VOICE]].ogg", "holds '[[audio_as_voice]]'"),
        ("media:cat.png", "holds 'MEDIA:'"),
        ("cat.png)", "ends in ')', which hermes strips from a MEDIA: path, so it would send"),
        ("cat.png.", "ends in '.'"),
        ("cat.png,", "ends in ','"),
        ("cat.png'", "ends in"),
        ('cat.png"', "ends in"),
        ("cat.png]", "ends in"),
        ("cat.png}", "ends in"),
        ("cat.png;", "ends in"),
        ("cat.png:", "ends in"),
        ("cat.png ", "ends in ' '"),
        ("cat.png\u2003", "ends in '\\u2003'"),
        ("a`b`c.png", "holds a backtick, and hermes skips text between backticks"),
        ("a.png,b.bin", "would end media path"),
        ("a.pdf;notes.bin", "after 'a.pdf'"),
        ("my notes.bin", "no extension hermes delivers by name"),
        ("it's", "stops at the first space or quote"),
        ("x.ſvg", "reads the extension of media file 'x.ſvg' two ways"),
        (".png", "two ways"),
        ("cat .png", "whitespace right before its extension"),
        ("a.png\u00a0.jpg", "whitespace right before its extension"),
    ],
)
def test_a_path_hermes_would_misread_is_refused_saying_why_and_how_to_fix_it(
    tmp_path: Path, name: str, expected: str
) -> None:
    path = made(tmp_path, name)
    with pytest.raises(MediaError) as refused:
        MediaPayload(path)
    message = str(refused.value)
    assert expected in message
    assert "rename" in message


@pytest.mark.parametrize(
    "name",
    [
        "cat picture.png",
        "it's mine.jpg",
        'say "cheese".jpeg',
        "report (final), v2.pdf",
        "2026-01-01T10:00:00.png",
        "a.png,b.png",
        "notes.bin",
        "Makefile",
        "archive.tar.gz",
        "CAT.PNG",
        "çà et là.png",
        "x\u00a0y.png",
    ],
)
def test_names_hermes_reads_back_whole_are_accepted(tmp_path: Path, name: str) -> None:
    path = made(tmp_path, name)
    payload = MediaPayload(path)
    assert payload.to_message() == f"MEDIA:{path}"
    assert tag_problem(str(path)) is None


def test_a_space_where_the_part_before_it_names_another_file_is_refused(tmp_path: Path) -> None:
    album = made(tmp_path, "photo album.png")
    assert MediaPayload(album).path == album  # no file named "photo": accepted
    made(tmp_path, "photo", b"another file")
    with pytest.raises(MediaError, match=r"names another file \('photo'\), which hermes would"):
        MediaPayload(album)


def test_a_part_before_the_space_with_a_deliverable_extension_is_skipped_by_hermes(
    tmp_path: Path,
) -> None:
    made(tmp_path, "a.png")
    assert MediaPayload(made(tmp_path, "a.png b.png")).path.name == "a.png b.png"


def test_the_other_file_appearing_after_the_payload_was_built_is_refused_at_delivery(
    host: FakeHost, tmp_path: Path
) -> None:
    payload = MediaPayload(made(tmp_path, "photo album.png"))
    made(tmp_path, "photo", b"appeared since")
    with pytest.raises(MediaError, match="names another file"):
        deliver_media(payload, "telegram", session_id="s-1")
    assert host.handler_calls == []


def test_the_directive_check_is_one_for_captions_and_paths() -> None:
    assert held_directive("see MEDIA:/x.png") == "MEDIA:"
    assert held_directive("[[As_Document]]") == "[[as_document]]"
    assert held_directive("a plain caption") is None
    assert media_line(Path("/tmp/a b.png")) == "MEDIA:/tmp/a b.png"


def test_the_extensions_are_hermes_0_19_deliverable_extensions() -> None:
    assert len(MEDIA_DELIVERY_EXTS) == 52
    assert {".png", ".ogg", ".opus", ".pdf", ".tar", ".gz", ".htm"} <= MEDIA_DELIVERY_EXTS
    assert ".bin" not in MEDIA_DELIVERY_EXTS


# -- the running host is asked at delivery ------------------------------------------------


def _install_extract_media(host: FakeHost, answer: Any) -> list[str]:
    import sys

    seen: list[str] = []

    def extract_media(content: str) -> Any:
        seen.append(content)
        return answer(content), "cleaned"

    base = sys.modules["gateway.platforms.base"]
    base.BasePlatformAdapter = SimpleNamespace(extract_media=extract_media)  # type: ignore[attr-defined]
    return seen


def test_a_host_that_reads_another_file_is_refused_and_nothing_is_sent(
    host: FakeHost, image: Path
) -> None:
    payload = MediaPayload(image)  # built before hermes loaded its parser
    seen = _install_extract_media(host, lambda content: [("/elsewhere/other.png", False)])
    result = deliver_media(payload, "telegram", session_id="s-1")
    assert result.success is False
    assert result.reason == (
        "hermes would read this MEDIA: line as 'other.png', not 'cat.png' alone, so nothing"
        " was sent: rename the file (or its folder) without spaces, quotes, backticks or"
        " [[…]] directives, ending in its extension"
    )
    assert seen == [f"MEDIA:{image}"]
    assert host.pre_calls == []
    assert host.handler_calls == []
    assert not MARKERS.is_armed("s-1")


@pytest.mark.parametrize(
    "answer",
    [
        lambda content: [],
        lambda content: [(content.split("MEDIA:")[1], True)],  # read as a voice note
        lambda content: [(content.split("MEDIA:")[1], False)] * 2,
    ],
)
def test_a_host_that_reads_no_file_two_or_another_way_is_refused(
    host: FakeHost, image: Path, answer: Any
) -> None:
    payload = MediaPayload(image)  # built before hermes loaded its parser
    _install_extract_media(host, answer)
    result = deliver_media(payload, "telegram", session_id="s-1")
    assert result.success is False
    assert result.reason is not None
    assert result.reason.startswith("hermes would read this MEDIA: line as")
    assert host.handler_calls == []


def test_a_host_that_reads_the_file_back_sends_it(host: FakeHost, voice: Path) -> None:
    seen = _install_extract_media(
        host, lambda content: [(str(voice), "[[audio_as_voice]]" in content)]
    )
    payload = MediaPayload(voice, MediaType.VOICE)  # its path is asked of the loaded parser
    result = deliver_media(payload, "telegram", session_id="s-1")
    assert result.success is True, result.reason
    # the path when the payload was built, then the whole message when it was delivered
    assert seen == [f"MEDIA:{voice}", f"[[audio_as_voice]]\nMEDIA:{voice}"]
    assert json.loads(json.dumps(result.as_dict()))["success"] is True
