"""resolve_delivery_target: the three forms, origin from the session, privacy-safe display."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from kit_media import MediaError, ResolvedDeliveryTarget, resolve_delivery_target

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost

CHAT = "-1001234567890"
TOPIC = "17585"


def test_origin_comes_from_the_task_local_session(host: FakeHost) -> None:
    host.in_chat(chat_id=CHAT, thread_id=TOPIC)
    target = resolve_delivery_target("origin")
    assert target.requested == "origin"
    assert target.kind == "origin"
    assert target.platform == "telegram"
    assert target.host_target == f"telegram:{CHAT}:{TOPIC}"
    assert target.chat_ref == f"{CHAT}:{TOPIC}"
    assert target.display == "telegram:…7890:…7585"


def test_origin_without_a_thread(host: FakeHost) -> None:
    host.in_chat(platform="Discord", chat_id="998877665544", thread_id="")
    target = resolve_delivery_target(" ORIGIN ")
    assert target.host_target == "discord:998877665544"
    assert target.display == "discord:…5544"


@pytest.mark.parametrize(
    "session",
    [
        {},
        {"HERMES_SESSION_PLATFORM": "telegram"},
        {"HERMES_SESSION_CHAT_ID": CHAT},
        {"HERMES_SESSION_PLATFORM": "cli", "HERMES_SESSION_CHAT_ID": ""},
    ],
)
def test_origin_outside_a_chat_turn_says_what_to_pass_instead(
    host: FakeHost, session: dict[str, str]
) -> None:
    host.session.update(session)
    with pytest.raises(
        MediaError, match=r"has no platform chat to deliver to.*'<platform>:<chat>'"
    ):
        resolve_delivery_target("origin")


def test_origin_without_hermes_says_so() -> None:
    with pytest.raises(MediaError, match="hermes-agent is not importable: kit-media delivers"):
        resolve_delivery_target("origin")


def test_a_bare_platform_is_its_home_channel() -> None:
    target = resolve_delivery_target("Telegram")
    assert (target.kind, target.platform, target.host_target) == ("home", "telegram", "telegram")
    assert target.requested == "telegram"
    assert target.display == "telegram (home channel)"


def test_an_explicit_route_passes_through_unchanged_but_is_shown_masked() -> None:
    target = resolve_delivery_target(f"telegram:{CHAT}:{TOPIC}")
    assert target.kind == "explicit"
    assert target.host_target == f"telegram:{CHAT}:{TOPIC}"
    assert target.requested == target.display == "telegram:…7890:…7585"


@pytest.mark.parametrize(
    ("route", "display"),
    [
        ("telegram:-1001234567890", "telegram:…7890"),
        ("telegram:@my_channel", "telegram:…nnel"),
        ("discord:#bot-home", "discord:…home"),
        ("slack:C0123ABCD:1712345678.123456", "slack:…ABCD:…3456"),
        ("matrix:!roomid:server.org", "matrix:…omid:….org"),
        ("telegram:-100123:42", "telegram:…0123:…2"),
        ("signal:+15551234567", "signal:…4567"),
        ("sms:7", "sms:…"),
        ("discord:1234", "discord:…234"),
    ],
)
def test_every_id_segment_is_masked_numeric_or_not(route: str, display: str) -> None:
    assert resolve_delivery_target(route).display == display


def test_raw_ids_stay_out_of_repr_and_str(host: FakeHost) -> None:
    host.in_chat(chat_id=CHAT, thread_id=TOPIC)
    target = resolve_delivery_target("origin")
    assert CHAT not in repr(target)
    assert TOPIC not in repr(target)
    assert str(target) == "telegram:…7890:…7585"
    assert isinstance(target, ResolvedDeliveryTarget)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("", "delivery target is required"),
        ("   ", "delivery target is required"),
        ("telegram:", "has an empty or malformed chat part"),
        ("telegram::17585", "has an empty or malformed chat part"),
        (f"telegram:{CHAT}:", "has an empty or malformed chat part"),
        ("telegram:12\n34", "has an empty or malformed chat part"),
        ("tele gram:12345", "must start with a platform name"),
        (":12345", "must start with a platform name"),
        ("123:456", "must start with a platform name"),
    ],
)
def test_malformed_targets_name_the_forms(target: str, expected: str) -> None:
    with pytest.raises(MediaError, match=expected) as caught:
        resolve_delivery_target(target)
    assert "'origin', '<platform>' or '<platform>:<chat>[:<thread>]'" in str(caught.value)
    assert "1234567890" not in str(caught.value)


@pytest.mark.parametrize("value", [None, 7, ["origin"]])
def test_a_target_of_the_wrong_type_is_refused(value: object) -> None:
    with pytest.raises(MediaError, match="delivery target must be a str"):
        resolve_delivery_target(value)  # type: ignore[arg-type]
