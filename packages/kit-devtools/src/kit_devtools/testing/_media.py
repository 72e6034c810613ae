"""The in-memory host's recorded ``send_message`` and hermes' media path policy.

``send_message`` records what it was asked (``InMemoryHost.sent_messages``) and answers
like hermes' ``tools/send_message_tool.py`` does for a successful send, without any
platform: ``{"success": true, "platform", "chat_id", "message_id"}``, or the host's
error for a missing target or message and for a platform with no home channel.
``InMemoryHost.send_message_reply`` replaces the answer when a test needs another.
"""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path
from typing import Any, Final

from kit_devtools.testing._coerce import as_dict

_DENIED_PREFIXES: Final = (
    "/etc", "/proc", "/sys", "/dev", "/root", "/boot", "/var/log", "/var/lib", "/var/run",
)  # fmt: skip
_DENIED_HOME: Final = (
    ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config", ".azure", ".gcloud",
    "Library/Keychains",
)  # fmt: skip
_CHAT_AND_THREAD = re.compile(r"^(-?\d+):(\d+)$")


def send_message(host: Any, args: Any, **_kwargs: Any) -> str:
    """Record one ``send_message_tool(args, **kw)`` call and answer it."""
    recorded: dict[str, Any] = copy.deepcopy(as_dict(args) or {})
    host.sent_messages.append(recorded)
    custom = host.send_message_reply
    if custom is not None:
        reply = custom(copy.deepcopy(recorded))
        return reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
    action = recorded.get("action", "send")
    if action != "send":
        return json.dumps(
            {"error": f"send_message action {action!r} is not simulated by the in-memory host"}
        )
    target, message = recorded.get("target", ""), recorded.get("message", "")
    if not target or not message:
        error = "Both 'target' and 'message' are required when action='send'"
        return json.dumps({"error": error}, ensure_ascii=False)
    platform, _, ref = str(target).partition(":")
    platform, ref = platform.strip().lower(), ref.strip()
    found = _CHAT_AND_THREAD.match(ref)
    chat_id = found[1] if found is not None else ref
    if not chat_id:
        variable = f"{platform.upper()}_HOME_CHANNEL"
        chat_id = host.session_env.get(variable) or os.getenv(variable, "")
        if not chat_id:
            error = (
                f"No home channel set for {platform} to determine where to send the message. "
                f"Either specify a channel directly with '{platform}:CHANNEL_NAME', "
                f"or set a home channel via: hermes config set {variable} <channel_id>"
            )
            return json.dumps({"error": error})
    number = len(host.sent_messages)
    reply = {"success": True, "platform": platform, "chat_id": chat_id, "message_id": str(number)}
    return json.dumps(reply)


def validate_media_delivery_path(path: Any) -> str | None:
    """hermes' default (non-strict) media policy: an absolute path to an existing regular
    file, outside system and credential folders; the resolved path, or None."""
    if not path:
        return None
    candidate = str(path).strip()
    if len(candidate) >= 2 and candidate[0] == candidate[-1] and candidate[0] in "`\"'":
        candidate = candidate[1:-1].strip()
    candidate = candidate.lstrip("`\"'").rstrip("`\"',.;:)}]")
    if not candidate:
        return None
    try:
        expanded = Path(os.path.expanduser(candidate))
        if not expanded.is_absolute():
            return None
        resolved = expanded.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return None
    if not resolved.is_file() or _denied(resolved):
        return None
    return str(resolved)


def _denied(resolved: Path) -> bool:
    home = Path(os.path.expanduser("~")).resolve()
    for root in [Path(p) for p in _DENIED_PREFIXES] + [home / sub for sub in _DENIED_HOME]:
        root = root.resolve()
        if resolved.is_relative_to(root) and root != home:
            return True
    return False


_CAPTIONABLE: Final = frozenset(
    {".jpg", ".jpeg", ".png", ".webp", ".gif", ".mp4", ".mov", ".avi", ".mkv", ".3gp"}
    | {".pdf", ".doc", ".docx", ".txt", ".md", ".csv", ".xlsx", ".zip"}
)


def media_caption_split(
    text: Any, media_files: Any, *, max_caption_len: int
) -> tuple[str | None, Any]:
    """Whether the text rides on the single media file as its caption: ``(caption, "")``,
    else ``(None, text)`` (hermes-agent 0.19.0
    ``tools.send_message_tool._media_caption_split``: one captionable file, not a voice
    note, text within the limit)."""
    stripped = (text or "").strip()
    media = list(media_files or [])
    if not stripped or len(media) != 1:
        return None, text
    media_path, is_voice = media[0]
    if is_voice or os.path.splitext(str(media_path))[1].lower() not in _CAPTIONABLE:
        return None, text
    return (None, text) if len(stripped) > max_caption_len else (stripped, "")
