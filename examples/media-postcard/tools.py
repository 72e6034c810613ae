"""The media-postcard tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hermes_plugin_kit import (
    MediaDeliveryResult,
    MediaPayload,
    bool_arg,
    deliver_media,
    str_arg,
    tool,
    tool_name,
)

ALBUM = Path(__file__).parent / "album"


@tool(
    toolset="media-postcard",
    namespace="postcard",
    name=tool_name("postcard", "send", "picture"),
    params={
        "picture": str_arg(
            "File name of a picture in the album", required=True, example="harbour.png"
        ),
        "caption": str_arg("A short caption", maxLength=200, default=""),
        "spoiler": bool_arg("Hide the picture behind a spoiler (Telegram only)", default=False),
    },
)
def send_picture(args: dict[str, Any], **kwargs: Any) -> MediaDeliveryResult:
    """Send a picture from the album to the chat the user is talking from."""
    return send(args["picture"], args["caption"], args["spoiler"], kwargs)


def send(picture: str, caption: str, spoiler: bool, context: dict[str, Any]) -> MediaDeliveryResult:
    """Deliver an album picture to the chat of the call whose hermes keywords are
    ``context`` (shared with the typed declaration in ``typed.py``)."""
    path = (ALBUM / picture).resolve()
    if path.parent != ALBUM.resolve() or not path.is_file():
        available = ", ".join(sorted(p.name for p in ALBUM.iterdir()))
        msg = f"no picture {picture!r} in the album; available: {available}"
        raise ValueError(msg)
    payload = MediaPayload(path, caption=caption, spoiler=spoiler)
    # returned as it is: a failed delivery reaches the model as an error envelope
    return deliver_media(payload, target="origin", **context)
