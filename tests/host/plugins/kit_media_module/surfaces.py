"""Everything kit_media_module declares: one tool, and kit-media's two hooks by import."""

from __future__ import annotations

from typing import Any

from kit_core import str_arg, tool
from kit_media import MEDIA_DELIVERY_HOOKS, MediaPayload, deliver_media

__all__ = ["MEDIA_DELIVERY_HOOKS", "kitmm_send"]


@tool(
    toolset="kit_media_module",
    name="kitmm_send",
    params={"path": str_arg("Absolute path of the file", required=True, example="/tmp/cat.png")},
)
def kitmm_send(args: dict[str, Any], **runtime_context: Any) -> dict[str, Any]:
    """Send one file to the current chat and report what happened."""
    return deliver_media(MediaPayload(args["path"]), "origin", **runtime_context).as_dict()
