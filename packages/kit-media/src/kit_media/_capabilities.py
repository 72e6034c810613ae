"""Host capabilities kit-media needs beyond the guard, asked of the running hermes.

When the running hermes lacks one, kit-media does not use it, and says which release
first has it: the release is taken from the kit's host model
(``kit_core._host_model``, ``HostRelease.functions``), never written here.
"""

from __future__ import annotations

import sys
from typing import Any, Final

from kit_core._host_model import first_release
from kit_media._host import HostUnavailableError, import_host

SILENCE_FUNCTION: Final = "gateway.response_filters.is_intentional_silence_response"
"""The gateway's silence filter: a final reply it judges silent is not delivered."""

MEDIA_POLICY_FUNCTION: Final = "gateway.platforms.base.validate_media_delivery_path"
"""hermes' media delivery policy: which local files it agrees to send."""

CAPTION_FUNCTION: Final = "tools.send_message_tool._media_caption_split"
"""``send_message``'s one decision whether a message's text rides on its single media
file as the caption (0.19.0 ``tools/send_message_tool.py`` 86-123, used for Telegram at
876-880); before it, the text always went out as a message of its own."""

SILENCE_TOKEN: Final = "NO_REPLY"
"""hermes' silence token, ``gateway.response_filters.SILENT_REPLY_TOKEN`` from 0.17.0 (0.19.0
``gateway/response_filters.py`` L14). Written out, not read from the host model, so that
importing kit-media does not build the model; a test holds it to the model's
``HostRelease.silence_token`` on every release that has one."""


def first_offering(function: str) -> str:
    """``"hermes-agent 0.17.0 or newer"``: the oldest modelled release that has
    ``function`` (a ``HostRelease.functions`` name)."""
    release = first_release(lambda r: function in r.functions)
    return f"{release.label} or newer" if release is not None else "a newer hermes-agent"


def silence_unsupported() -> str | None:
    """``None`` when the running gateway drops a final reply of :data:`SILENCE_TOKEN`;
    otherwise why the kit must not arm suppression (the note for the result).

    The host's own filter is asked about the token (``is_intentional_silence_response``,
    0.17.0 ``gateway/response_filters.py``). Before it, the gateway delivered every final
    reply, so the token would reach the user as text: the kit arms nothing there.
    """
    try:
        filters = import_host("gateway.response_filters")
    except HostUnavailableError:
        filters = None
    judge = getattr(filters, "is_intentional_silence_response", None)
    try:
        honoured = callable(judge) and judge(SILENCE_TOKEN) is True
    except Exception:  # a filter that fails is not one the kit can rely on
        honoured = False
    if honoured:
        return human_turn_guard_note(filters)
    return (
        "the final reply of this turn will be sent as usual: this hermes has no silence"
        f" filter ({SILENCE_FUNCTION}) that drops a {SILENCE_TOKEN!r} reply, so no"
        " suppression was armed (the token would reach the user as text); final-reply"
        f" suppression needs {first_offering(SILENCE_FUNCTION)}"
    )


def caption_unsupported() -> str | None:
    """``None`` when the running ``send_message`` can put a caption on the file; else
    why a captioned payload is refused (the caption would be a second message).

    Raises:
        HostUnavailableError: ``tools.send_message_tool`` cannot be imported.
    """
    module = import_host("tools.send_message_tool")
    if callable(getattr(module, CAPTION_FUNCTION.rpartition(".")[2], None)):
        return None
    return (
        "this hermes' send_message cannot put a caption on a file: it would send the"
        " caption as a message of its own before the file, so nothing was sent; captions"
        f" ride on the file in {first_offering(CAPTION_FUNCTION)}: deliver without a"
        " caption (and send the text yourself), or as a voice note"
    )


def media_policy_missing() -> str:
    """Why a delivery that needs hermes' media policy was refused on this hermes."""
    return (
        f"hermes' media path policy ({MEDIA_POLICY_FUNCTION}) is not available in this"
        " hermes, and this delivery bypasses send_message's own handling, so nothing was"
        f" sent: spoiler photos need {first_offering(MEDIA_POLICY_FUNCTION)}"
    )


HUMAN_TURN_PREDICATES: Final = (
    "silence_allowed",
    "allows_final_silence",
    "is_machinery_display_kind",
)
"""The human-turn silence predicates of upstream's ``gateway/response_filters.py``, newest
first: ``silence_allowed(display_kind, reply_expected=None)`` (imported by
``gateway/run_turn.py`` L28-30 at 0107e0399523cf47587bf248d7e9027b7cd1c3df),
``allows_final_silence(agent_result, display_kind, heartbeat_turn=False)`` (L118-128 at
06202cddf797e761f2905c0c088129e2683ff7b7) and ``is_machinery_display_kind(display_kind)``
(L108 at 06202cdd, the predicate of PR #111624 as merged)."""

HUMAN_TURN_NOTE: Final = (
    "the file is already in the chat; end this turn with one short sentence and no"
    " MEDIA: line, file path or link. The final reply of this turn will be sent: this"
    " hermes does not let a person's turn end in silence (its gateway answers a"
    f" {SILENCE_TOKEN!r} reply with a visible 'unexpected silence' message instead), so no"
    " suppression was armed"
)
"""``MediaDeliveryResult.suppression_note`` on a gateway with the human-turn silence guard;
the model reads it in the tool result."""


def human_turn_may_be_silent(filters: Any) -> bool:
    """Whether the running gateway lets an ordinary human turn end in a silence marker.

    Asked of the gateway's own predicate (see :data:`HUMAN_TURN_PREDICATES`) for a healthy,
    completed turn of no display kind (a person's message), with no ``reply_expected``
    (unknown) and not a heartbeat. Without a predicate, a loaded ``gateway.run_turn`` that
    has the fallback text (``_unexpected_silence_reply`` or ``_UNEXPECTED_SILENCE_REPLY``)
    means the guard is there all the same; it is looked up, never imported. A predicate
    that fails or has a signature the kit does not know counts as the guard (no silence).
    """
    healthy = {"failed": False, "completed": True}
    calls: dict[str, tuple[Any, ...]] = {
        "silence_allowed": (None, None),
        "allows_final_silence": (healthy, None, False),
        "is_machinery_display_kind": (None,),
    }
    for name in HUMAN_TURN_PREDICATES:
        predicate = getattr(filters, name, None)
        if callable(predicate):
            try:
                return predicate(*calls[name]) is True
            except Exception:  # a predicate the kit cannot ask: assume the guard
                return False
    run_turn = sys.modules.get("gateway.run_turn")
    fallback = ("_unexpected_silence_reply", "_UNEXPECTED_SILENCE_REPLY")
    return not any(hasattr(run_turn, name) for name in fallback)


def human_turn_guard_note(filters: Any) -> str | None:
    """``None`` when a person's turn may end in silence here; else :data:`HUMAN_TURN_NOTE`."""
    return None if human_turn_may_be_silent(filters) else HUMAN_TURN_NOTE
