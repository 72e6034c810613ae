"""``deliver_media``: send one file through hermes, and say truthfully what happened.

**The one error rule.** ``deliver_media`` raises :class:`~kit_media.MediaError` only for
what the caller passed: a ``payload`` that is not a :class:`~kit_media.MediaPayload`, a
payload whose file has since disappeared or emptied (or whose path hermes would now read
as another file), or a ``target`` that is not a well-formed target string. Everything
that depends on the host at delivery time comes back as
``MediaDeliveryResult(success=False, reason=...)``: no current chat for
``origin``, hermes not importable, no guard API, a blocking ``pre_tool_call`` hook, a path
hermes' media policy refuses, a ``MEDIA:`` line the running hermes would read as another
file (asked of its own ``extract_media``), a spoiler to a route that cannot carry one, and
every failed send. A host reply counts as a success only when it is a JSON object with
``"success": true`` and no ``error``, ``warnings`` (media dropped) or ``skipped``.

**Privacy.** Results and logs never hold a raw chat or thread id, nor the bot token.
Every reason and host reply goes through one exit that redacts secrets and then masks
ids to their last four characters (``telegram:…7890:…7585``): the ids of the route,
and every id-shaped token in host text, such as a home channel's id or the new chat id
of a Telegram "chat migrated" error (see :mod:`kit_media._privacy`). INFO logs name the
file, never its folder.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, cast

from kit_core import ToolFailure
from kit_media._capabilities import (
    caption_unsupported,
    media_policy_missing,
    silence_unsupported,
)
from kit_media._checks import check_deliverable_file
from kit_media._guard import load_guard
from kit_media._host import HostRefusal, import_host
from kit_media._media_tag import check_host_reads_back, same_file
from kit_media._privacy import route_ids, scrub_host_result, scrub_text
from kit_media._session import NO_SESSION_NOTE, delivery_session
from kit_media._telegram import require_telegram_route, send_spoiler_photo
from kit_media.errors import MediaError
from kit_media.host import invoke_host_tool
from kit_media.payload import MediaPayload, MediaType
from kit_media.suppression import arm_final_response_suppression
from kit_media.targets import ResolvedDeliveryTarget, parse_delivery_target, resolve_origin

__all__ = ["MediaDeliveryResult", "deliver_media"]

logger = logging.getLogger("kit_media.delivery")

FAILED_CODE: Final = "media_delivery_failed"
"""The ``error_code`` a kit tool answers with when it returns a failed delivery."""

_POLICY_REFUSED = (
    "hermes' media policy refuses to deliver this file (a system or credential location,"
    " or outside the allowed media folders in strict media mode, HERMES_MEDIA_ALLOW_DIRS):"
    " write the file somewhere hermes delivers from, such as its cache or a temp folder"
)


@dataclass(frozen=True, slots=True)
class MediaDeliveryResult:
    """What happened to one delivery; safe to return to the model (see ``as_dict``)."""

    success: bool
    media_type: MediaType
    path: Path
    requested_target: str
    """``origin``, the platform name (home channel), or the masked explicit route."""
    display_target: str
    """The masked route actually used, e.g. ``telegram:…7890:…7585``."""
    spoiler: bool
    host_result: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The host's reply with ids masked and secrets redacted; empty if it was never asked."""
    reason: str | None = None
    """Why the delivery failed (redacted); ``None`` on success."""
    suppression_armed: bool = False
    """Whether this delivery armed the one-time suppression of its session's final reply
    (only a successful delivery that names its session does; see :mod:`kit_media._session`)."""
    suppression_note: str | None = None
    """Why a successful delivery armed nothing, so that the final reply is sent as usual;
    ``None`` when it armed, and for a failed delivery (which never arms)."""

    def tool_failure(self) -> ToolFailure | None:
        """For a failed delivery, what a kit tool returning this result tells the model:
        ``{"success": false, "error": "<tool> failed: could not deliver <file> to
        <target>: <reason>", "error_code": "media_delivery_failed"}`` (and the call is
        logged as failed); ``None`` for a success, which keeps the success envelope.
        """
        if self.success:
            return None
        return ToolFailure(
            f"could not deliver {self.path.name} to {self.display_target}:"
            f" {self.reason or 'the host gave no reason'}",
            FAILED_CODE,
        )

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready copy: ``success, requested_target, display_target, media_type,
        path, host_result, spoiler, reason, suppression_armed, suppression_note``."""
        return {
            "success": self.success,
            "requested_target": self.requested_target,
            "display_target": self.display_target,
            "media_type": self.media_type.value,
            "path": str(self.path),
            "host_result": copy.deepcopy(dict(self.host_result)),
            "spoiler": self.spoiler,
            "reason": self.reason,
            "suppression_armed": self.suppression_armed,
            "suppression_note": self.suppression_note,
        }


def deliver_media(
    payload: MediaPayload, target: str = "origin", **runtime_context: Any
) -> MediaDeliveryResult:
    """Deliver ``payload`` to ``target`` through hermes' ``send_message`` (guarded).

    Args:
        payload: the file and how to send it.
        target: ``"origin"`` (the current chat), ``"<platform>"`` (its home channel) or
            ``"<platform>:<chat>[:<thread>]"``.
        **runtime_context: the keyword arguments hermes passed to your tool handler
            (``session_id``, ``task_id``, ...). ``session_id`` names the session whose
            final reply is suppressed; all five call-identity keys go to the guard hooks.

    Returns:
        The typed result. On success, the final reply of the session this call names is
        suppressed once (register :data:`~kit_media.MEDIA_DELIVERY_HOOKS`): the
        ``session_id`` keyword, else the ``HERMES_SESSION_ID`` hermes bound for this turn
        in the current context, never a process-wide value. When neither names one,
        nothing is armed and ``suppression_note`` says so (``suppression_armed`` is
        ``False``); the final reply is then sent as usual.

    Raises:
        MediaError: only for invalid input (see the module docstring).
    """
    if not isinstance(payload, MediaPayload):
        msg = (
            f"deliver_media needs a MediaPayload, got {type(payload).__name__}:"
            " build one with MediaPayload(path, media_type)"
        )
        raise MediaError(msg)
    parsed = parse_delivery_target(target)
    check_deliverable_file(payload.path, at_delivery=True)
    requested = "origin" if parsed is None else parsed.requested
    try:
        resolved = resolve_origin() if parsed is None else parsed
    except HostRefusal as exc:
        return _finish(payload, requested, requested, _Outcome(reason=str(exc)))
    logger.info(
        "event=media_delivery_started target=%s media_type=%s file=%s spoiler=%s",
        resolved.display,
        payload.media_type.value,
        payload.file_name,
        payload.spoiler,
    )
    ids = route_ids(resolved.chat_ref)
    try:
        reply, raw_ids = _send(payload, resolved, runtime_context)
    except HostRefusal as exc:
        return _finish(payload, requested, resolved.display, _Outcome(reason=str(exc), ids=ids))
    except Exception as exc:  # a host that changed shape must not break the caller
        logger.error("event=media_delivery_error error_type=%s", type(exc).__name__)
        reason = f"kit-media could not complete the delivery: {type(exc).__name__}"
        return _finish(payload, requested, resolved.display, _Outcome(reason=reason, ids=ids))
    outcome = _interpret(reply, [*ids, *raw_ids])
    if outcome.success:
        outcome = _arm_suppression(outcome, delivery_session(runtime_context))
    return _finish(payload, requested, resolved.display, outcome)


def _arm_suppression(outcome: _Outcome, session: str | None) -> _Outcome:
    """Arm the final-reply suppression of ``session`` after a successful delivery, or say
    why not: the call named no session, or the running gateway would send the silence
    token as text (see :func:`kit_media._capabilities.silence_unsupported`)."""
    if session is None:
        logger.warning("event=media_final_response_suppression_unavailable reason=no_session_id")
        return replace(outcome, suppression_note=NO_SESSION_NOTE)
    unsupported = silence_unsupported()
    if unsupported is not None:
        reason, note = unsupported
        logger.warning("event=media_final_response_suppression_unavailable reason=%s", reason)
        return replace(outcome, suppression_note=note)
    if arm_final_response_suppression(session):
        return replace(outcome, suppression_armed=True)
    return replace(outcome, suppression_note=NO_SESSION_NOTE)


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What the host said, raw: :func:`_finish` makes it safe to show."""

    success: bool = False
    reason: str | None = None
    host_result: dict[str, Any] = field(default_factory=dict[str, Any])
    ids: list[str] = field(default_factory=list[str])
    """Raw ids the kit knows the host may echo (the route's, the spoiler chat's)."""
    suppression_armed: bool = False
    suppression_note: str | None = None


