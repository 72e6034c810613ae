"""The one exception kit-media raises on purpose.

``MediaError`` means the *caller* passed something kit-media cannot use: a value of the
wrong type, a payload that breaks a rule (relative path, missing file, a path hermes
would read back from its ``MEDIA:`` line as another file, voice that is not ogg/opus,
spoiler on a non-image), or a malformed or secret-shaped delivery target. Its message
names the problem and the fix.

Problems that depend on the host at delivery time (no current chat, hermes not
importable, a blocking ``pre_tool_call`` hook, a failed send) are never raised by
:func:`kit_media.deliver_media`: they come back as ``MediaDeliveryResult(success=False)``
with the reason.
"""

from __future__ import annotations

from kit_core import KitError

__all__ = ["MediaError"]


class MediaError(KitError, ValueError):
    """A media payload, delivery target or argument cannot be used as given."""
