"""A tool's images and files (``Rich``) as the real hermes delivers them: a plugin loaded
by hermes' own discovery (``RealHost``), called through its whole tool pipeline
(``model_tools.handle_function_call``), the answer read by hermes' own multimodal helpers
(``_is_multimodal_tool_result``, ``_multimodal_text_summary``: ``run_agent`` up to 0.15,
``agent.tool_dispatch_helpers`` from 0.16) in a child process of the same release."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import RealHost

pytestmark = pytest.mark.host

NAME = "kit-rich"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PLUGIN = """
from pathlib import Path

from hermes_plugin_kit import File, Image, Rich, register_plugin, tool

HERE = Path(__file__).parent


@tool(toolset="kit_rich")
def krich_chart(city: str) -> Rich:
    '''Chart a city.

    Args:
        city: the city to chart
    '''
    return Rich(
        f"The chart of {city}",
        Image.from_path(HERE / "chart.png"),
        File.from_path(HERE / "data.csv"),
        File.from_path(HERE / "report.pdf"),
    )


@tool(toolset="kit_rich")
def krich_huge(city: str) -> Rich:
    '''A chart too large for hermes.

    Args:
        city: the city to chart
    '''
    return Rich(Image.from_bytes(b"0" * (16 * 1024 * 1024), "image/png", "huge.png"))


@tool(toolset="kit_rich")
def krich_own(city: str) -> dict:
    '''hermes' own envelope, built by hand.

    Args:
        city: the city
    '''
    return {"_multimodal": True, "content": [{"type": "text", "text": city}], "text_summary": city}


def register(ctx):
    return register_plugin(ctx, [krich_chart, krich_huge, krich_own])
"""

HERMES_READS = """
import json, sys
try:
    from agent.tool_dispatch_helpers import _is_multimodal_tool_result, _multimodal_text_summary
except ImportError:  # up to 0.15: the helpers live in run_agent
    from run_agent import _is_multimodal_tool_result, _multimodal_text_summary
value = json.load(sys.stdin)
print(json.dumps([_is_multimodal_tool_result(value), _multimodal_text_summary(value)]))
"""


def rich_plugin(tmp_path: Path) -> Path:
    folder = tmp_path / NAME
    folder.mkdir()
    (folder / "plugin.yaml").write_text(
        f"name: {NAME}\nversion: 0.1.0\nkind: standalone\n"
        "provides_tools: [krich_chart, krich_huge, krich_own]\n",
        encoding="utf-8",
    )
    (folder / "__init__.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (folder / "chart.png").write_bytes(PNG)
    (folder / "data.csv").write_text("city,rain\nParis,12\n", encoding="utf-8")
    (folder / "report.pdf").write_bytes(b"%PDF-1.4 not really")
    return folder


def hermes_reads(value: Any) -> list[Any]:
    """What this release's own multimodal helpers make of ``value``."""
    done = subprocess.run(
        [sys.executable, "-c", HERMES_READS],
        input=json.dumps(value),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    found: list[Any] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_a_rich_result_reaches_hermes_as_its_multimodal_envelope(tmp_path: Path) -> None:
    with RealHost() as host:
        host.load(rich_plugin(tmp_path))
        out = host.call_tool("krich_chart", {"city": "Paris"}, task_id="t")
    assert isinstance(out, dict), out
    assert out["_multimodal"] is True
    text, image, table, pdf = out["content"]
    # the plugin runs from where hermes installed it, under its home
    installed = re.fullmatch(
        r"\[file report\.pdf \(application/pdf, 19 bytes\) at (.+)\]", pdf["text"]
    )
    assert installed is not None, pdf
    where = Path(installed[1]).parent
    assert where.parts[-2:] == ("plugins", NAME)
    csv = f"[file data.csv (text/csv, 19 bytes) at {where / 'data.csv'}]"
    assert text == {"type": "text", "text": "The chart of Paris"}
    assert image == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64," + base64.b64encode(PNG).decode()},
    }
    assert table == {"type": "text", "text": csv + "\ncity,rain\nParis,12\n"}
    assert pdf["type"] == "text"
    is_multimodal, summary = hermes_reads(out)
    assert is_multimodal is True
    assert summary == "\n".join(
        ["The chart of Paris", "[image chart.png (image/png, 70 bytes)]", csv, pdf["text"]]
    )


def test_hermes_own_envelope_is_passed_on_and_a_huge_image_is_refused(tmp_path: Path) -> None:
    with RealHost() as host:
        host.load(rich_plugin(tmp_path))
        own = host.call_tool("krich_own", {"city": "Oslo"}, task_id="t")
        huge = host.call_tool("krich_huge", {"city": "Oslo"}, task_id="t")
    assert own == {
        "_multimodal": True,
        "content": [{"type": "text", "text": "Oslo"}],
        "text_summary": "Oslo",
    }
    assert isinstance(huge, str), huge
    assert json.loads(huge) == {
        "success": False,
        "error": "krich_huge failed: the image 'huge.png' is 16.0 MiB, over the 15.0 MiB hermes"
        " passes to a model as a data URL; scale it down, or return it by URL (Image.from_url)",
        "error_code": "result_too_large",
    }