def _send(
    payload: MediaPayload, target: ResolvedDeliveryTarget, context: dict[str, Any]
) -> tuple[str, tuple[str, ...]]:
    """The host's reply (JSON text) and raw ids it may echo; raises HostRefusal."""
    if payload.spoiler:
        require_telegram_route(target)  # about the request: said before any host question
    accepted = _host_accepts(payload.path, required=payload.spoiler)
    if payload.spoiler:
        guard, refused = load_guard()
        if guard is None:
            return refused or "", ()
        return send_spoiler_photo(payload, accepted, target, context, guard)
    if payload.caption and payload.media_type is not MediaType.VOICE:
        refused = caption_unsupported()
        if refused is not None:
            raise HostRefusal(refused)
    message = payload.to_message()
    check_host_reads_back(message, payload.path, voice=payload.media_type is MediaType.VOICE)
    args = {"action": "send", "target": target.host_target, "message": message}
    return invoke_host_tool("send_message", args, **context), ()


def _host_accepts(path: Path, *, required: bool) -> Path:
    """Ask hermes' own media policy (``validate_media_delivery_path``) about ``path``.

    ``send_message`` would drop a refused path silently and still send any caption, so
    the kit asks first. ``required``: refuse when the policy check itself is missing
    (the spoiler path bypasses ``send_message``'s own filter). An answer naming another
    file is a refusal too: the spoiler path uploads the file the policy answered for.
    """
    base = import_host("gateway.platforms.base")
    validate = getattr(base, "validate_media_delivery_path", None)
    if not callable(validate):
        if required:
            raise HostRefusal(media_policy_missing())
        return path
    accepted = validate(str(path))
    if not isinstance(accepted, str) or not accepted:
        raise HostRefusal(_POLICY_REFUSED)
    if not same_file(accepted, path):  # hermes trims what it validates, as in MEDIA: tags
        msg = (
            f"hermes' media policy answered for {Path(accepted).name!r}, not {path.name!r},"
            " so nothing was sent: rename the file so that its name ends in its extension"
        )
        raise HostRefusal(msg)
    return Path(accepted)


