"""The contract plugin's one tool: deliver a file with kit-media from inside a real tool call."""

from __future__ import annotations

from typing import Any

from kit_core import bool_arg, str_arg, tool
from kit_media import MediaDeliveryResult, MediaPayload, deliver_media


@tool(
    toolset="kit_media_contract",
    name="kitm_deliver",
    params={
        "path": str_arg("Absolute path of the file", required=True, example="/tmp/cat.png"),
        "media_type": str_arg("How to send it", enum=("auto", "voice", "document")),
        "target": str_arg("Where to send it", example="origin"),
        "spoiler": bool_arg("Send as a Telegram spoiler photo"),
    },
)
def kitm_deliver(args: dict[str, Any], **runtime_context: Any) -> MediaDeliveryResult:
    """Deliver one file to the current chat (or a target) and report what happened."""
    payload = MediaPayload(
        args["path"], args.get("media_type") or "auto", spoiler=bool(args.get("spoiler"))
    )
    return deliver_media(payload, args.get("target") or "origin", **runtime_context)
