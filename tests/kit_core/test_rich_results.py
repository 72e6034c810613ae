"""Rich results: the multimodal envelope a tool hands hermes, the parts, the limits."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from kit_core import ContentTooLarge, File, Image, Rich, tool
from kit_core.content import MAX_PART_CHARS


def as_tool(fn: object) -> Any:
    """A typed tool called as hermes calls it, with the arguments' dict (its static type
    is the handler's own signature)."""
    return fn


PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))


@tool(toolset="t")
def chart(city: str) -> Rich:
    """Chart a city.

    Args:
        city: the city
    """
    return Rich(f"Chart of {city}", Image.from_bytes(PNG, "image/png", "chart.png"))


@tool(toolset="t")
async def achart(city: str) -> Rich:
    """Chart a city, asynchronously.

    Args:
        city: the city
    """
    return Rich(f"Chart of {city}", Image.from_url("https://example.org/c.png", "image/png"))


OWN = {"_multimodal": True, "content": [{"type": "text", "text": "hi"}], "x": 1}


@tool(toolset="t")
def own(city: str) -> dict[str, Any]:
    """hermes' own envelope.

    Args:
        city: the city
    """
    return OWN


@tool(toolset="t")
def lookalike(flag: int | str | bool) -> dict[str, Any]:
    """Not an envelope.

    Args:
        flag: what _multimodal holds
    """
    return {"_multimodal": flag, "content": "not a list"}


def test_a_rich_result_is_hermes_multimodal_envelope() -> None:
    out = as_tool(chart)({"city": "Paris"})
    assert out == {
        "_multimodal": True,
        "content": [
            {"type": "text", "text": "Chart of Paris"},
            {
                "type": "image_url",
                "image_url": {"url": "data:image/png;base64," + base64.b64encode(PNG).decode()},
            },
        ],
        "text_summary": "Chart of Paris\n[image chart.png (image/png, 48 bytes)]",
    }
    assert json.loads(json.dumps(out)) == out  # hermes persists it as JSON


def test_an_async_rich_result_and_an_image_by_url() -> None:
    out = asyncio.run(as_tool(achart)({"city": "Oslo"}))
    assert isinstance(out, dict)
    assert out["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "https://example.org/c.png"},
    }
    assert out["text_summary"] == "Chart of Oslo\n[image https://example.org/c.png (image/png)]"


def test_hermes_own_envelope_passes_unchanged_and_lookalikes_stay_data() -> None:
    assert as_tool(own)({"city": "x"}) is OWN
    for flag in (1, "true", False):
        answer = as_tool(lookalike)({"flag": flag})
        assert isinstance(answer, str)
        assert json.loads(answer) == {
            "success": True,
            "data": {"_multimodal": flag, "content": "not a list"},
        }


def test_an_oversized_image_answers_result_too_large() -> None:
    @tool(toolset="t")
    def huge(n: int) -> Rich:
        """Too big.

        Args:
            n: bytes over the limit
        """
        return Rich(Image.from_bytes(b"0" * (MAX_PART_CHARS * 3 // 4 + n), "image/png", "h.png"))

    answer = as_tool(huge)({"n": 3})
    assert isinstance(answer, str)
    assert json.loads(answer) == {
        "success": False,
        "error": "huge failed: the image 'h.png' is 15.0 MiB, over the 15.0 MiB hermes passes to"
        " a model as a data URL; scale it down, or return it by URL (Image.from_url)",
        "error_code": "result_too_large",
    }
    exact = Image.from_bytes(b"0" * (MAX_PART_CHARS * 3 // 4), "image/png")  # at the limit
    assert len(exact.url.partition(",")[2]) == MAX_PART_CHARS


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.png"
    with big.open("wb") as out:
        out.truncate(MAX_PART_CHARS)  # sparse: its size, without writing it
    with pytest.raises(ContentTooLarge, match=r"big\.png' is 20\.0 MiB, over"):
        Image.from_path(big)
    with pytest.raises(ContentTooLarge, match="data URL"):
        Image.from_url("data:image/png;base64," + "A" * (MAX_PART_CHARS + 4))


def test_files_give_their_text_or_name_where_they_are(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Title\nbody\n", encoding="utf-8")
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "data.json").write_bytes(b"\xff\xfe not utf-8")
    notes = File.from_path(tmp_path / "notes.md")
    scan = File.from_path(tmp_path / "scan.pdf")
    broken = File.from_path(tmp_path / "data.json")
    csv = File.from_bytes(b"a,b\n", "text/csv", "t.csv")
    remote = File.from_url("https://example.org/r/report.pdf", "application/pdf")
    where = tmp_path.resolve()
    assert notes.part() == {
        "type": "text",
        "text": f"[file notes.md (text/markdown, 13 bytes) at {where / 'notes.md'}]"
        "\n# Title\nbody\n",
    }
    assert (
        scan.part()["text"] == f"[file scan.pdf (application/pdf, 8 bytes) at {where / 'scan.pdf'}]"
    )
    assert broken.text is None  # a text type that is not UTF-8 is named, not shown
    assert csv.part() == {"type": "text", "text": "[file t.csv (text/csv, 4 bytes)]\na,b\n"}
    assert remote.summary() == (
        "[file report.pdf (application/pdf) at https://example.org/r/report.pdf]"
    )


def test_rich_summary_can_be_given_and_describes_its_parts() -> None:
    image = Image.from_bytes(PNG, "image/png")
    rich = Rich("a", image, image, File.from_bytes(b"x", "text/plain", "x.txt"), summary="short")
    assert rich.envelope()["text_summary"] == "short"
    assert rich.describe() == "Rich(1 text, 2 images, 1 file)"
    assert repr(image) == "Image(image (image/png, 48 bytes))"


@pytest.mark.parametrize(
    ("build", "problem"),
    [
        (lambda: Rich(), "at least one part"),
        (lambda: Rich(as_tool({"a": 1})), "takes str, Image and File parts, got dict"),
        (lambda: Rich("a", summary=as_tool(3)), "summary must be a str, got int"),
        (lambda: Image.from_bytes(PNG, "application/pdf"), "use File for others"),
        (lambda: Image.from_bytes(as_tool("text"), "image/png"), "must be bytes, got str"),
        (lambda: Image.from_bytes(PNG, "png"), "such as 'image/png', got 'png'"),
        (lambda: Image.from_path("chart.unknownext"), "pass it, e.g. mime="),
        (lambda: Image.from_url("ftp://x/y.png"), "starting https://, http:// or data:"),
    ],
)
def test_bad_parts_name_the_problem(build: Any, problem: str) -> None:
    with pytest.raises((TypeError, ValueError), match=problem.replace("(", r"\(")):
        build()


def test_the_success_line_names_the_parts(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        as_tool(chart)({"city": "Paris"})
        as_tool(own)({"city": "x"})
    lines = [r.getMessage() for r in caplog.records]
    assert any(
        line.startswith("chart: ok;") and "result=Rich(1 text, 1 image)" in line for line in lines
    )
    assert any(line.startswith("own: ok;") and line.endswith("result=multimodal") for line in lines)