def _interpret(reply: str, ids: list[str]) -> _Outcome:
    """Only an explicit, clean success counts."""
    try:
        parsed = json.loads(reply)
    except (TypeError, ValueError):
        reason = "the host's reply was not valid JSON"
        return _Outcome(False, reason, {"reply": str(reply)[:200]}, ids)
    if not isinstance(parsed, dict):
        kind = type(parsed).__name__
        reason = f"the host's reply was a JSON {kind}, not an object"
        return _Outcome(False, reason, {"reply": parsed}, ids)
    data: dict[str, Any] = parsed  # pyright: ignore[reportUnknownVariableType]
    reason = _failure(data)
    return _Outcome(reason is None, reason, data, ids)


def _failure(data: dict[str, Any]) -> str | None:
    """Why a JSON object reply is no clean success, or ``None``."""
    warnings = _warnings(data)
    if data.get("error"):
        detail = f" ({warnings})" if warnings else ""
        return f"{data['error']}{detail}"
    if data.get("success") is not True:
        return "the host's reply did not report success"
    if data.get("skipped"):
        why = data.get("reason") or "skipped"
        return f"the host skipped the send ({why}): nothing was delivered now"
    if warnings:
        return f"the host sent the message but not all media: {warnings}"
    return None


def _warnings(data: dict[str, Any]) -> str:
    warnings = data.get("warnings")
    if not warnings:
        return ""
    items = cast("list[object]", warnings) if isinstance(warnings, list) else [warnings]
    return "; ".join(map(str, items))


def _finish(
    payload: MediaPayload, requested: str, display: str, outcome: _Outcome
) -> MediaDeliveryResult:
    """The one exit: every reason and host reply is scrubbed here (secrets redacted, then
    known raw ids and every id-shaped token masked), for the result and for the log."""
    raw_reason = outcome.reason
    result = MediaDeliveryResult(
        success=outcome.success,
        media_type=payload.media_type,
        path=payload.path,
        requested_target=requested,
        display_target=display,
        spoiler=payload.spoiler,
        host_result=MappingProxyType(scrub_host_result(outcome.host_result, outcome.ids)),
        reason=None if raw_reason is None else scrub_text(raw_reason, outcome.ids),
        suppression_armed=outcome.suppression_armed,
        suppression_note=outcome.suppression_note,
    )
    reason = scrub_text(_without_folders(raw_reason or "", payload.path), outcome.ids)
    logger.log(
        logging.INFO if outcome.success else logging.WARNING,
        "event=media_delivery_completed target=%s media_type=%s file=%s success=%s%s",
        display,
        payload.media_type.value,
        payload.file_name,
        outcome.success,
        "" if outcome.success else f" reason={reason}",
    )
    return result


def _without_folders(text: str, path: Path) -> str:
    """``text`` with the file's full path (as given and as resolved) cut to its name."""
    for form in {str(path), str(path.resolve())}:
        text = text.replace(form, path.name)
    return text
