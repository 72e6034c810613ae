"""media-postcard's tool declared by its typed signature instead of ``params=``.

The same tool as ``tools.py`` (the tests compare what hermes sends the model for
both): the arguments come from the signature and the docstring, hermes' own keywords
(``task_id``, ``session_id``, ...) reach ``**kwargs`` and go on to ``deliver_media``.
"""

from __future__ import annotations

from typing import Annotated, Any

from hermes_plugin_kit import Arg, MediaDeliveryResult, tool, tool_name

from .tools import send


@tool(toolset="media-postcard", namespace="postcard", name=tool_name("postcard", "send", "picture"))
def send_picture(
    picture: Annotated[str, Arg(example="harbour.png")],
    caption: Annotated[str, Arg(max_length=200)] = "",
    spoiler: bool = False,
    **kwargs: Any,
) -> MediaDeliveryResult:
    """Send a picture from the album to the chat the user is talking from.

    Args:
        picture: File name of a picture in the album
        caption: A short caption
        spoiler: Hide the picture behind a spoiler (Telegram only)
    """
    return send(picture, caption, spoiler, kwargs)
