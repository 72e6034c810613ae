"""A tool's images and files in the author tools: the in-memory host hands hermes'
multimodal envelope on, ``call`` prints it without the base64, ``check --probe`` names an
image too large for hermes."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from kit_devtools.cli import main
from kit_devtools.testing import InMemoryHost

PLUGIN = '''
from hermes_plugin_kit import Image, Rich, register_plugin, tool


@tool(toolset="pics")
def pics_dot(size: int = 3) -> Rich:
    """A dot of some size.

    Args:
        size: how many bytes of image to return
    """
    return Rich(f"A dot of {size}", Image.from_bytes(b"0" * size, "image/png", "dot.png"))


@tool(toolset="pics")
def pics_huge() -> Rich:
    """A picture larger than hermes passes on."""
    return Rich(Image.from_bytes(b"0" * 16_000_000, "image/png", "huge.png"))


def register(ctx):
    return register_plugin(ctx, [pics_dot, pics_huge])
'''


@pytest.fixture
def pics(tmp_path: Path) -> Path:
    folder = tmp_path / "pics"
    folder.mkdir()
    (folder / "plugin.yaml").write_text(
        "name: pics\nversion: 0.1.0\nkind: standalone\nprovides_tools: [pics_dot, pics_huge]\n",
        encoding="utf-8",
    )
    (folder / "__init__.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    return folder


def test_the_in_memory_host_hands_the_envelope_on(pics: Path) -> None:
    host = InMemoryHost()
    host.load(pics)
    out = host.call_tool("pics_dot", {"size": 3})
    assert out == {
        "_multimodal": True,
        "content": [
            {"type": "text", "text": "A dot of 3"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,MDAw"}},
        ],
        "text_summary": "A dot of 3\n[image dot.png (image/png, 3 bytes)]",
    }


def test_call_shows_the_parts_without_the_base64(
    pics: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["call", str(pics), "pics_dot", "--args", '{"size": 3000}']) == 0
    printed = capsys.readouterr()
    shown = json.loads(printed.out)
    assert shown["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,… (3000 bytes, not shown)"},
    }
    assert shown["text_summary"] == "A dot of 3000\n[image dot.png (image/png, 2.9 KiB)]"
    assert "a model that reads images gets the content parts" in printed.err


def test_check_probe_names_an_image_too_large_for_hermes(
    pics: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(pics), "--probe", "--format", "json"]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    (found,) = [f for f in report["findings"] if f["rule"] == "HPK133"]
    assert found["where"] == "tool pics_huge"
    assert "over the 15.0 MiB hermes passes to a model as a data URL" in found["message"]
