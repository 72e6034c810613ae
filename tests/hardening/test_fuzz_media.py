"""Fuzzing kit-media's entry points: targets, payloads and whatever the host replies.

Building a payload or resolving a target raises ``MediaError`` and nothing else;
``deliver_media`` raises it only for invalid input and otherwise returns a typed result
that counts only a clean, explicit success; ``invoke_host_tool`` never raises.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kit_media import (
    MediaDeliveryResult,
    MediaError,
    MediaPayload,
    MediaType,
    ResolvedDeliveryTarget,
    deliver_media,
    invoke_host_tool,
    resolve_delivery_target,
)

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))

any_text = st.text(alphabet=st.characters(exclude_categories=()), max_size=40)


class BadPath(os.PathLike[str]):
    """A path-like object whose path is not text."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __fspath__(self) -> Any:
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value


targets = st.one_of(
    st.sampled_from(["origin", "ORIGIN ", "telegram", "telegram:", "telegram::", ":1", "t:1:2:3"]),
    st.builds(
        lambda p, c: f"{p}:{c}",
        st.sampled_from(["telegram", "discord", "Tele Gram", "x"]),
        any_text,
    ),
    any_text,
    st.none() | st.integers() | st.builds(object),
    st.integers(1, 200_000).map(lambda n: "telegram:" + "9" * n),
)


@HARDENING
@given(target=targets, in_chat=st.booleans(), chat=any_text)
def test_a_target_resolves_or_raises_media_error(
    target: Any, in_chat: bool, chat: str, media_host: Any, tally: Any
) -> None:
    with media_host.installed():
        if in_chat:
            media_host.in_chat(chat or "-100123", "7")
        else:
            media_host.local.env = {}
        try:
            resolved = resolve_delivery_target(target)
        except MediaError:
            tally.fuzz("media targets")
            return
    assert isinstance(resolved, ResolvedDeliveryTarget)
    assert resolved.kind in ("origin", "home", "explicit")
    tally.fuzz("media targets")


def path_values(real: Path) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.just(real),
        st.just(str(real)),
        any_text,
        any_text.map(lambda s: "/" + s),
        any_text.map(lambda s: f"{real.parent}/{s}"),
        st.sampled_from(["~", "~/x.png", "", "   ", "relative.png", "/", "/dev/null", "/etc"]),
        st.builds(BadPath, st.sampled_from([b"/bytes/path.png", 5, None, ValueError("no path")])),
        st.none() | st.integers() | st.binary(max_size=8),
    )


@HARDENING
@given(data=st.data())
def test_a_payload_is_built_or_refused_with_media_error(
    data: st.DataObject, media_file: Path, tally: Any
) -> None:
    path = data.draw(path_values(media_file), label="path")
    kind: Any = data.draw(
        st.sampled_from([*MediaType, "voice", "Document", "x", None, 3]), label="kind"
    )
    caption: Any = data.draw(
        any_text
        | st.sampled_from(["MEDIA:/etc/passwd", "[[as_document]]", "x" * 1025, "\ud800"])
        | st.none(),
        label="caption",
    )
    spoiler: Any = data.draw(st.sampled_from([False, True, 1, None]), label="spoiler")
    try:
        payload = MediaPayload(path, kind, caption=caption, spoiler=spoiler)
    except MediaError:
        tally.fuzz("media paths and payloads")
        return
    assert payload.path.is_absolute()
    assert payload.path.is_file()
    assert "MEDIA:" in payload.to_message()
    tally.fuzz("media paths and payloads")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3),
    max_leaves=8,
)
replies = st.one_of(
    st.just(json.dumps({"success": True, "message_id": "1"})),
    st.fixed_dictionaries(
        {},
        optional={
            "success": st.sampled_from([True, False, "true", 1, None]),
            "error": json_values,
            "warnings": json_values,
            "skipped": json_values,
            "chat_id": json_values,
            "target": json_values,
            "note": json_values,
        },
    ).map(json.dumps),
    json_values.map(json.dumps),
    any_text,
    json_values,  # not even text
    st.sampled_from([RuntimeError("host exploded"), KeyError("chat"), SystemError("bad")]),
)


@HARDENING
@given(
    reply=replies,
    target=st.sampled_from(["origin", "telegram", "telegram:-1001234567890:17585", "discord:42"]),
    context=st.fixed_dictionaries(
        {}, optional={"session_id": any_text | st.none() | st.integers(), "task_id": any_text}
    ),
    block=st.none() | any_text,
)
def test_a_delivery_returns_a_result_whatever_the_host_replies(
    reply: Any,
    target: str,
    context: dict[str, Any],
    block: str | None,
    media_file: Path,
    media_host: Any,
    tally: Any,
) -> None:
    def answer(args: dict[str, Any]) -> Any:
        if isinstance(reply, BaseException):
            raise reply
        return reply

    media_host.reply = answer
    media_host.block = block
    with media_host.installed():
        media_host.in_chat("-1001234567890", "17585")
        result = deliver_media(MediaPayload(media_file), target, **context)
        guarded = invoke_host_tool("send_message", {"action": "send", "target": target}, **context)
    assert isinstance(result, MediaDeliveryResult)
    assert isinstance(guarded, str)
    json.dumps(result.as_dict())  # always JSON-ready
    sent = None if isinstance(reply, BaseException) else reply
    text = sent if isinstance(sent, str) else json.dumps(sent)  # the guard sends JSON on
    clean = sent is not None and block is None and _clean_success(text)
    assert result.success is clean
    assert (result.reason is None) is clean
    tally.fuzz("host replies")


def _clean_success(reply: str) -> bool:
    try:
        data = json.loads(reply)
    except ValueError:
        return False
    return (
        isinstance(data, dict)
        and data.get("success") is True
        and not data.get("error")
        and not data.get("warnings")
        and not data.get("skipped")
    )
