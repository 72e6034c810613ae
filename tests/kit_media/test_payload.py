"""MediaPayload and MediaType: validated when built, with errors that say what to change."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from kit_core import KitError
from kit_media import MediaError, MediaPayload, MediaType


def test_media_error_is_a_kit_error_and_a_value_error() -> None:
    assert issubclass(MediaError, KitError)
    assert issubclass(MediaError, ValueError)


def test_a_valid_payload_keeps_an_absolute_path_and_defaults(image: Path) -> None:
    payload = MediaPayload(str(image))
    assert payload.path == image
    assert payload.media_type is MediaType.AUTO
    assert payload.caption == ""
    assert payload.spoiler is False
    assert payload.file_name == "cat.png"


def test_the_payload_is_frozen(image: Path) -> None:
    payload = MediaPayload(image)
    with pytest.raises(dataclasses.FrozenInstanceError):
        payload.spoiler = True  # type: ignore[misc]


def test_a_path_under_home_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "a.png").write_bytes(b"png")
    assert MediaPayload("~/a.png").path == tmp_path / "a.png"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("cat.png", "media path must be absolute, got 'cat.png': pass an absolute path"),
        ("", "media path is empty"),
        ("   ", "media path is empty"),
        ("/tmp/a\nb.png", "line break or NUL"),
    ],
)
def test_unusable_paths_are_refused(path: str, expected: str) -> None:
    with pytest.raises(MediaError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        MediaPayload(path)


@pytest.mark.parametrize("value", [None, 42, b"/tmp/a.png", ["/tmp/a.png"]])
def test_a_path_of_the_wrong_type_is_refused(value: object) -> None:
    with pytest.raises(MediaError, match="media path must be a str or a path, got"):
        MediaPayload(value)  # type: ignore[arg-type]


def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(MediaError, match=r"media file 'nope.png' does not exist .*create it"):
        MediaPayload(tmp_path / "nope.png")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MediaError, match="is not a regular file"):
        MediaPayload(tmp_path)


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty.png").touch()
    with pytest.raises(MediaError, match=r"'empty\.png' is empty"):
        MediaPayload(tmp_path / "empty.png")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (MediaType.VOICE, MediaType.VOICE),
        ("document", MediaType.DOCUMENT),
        (" AUTO ", MediaType.AUTO),
    ],
)
def test_media_type_accepts_the_enum_or_its_value(
    image: Path, value: MediaType | str, expected: MediaType
) -> None:
    path = image.with_suffix(".ogg") if expected is MediaType.VOICE else image
    path.write_bytes(b"data")
    assert MediaPayload(path, value).media_type is expected


@pytest.mark.parametrize("value", ["video", "", 3, None])
def test_an_unknown_media_type_lists_the_choices(image: Path, value: object) -> None:
    with pytest.raises(
        MediaError, match=r"media_type must be one of MediaType.AUTO, MediaType.VOICE"
    ):
        MediaPayload(image, value)  # type: ignore[arg-type]


@pytest.mark.parametrize("suffix", [".ogg", ".opus", ".OGG"])
def test_voice_accepts_ogg_and_opus(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"memo{suffix}"
    path.write_bytes(b"OggS")
    assert MediaPayload(path, MediaType.VOICE).media_type is MediaType.VOICE


@pytest.mark.parametrize("name", ["memo.mp3", "memo.m4a", "memo.wav", "memo"])
def test_voice_refuses_other_containers(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"audio")
    with pytest.raises(MediaError, match="voice media must use an ogg or opus container"):
        MediaPayload(path, MediaType.VOICE)


@pytest.mark.parametrize("name", ["a.jpg", "a.jpeg", "a.png", "a.webp", "A.JPG"])
def test_spoiler_accepts_auto_images(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"img")
    assert MediaPayload(path, spoiler=True).spoiler is True


@pytest.mark.parametrize(
    ("name", "media_type"),
    [
        ("a.gif", MediaType.AUTO),
        ("a.pdf", MediaType.AUTO),
        ("a.png", MediaType.DOCUMENT),
        ("a.ogg", MediaType.VOICE),
    ],
)
def test_spoiler_refuses_everything_but_auto_images(
    tmp_path: Path, name: str, media_type: MediaType
) -> None:
    path = tmp_path / name
    path.write_bytes(b"x")
    with pytest.raises(
        MediaError, match="spoiler media must be an image using jpg, jpeg, png, or webp"
    ):
        MediaPayload(path, media_type, spoiler=True)


@pytest.mark.parametrize("value", [1, "yes", None])
def test_spoiler_must_be_a_bool(image: Path, value: object) -> None:
    with pytest.raises(MediaError, match="spoiler must be True or False"):
        MediaPayload(image, spoiler=value)  # type: ignore[arg-type]


def test_caption_is_stripped(image: Path) -> None:
    assert MediaPayload(image, caption="  hello  ").caption == "hello"


@pytest.mark.parametrize(
    "caption", ["see MEDIA:/etc/passwd", "media: x", "[[as_document]]", "x [[audio_as_voice]]"]
)
def test_caption_with_host_directives_is_refused(image: Path, caption: str) -> None:
    with pytest.raises(MediaError, match="caption must not contain MEDIA: tags"):
        MediaPayload(image, caption=caption)


def test_caption_length_is_counted_in_utf16_units(image: Path) -> None:
    assert MediaPayload(image, caption="a" * 1024).caption == "a" * 1024
    with pytest.raises(MediaError, match="caption is 1026 UTF-16 units long; Telegram allows 1024"):
        MediaPayload(image, caption="😀" * 513)  # one emoji is two UTF-16 units


def test_caption_must_be_text(image: Path) -> None:
    with pytest.raises(MediaError, match="caption must be a str"):
        MediaPayload(image, caption=None)  # type: ignore[arg-type]


def test_caption_and_spoiler_are_keyword_only(image: Path) -> None:
    with pytest.raises(TypeError):
        MediaPayload(image, MediaType.AUTO, "caption")  # type: ignore[misc]


def test_messages_carry_the_hosts_directives(image: Path, voice: Path) -> None:
    assert MediaPayload(image).to_message() == f"MEDIA:{image}"
    assert MediaPayload(voice, MediaType.VOICE).to_message() == (
        f"[[audio_as_voice]]\nMEDIA:{voice}"
    )
    assert MediaPayload(image, MediaType.DOCUMENT, caption="Report").to_message() == (
        f"Report\n[[as_document]]\nMEDIA:{image}"
    )


def test_a_path_like_object_is_accepted(image: Path) -> None:
    class Custom(os.PathLike[str]):
        def __fspath__(self) -> str:
            return str(image)

    assert MediaPayload(Custom()).path == image
