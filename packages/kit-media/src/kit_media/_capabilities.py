"""Host capabilities kit-media needs beyond the guard, asked of the running hermes.

When the running hermes lacks one, kit-media does not use it, and says which release
first has it: the release is taken from the kit's host model
(``kit_core.hermes``, ``HostRelease.functions``), never written here.
"""

from __future__ import annotations

from typing import Any, Final

from kit_core._running_host import running_label
from kit_media._host import HostUnavailableError, first_offering, import_host

SILENCE_FUNCTION: Final = "gateway.response_filters.is_intentional_silence_response"
"""The gateway's silence filter: a final reply it judges silent is not delivered."""

MEDIA_POLICY_FUNCTION: Final = "gateway.platforms.base.validate_media_delivery_path"
"""hermes' media delivery policy: which local files it agrees to send."""

CAPTION_FUNCTION: Final = "tools.send_message_tool._media_caption_split"
"""``send_message``'s one decision whether a message's text rides on its single media
file as the caption (used for Telegram); before it, the text always went out as a message of its
own."""

SILENCE_TOKEN: Final = "NO_REPLY"
"""The silence marker the kit answers with: one of the gateway's
``gateway.response_filters.LIVE_GATEWAY_SILENT_MARKERS`` on every release with a silence
filter, and its ``SILENT_REPLY_TOKEN`` from 0.17.0 to 0.21.5 (0.21.5's a compatibility
pointer; 0.22.2 has no such constant, so the kit never reads it). Written out, not read from the
host model, so that importing kit-media does not build the model; a test holds it to the model's
``HostRelease.silence_token`` on every release that has one."""


def silence_unsupported() -> tuple[str, str] | None:
    """``None`` when the running gateway drops a final reply of :data:`SILENCE_TOKEN` on
    this turn; otherwise ``(reason, note)``: why the kit must not arm suppression
    (``no_silence_filter`` or ``human_turn_guard``) and the note for the result.

    The host's own filter is asked about the token (``is_intentional_silence_response``,
    0.17.0 ``gateway/response_filters.py``). Before it, the gateway delivered every final
    reply, so the token would reach the user as text: the kit arms nothing there. With it,
    the gateway's human-turn guard is asked next (:func:`human_turn_guard`).
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
        predicate = human_turn_guard(filters)
        if predicate is None:
            return None
        return "human_turn_guard", human_turn_note(running_label(), predicate)
    return (
        "no_silence_filter",
        "the final reply of this turn will be sent as usual:"
        f" {running_label()} has no silence filter ({SILENCE_FUNCTION}) that drops a"
        f" {SILENCE_TOKEN!r} reply, so no suppression was armed (the token would reach the"
        f" user as text); final-reply suppression needs {first_offering(SILENCE_FUNCTION)}",
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


HUMAN_TURN_PREDICATES: Final[dict[str, tuple[Any, ...]]] = {
    "silence_allowed": (None, None),
    "is_machinery_display_kind": (None,),
}
"""The gateway's human-turn silence predicates (``HostRelease.silence_predicates``), the
one the gateway decides with first, each with the arguments that describe a person's
turn: ``gateway.response_filters.silence_allowed(display_kind, reply_expected=None)``
(0.22.2) for a turn of no display kind whose adapter did not say whether it needs a reply
(the kit cannot know), and ``is_machinery_display_kind(display_kind)`` (0.21.4 and 0.21.5)
for a turn of no display kind; ``gateway.run_turn`` asks them. 0.21.3 and older have neither: a
person's turn may end silent there."""


def human_turn_guard(filters: Any) -> str | None:
    """The predicate by which the running gateway keeps a person's turn from ending in a
    silence marker (``gateway.response_filters.<name>``), or ``None`` when it does not.

    Asked of the loaded ``gateway.response_filters`` itself (see
    :data:`HUMAN_TURN_PREDICATES`), never of a release number. A predicate that fails
    counts as the guard (no silence): the kit cannot tell what the gateway would decide.
    """
    for name, arguments in HUMAN_TURN_PREDICATES.items():
        predicate = getattr(filters, name, None)
        if callable(predicate):
            try:
                allowed = predicate(*arguments) is True
            except Exception:  # a predicate the kit cannot ask: assume the guard
                allowed = False
            return None if allowed else name
    return None


def human_turn_note(hermes: str, predicate: str) -> str:
    """``MediaDeliveryResult.suppression_note`` on a gateway with the human-turn silence
    guard (``hermes`` names the running release); the model reads it in the tool result."""
    return (
        "the file is already in the chat; end this turn with one short sentence and no"
        " MEDIA: line, file path or link. The final reply of this turn will be sent:"
        f" {hermes} does not let a person's turn end in silence (its gateway answers a"
        f" {SILENCE_TOKEN!r} reply with a visible 'unexpected silence' message instead,"
        f" gateway.response_filters.{predicate}), so no suppression was armed"
    )
