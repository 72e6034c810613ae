"""The gateway of a real hermes release, as kit-media's fakes play it, by version.

``gateway.response_filters`` offers the human-turn silence guard's predicates from 0.21.4
(``HostRelease.silence_predicates``: ``display_kind_for_event`` and
``is_machinery_display_kind`` on 0.21.4 and 0.21.5, and ``silence_allowed`` on 0.22.2),
and ``SILENT_REPLY_TOKEN`` where the release has a silence token (0.17.0-0.21.5). The
predicates, the fallback text and the gateway's delivery decision are the in-memory host's
own (``kit_devtools.testing._upstream_gateway``), written from the installed packagings'
``gateway/response_filters.py`` and ``gateway/run_turn.py``.
"""

from __future__ import annotations

from typing import Any

from kit_core.hermes import HostRelease, registry_release
from kit_devtools.testing._upstream_gateway import (
    final_delivery,
    members,
    unexpected_silence_reply,
)

__all__ = [
    "final_delivery",
    "release",
    "response_filters_members",
    "unexpected_silence_reply",
]


def release(version: str) -> HostRelease:
    """The host model's release of ``version`` (a test names only releases it holds)."""
    found = registry_release(version)
    assert found is not None, f"the host model holds no hermes {version}"
    return found


def response_filters_members(version: str) -> dict[str, Any]:
    """What ``gateway.response_filters`` of ``version`` offers besides its silence filter:
    the guard's predicates and constants, and ``SILENT_REPLY_TOKEN`` where it has one."""
    played = release(version)
    token = {"SILENT_REPLY_TOKEN": played.silence_token} if played.silence_token else {}
    return {**members(played), **token}
