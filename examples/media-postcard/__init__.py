"""media-postcard: send an image to the current chat through hermes' send_message."""

from hermes_plugin_kit import MEDIA_DELIVERY_HOOKS, register_plugin

from . import tools


def register(ctx):
    """Register the tool and the hooks that silence the model's reply after a delivery."""
    return register_plugin(ctx, [tools.send_picture, *MEDIA_DELIVERY_HOOKS])
