"""What ``call`` prints of a tool's answer: the answer itself, with the base64 of each
image of hermes' multimodal envelope left out (a data URL can be megabytes)."""

from __future__ import annotations

import json
from typing import Any, cast

from kit_devtools.testing._pipeline import multimodal

__all__ = ["model_view"]


def _part(part: object) -> object:
    """``part`` with a ``data:`` image URL shortened to its type and size."""
    if not isinstance(part, dict):
        return part
    found = cast("dict[str, Any]", part)
    image: Any = found.get("image_url")
    url: Any = cast("dict[str, Any]", image).get("url") if isinstance(image, dict) else None
    if found.get("type") != "image_url" or not isinstance(url, str) or not url.startswith("data:"):
        return found
    header, _, data = url.partition(",")
    shown = f"{header},… ({len(data) * 3 // 4} bytes, not shown)"
    return {**found, "image_url": {**cast("dict[str, Any]", image), "url": shown}}


def model_view(out: Any) -> tuple[str, str | None]:
    """The answer as ``call`` prints it, and a note on how hermes hands it to the model
    (None for a plain answer)."""
    envelope = multimodal(out)
    if envelope is None:
        return (out if isinstance(out, str) else json.dumps(out, default=repr)), None
    content = cast("list[Any]", envelope["content"])
    shown = {**envelope, "content": [_part(p) for p in content]}
    note = (
        "hermes' multimodal envelope: a model that reads images gets the content parts,"
        " any other the text_summary"
    )
    return json.dumps(shown, ensure_ascii=False, default=repr), note
