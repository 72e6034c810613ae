"""kit-media against the real hermes-agent host (marked ``host``).

Everything runs through hermes' own code: ``send_message``'s target parser, its
``MEDIA:`` extraction and media policy, its Telegram sender, the gateway config (token
and home channel from the environment, as an operator sets them), the task-local session
context, the plugin manager's ``pre_tool_call``/``post_tool_call``/``transform_llm_output``
/``on_session_end`` hooks, and ``handle_function_call`` for the contract plugin's tool.
Only the network methods of python-telegram-bot's ``Bot`` are replaced, at the class
level, by recording fakes.

The host is shared with the other host test files: environment changes go through
``monkeypatch``; the contract plugin's blocking guard is switched on per test and only
for ``send_message``; the kit's markers are cleared around every test.
"""

from __future__ import annotations

import contextvars
import inspect
import json
import logging
import os
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING, Any, TypeVar, cast

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kit_media
from kit_core import declaration_of
from kit_core.hermes import first_release, installed_release
from kit_media import (
    MEDIA_DELIVERY_HOOKS,
    MediaError,
    MediaPayload,
    MediaType,
    clear_media_delivery_state,
    deliver_media,
    invoke_host_tool,
    transform_media_delivery_output,
)

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost

PLUGIN = "kit_media_contract"
TOKEN = "7012345678:AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o"
CHAT = "-1001234567890"
TOPIC = "17585"
HOME_CHAT = "-1009876543210"
NEW_CHAT = "-1005550001112"
SESSION = "20260101_120000_kitm01"
BLOCK = "kit_media_contract: sending is paused"
NETWORK_METHODS = (
    "initialize",
    "shutdown",
    "get_me",
    "send_message",
    "send_photo",
    "send_voice",
    "send_audio",
    "send_video",
    "send_document",
    "send_media_group",
)
CLEARED_ENV = (
    "TELEGRAM_HOME_CHANNEL",
    "TELEGRAM_HOME_CHANNEL_THREAD_ID",
    "TELEGRAM_PROXY",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "ALL_PROXY",
    "https_proxy",
    "http_proxy",
    "all_proxy",
    "HERMES_MEDIA_DELIVERY_STRICT",
    "HERMES_MEDIA_ALLOW_DIRS",
    "HERMES_MEDIA_TRUST_RECENT_FILES",
    "HERMES_SESSION_PLATFORM",
    "HERMES_SESSION_CHAT_ID",
    "HERMES_SESSION_THREAD_ID",
    "HERMES_SESSION_ID",
    "HERMES_CRON_AUTO_DELIVER_PLATFORM",
    "HERMES_CRON_AUTO_DELIVER_CHAT_ID",
)

T = TypeVar("T")

SILENCE_FUNCTION = "gateway.response_filters.is_intentional_silence_response"
CAPTION_FUNCTION = "tools.send_message_tool._media_caption_split"
MEDIA_POLICY_FUNCTION = "gateway.platforms.base.validate_media_delivery_path"


RELEASE = installed_release()
"""What the host model says the hermes-agent installed here offers (the fixture fails
every test when it is not installed or not modelled)."""


def offers(function: str) -> bool:
    """Whether the running release has this hermes function (``HostRelease.functions``)."""
    return RELEASE is not None and function in RELEASE.functions


def first_label(function: str) -> str:
    """The host model's first release with ``function``, as kit-media names it."""
    release = first_release(lambda r: function in r.functions)
    assert release is not None, function
    return release.label


OBSERVER_FIELDS = offers("model_tools._emit_post_tool_call_hook")
"""The pipeline reports ``status`` to ``post_tool_call``, and reports blocks (0.16.0+)."""

SILENCES = offers(SILENCE_FUNCTION)
"""The gateway drops a ``NO_REPLY`` final reply (0.17.0 and newer): suppression exists."""

GUARDS = RELEASE.silence_predicates if RELEASE is not None else ()
"""The gateway's human-turn silence guard (0.21.4 and newer, ``HostRelease.silence_predicates``):
it answers a person's turn that ends ``NO_REPLY`` with a visible "unexpected silence" reply,
so the kit arms nothing there and says why."""

ARMS = SILENCES and not GUARDS
"""Whether a delivery in a person's turn arms final-reply suppression on this release."""


def png_bytes() -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


@dataclass
class BotCall:
    method: str
    kwargs: dict[str, Any]
    token: str


@dataclass
class FakeTelegramNetwork:
    """Records every Bot network call; file objects are recorded as their Path."""

    calls: list[BotCall] = field(default_factory=list)
    failures: dict[str, Exception] = field(default_factory=dict)

    @property
    def methods(self) -> list[str]:
        return [call.method for call in self.calls]

    def only(self, method: str) -> BotCall:
        [found] = [call for call in self.calls if call.method == method]
        return found

    def fake(self, method: str) -> Callable[..., Any]:
        async def network_call(bot: Any, *args: Any, **kwargs: Any) -> Any:
            assert not args, f"{method} was called with positional arguments {args!r}"
            recorded = {
                key: Path(value.name) if hasattr(value, "read") else value
                for key, value in kwargs.items()
            }
            self.calls.append(BotCall(method, recorded, bot.token))
            if method in self.failures:
                raise self.failures[method]
            if method.startswith("send_"):
                return SimpleNamespace(message_id=4200 + len(self.calls))
            return None

        return network_call


@pytest.fixture
def telegram_network(monkeypatch: pytest.MonkeyPatch) -> FakeTelegramNetwork:
    import telegram

    network = FakeTelegramNetwork()
    for method in NETWORK_METHODS:
        monkeypatch.setattr(telegram.Bot, method, network.fake(method))
    return network


@pytest.fixture
def operator_env(hermes_host: HermesHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """Telegram configured the way an operator does it: a bot token in the environment."""
    for name in CLEARED_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)


@pytest.fixture
def plugin(hermes_host: HermesHost, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The host's copy of the contract plugin, with empty records and the guard open."""
    module = hermes_host.plugin_module(PLUGIN)
    monkeypatch.setattr(module, "BLOCK_SEND_MESSAGE", None)
    module.PRE_CALLS.clear()
    module.POST_CALLS.clear()
    module.TOOL_POST_CALLS.clear()
    kit_media.clear_media_delivery_state(session_id=SESSION)
    yield module
    module.PRE_CALLS.clear()
    module.POST_CALLS.clear()
    module.TOOL_POST_CALLS.clear()
    kit_media.clear_media_delivery_state(session_id=SESSION)


def bind_turn(session_context: Any, **values: str) -> None:
    """Bind a gateway turn's session vars as this release's gateway does.

    ``set_session_vars`` takes a ``session_id`` only from 0.17.0 (0.13.0 knows
    ``platform`` … ``session_key``): only the keywords this release's function takes are
    passed, and a ``session_id`` it cannot take is bound as the agent binds it
    (:func:`bind_agent_session`, in this context only).
    """
    accepted = inspect.signature(session_context.set_session_vars).parameters
    session_context.set_session_vars(**{k: v for k, v in values.items() if k in accepted})
    if "session_id" not in accepted and values.get("session_id"):
        _session_id_variable(session_context).set(values["session_id"])


def bind_agent_session(session_context: Any, session_id: str) -> None:
    """What an agent's set-up does with its session id: ``os.environ`` and the context var.

    ``set_current_session_id`` from 0.15.0 (``agent/agent_init.py``); before it,
    ``run_agent.py`` wrote both itself (0.13.0 ``run_agent.py`` 1902-1905).
    """
    setter = getattr(session_context, "set_current_session_id", None)
    if callable(setter):
        setter(session_id)
        return
    os.environ["HERMES_SESSION_ID"] = session_id
    _session_id_variable(session_context).set(session_id)


def gateway_message_entry(session_context: Any) -> None:
    """What the gateway does at the top of every message, before it binds the turn.

    From 0.18.0 ``_handle_message`` calls ``reset_session_vars()`` (0.18.0
    ``gateway/run.py`` 8390-8395); before, a message simply ran in its task's fresh
    context, which is what the caller's ``copy_context()`` already gives.
    """
    reset = getattr(session_context, "reset_session_vars", None)
    if callable(reset):
        reset()


def _session_id_variable(session_context: Any) -> contextvars.ContextVar[Any]:
    """The ``HERMES_SESSION_ID`` context variable (``_VAR_MAP``, every release)."""
    variable = session_context._VAR_MAP["HERMES_SESSION_ID"]
    assert isinstance(variable, contextvars.ContextVar)
    return cast("contextvars.ContextVar[Any]", variable)


@pytest.fixture
def in_chat(hermes_host: HermesHost, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """Run a callable the way a gateway turn runs a tool: session vars bound per task.

    The vars are bound in a copied context (so nothing leaks into the test session), and
    the session-context module's process-wide "engaged" latch (0.18.0 and newer) is
    restored afterwards.
    """
    from gateway import session_context

    engaged = getattr(session_context, "session_context_engaged", None)
    if callable(engaged):
        monkeypatch.setattr(session_context, "_session_context_engaged", engaged())

    def run(
        fn: Callable[[], T],
        *,
        platform: str = "telegram",
        chat_id: str = CHAT,
        thread_id: str = TOPIC,
    ) -> T:
        def bound() -> T:
            bind_turn(
                session_context,
                platform=platform,
                chat_id=chat_id,
                thread_id=thread_id,
                session_key=f"agent:main:{platform}:group:{chat_id}:{thread_id}",
                session_id=SESSION,
            )
            return fn()

        return contextvars.copy_context().run(bound)

    return run


@pytest.fixture
def files(tmp_path: Path) -> SimpleNamespace:
    folder = tmp_path / "media out"
    folder.mkdir()
    image = folder / "cat picture.png"
    image.write_bytes(png_bytes())
    voice = folder / "memo.ogg"
    voice.write_bytes(b"OggS\x00\x02" + b"\x00" * 64)
    report = folder / "report.pdf"
    report.write_bytes(b"%PDF-1.4\n%kit-media\n")
    return SimpleNamespace(image=image, voice=voice, report=report)


pytestmark = pytest.mark.usefixtures("operator_env", "plugin")


def host_pipeline_hooks(
    hermes_host: HermesHost, plugin: ModuleType, **context: Any
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What this release's own tool pipeline (``handle_function_call``) tells the
    ``pre_tool_call`` and ``post_tool_call`` hooks about a ``send_message`` call, blocked
    or not as the plugin's switch says: the records the kit's guarded call is compared
    with. The records are cleared afterwards."""
    hermes_host.call("send_message", {"action": "list"}, **context)
    found = (list(plugin.PRE_CALLS), list(plugin.POST_CALLS))
    plugin.PRE_CALLS.clear()
    plugin.POST_CALLS.clear()
    return found


def assert_armed(result: kit_media.MediaDeliveryResult) -> None:
    """Suppression armed where the gateway has a silence filter and lets a person's turn end
    silent; with the human-turn guard, refused with a note naming the release's predicate;
    without a filter, refused with a note naming the first release that has one."""
    assert result.success is True, result.reason
    if ARMS:
        assert (result.suppression_armed, result.suppression_note) == (True, None)
    elif SILENCES:
        assert_guarded(result.suppression_armed, result.suppression_note)
    else:
        assert result.suppression_armed is False
        assert result.suppression_note is not None
        assert f"needs {first_label(SILENCE_FUNCTION)} or newer" in result.suppression_note


def spoiler_refused(
    result: kit_media.MediaDeliveryResult, network: FakeTelegramNetwork, plugin: ModuleType
) -> bool:
    """On a release without hermes' media policy, assert the spoiler was refused before
    anything was attempted, naming the first release with one (and say so)."""
    if offers(MEDIA_POLICY_FUNCTION):
        return False
    assert result.success is False
    assert result.reason is not None
    assert f"spoiler photos need {first_label(MEDIA_POLICY_FUNCTION)}" in result.reason
    assert network.calls == []
    assert plugin.PRE_CALLS == []
    return True


def assert_guarded(armed: object, note: object) -> None:
    """The kit armed nothing under the human-turn guard, and its note names the release and
    the guard's predicate (one of the release's ``silence_predicates``)."""
    assert armed is False
    assert isinstance(note, str)
    assert RELEASE is not None
    assert f"{RELEASE.label} does not let a person's turn end in silence" in note
    assert any(f"gateway.response_filters.{p})" in note for p in GUARDS), note


def silenced(text: str) -> str:
    """What ``finalize`` returns for a suppressed turn on this release."""
    return "NO_REPLY" if ARMS else text


def assert_private(text: str, *paths: Path) -> None:
    assert CHAT not in text
    assert CHAT.lstrip("-") not in text
    assert HOME_CHAT.lstrip("-") not in text
    assert TOKEN not in text
    assert TOKEN.split(":")[1] not in text
    for path in paths:
        assert str(path) not in text


# -- send_message: image, voice, document -------------------------------------------------


def test_image_goes_out_as_one_photo_to_the_current_topic(
    telegram_network: FakeTelegramNetwork, in_chat: Callable[..., Any], files: SimpleNamespace
) -> None:
    result = in_chat(lambda: deliver_media(MediaPayload(files.image), session_id=SESSION))

    assert result.success is True, result.reason
    assert telegram_network.methods == ["send_photo"]  # one photo, no separate text message
    photo = telegram_network.only("send_photo")
    assert photo.kwargs == {
        "chat_id": int(CHAT),
        "photo": files.image,
        "message_thread_id": int(TOPIC),
    }
    assert photo.token == TOKEN
    assert result.requested_target == "origin"
    assert result.display_target == "telegram:…7890:…7585"
    assert result.host_result["chat_id"] == "…7890"
    assert result.host_result["success"] is True
    assert_private(json.dumps({**result.as_dict(), "path": ""}))


def test_voice_goes_out_as_a_voice_note(
    telegram_network: FakeTelegramNetwork, in_chat: Callable[..., Any], files: SimpleNamespace
) -> None:
    payload = MediaPayload(files.voice, MediaType.VOICE)
    assert payload.to_message() == f"[[audio_as_voice]]\nMEDIA:{files.voice}"

    result = in_chat(lambda: deliver_media(payload, session_id=SESSION))

    assert result.success is True, result.reason
    assert telegram_network.methods == ["send_voice"]
    voice = telegram_network.only("send_voice")
    assert voice.kwargs["chat_id"] == int(CHAT)
    assert voice.kwargs["voice"] == files.voice
    assert voice.kwargs["message_thread_id"] == int(TOPIC)
    assert "caption" not in voice.kwargs


def test_the_same_ogg_without_the_voice_type_is_a_file(
    telegram_network: FakeTelegramNetwork, in_chat: Callable[..., Any], files: SimpleNamespace
) -> None:
    result = in_chat(lambda: deliver_media(MediaPayload(files.voice), session_id=SESSION))
    assert result.success is True, result.reason
    assert telegram_network.methods == ["send_document"]


@pytest.mark.parametrize(
    ("name", "media_type"), [("image", MediaType.DOCUMENT), ("report", MediaType.AUTO)]
)
def test_documents_go_out_as_files(
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
    name: str,
    media_type: MediaType,
) -> None:
    path: Path = getattr(files, name)
    result = in_chat(lambda: deliver_media(MediaPayload(path, media_type), session_id=SESSION))

    assert result.success is True, result.reason
    assert telegram_network.methods == ["send_document"]
    assert telegram_network.only("send_document").kwargs == {
        "chat_id": int(CHAT),
        "document": path,
        "message_thread_id": int(TOPIC),
    }


@pytest.mark.surface("media: a caption on the file", requires=CAPTION_FUNCTION)
def test_a_caption_rides_on_the_photo_not_in_a_second_message(
    telegram_network: FakeTelegramNetwork, in_chat: Callable[..., Any], files: SimpleNamespace
) -> None:
    payload = MediaPayload(files.image, caption="Your cat")
    result = in_chat(lambda: deliver_media(payload, session_id=SESSION))
    if not offers(CAPTION_FUNCTION):  # send_message would send the caption on its own
        assert result.success is False
        assert result.reason is not None
        assert f"captions ride on the file in {first_label(CAPTION_FUNCTION)}" in result.reason
        assert telegram_network.calls == []
        return
    assert result.success is True, result.reason
    assert telegram_network.methods == ["send_photo"]
    assert telegram_network.only("send_photo").kwargs["caption"] == "Your cat"


def test_explicit_route_and_home_channel_go_through_the_hosts_target_parser(
    telegram_network: FakeTelegramNetwork,
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    explicit = deliver_media(MediaPayload(files.image), f"telegram:{CHAT}:{TOPIC}")
    monkeypatch.setenv("TELEGRAM_HOME_CHANNEL", HOME_CHAT)
    home = deliver_media(MediaPayload(files.image), "telegram")

    assert explicit.success is True, explicit.reason
    assert home.success is True, home.reason
    first, second = telegram_network.calls
    assert first.kwargs["chat_id"] == int(CHAT)
    assert first.kwargs["message_thread_id"] == int(TOPIC)
    assert second.kwargs == {"chat_id": int(HOME_CHAT), "photo": files.image}
    assert explicit.requested_target == explicit.display_target == "telegram:…7890:…7585"
    assert home.display_target == "telegram (home channel)"
    # the host's reply names the home chat in a note: the kit masks it there too
    assert home.host_result["note"] == "Sent to telegram home channel (chat_id: …3210)"
    assert_private(json.dumps(explicit.as_dict()) + json.dumps(home.as_dict()))


def test_ids_in_what_hermes_and_telegram_say_are_masked_home_channel_and_migrated_chat(
    telegram_network: FakeTelegramNetwork,
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # a group that became a supergroup: python-telegram-bot's ChatMigrated names the new
    # chat, and hermes' send_message copies that text into its reply
    import telegram.error

    caplog.set_level(logging.DEBUG, logger="kit_media")
    monkeypatch.setenv("TELEGRAM_HOME_CHANNEL", HOME_CHAT)
    telegram_network.failures["send_photo"] = telegram.error.ChatMigrated(int(NEW_CHAT))
    migrated = deliver_media(MediaPayload(files.image), "telegram", session_id=SESSION)

    assert migrated.success is False
    assert migrated.reason is not None
    assert "Group migrated to supergroup. New chat id: …1112" in migrated.reason
    telegram_network.failures.clear()
    home = deliver_media(MediaPayload(files.image), "telegram", session_id=SESSION)
    assert home.success is True, home.reason
    assert home.host_result["note"] == "Sent to telegram home channel (chat_id: …3210)"
    kit_logs = [r.getMessage() for r in caplog.records if r.name.startswith("kit_media")]
    shown = json.dumps([migrated.as_dict(), home.as_dict(), kit_logs], ensure_ascii=False)
    assert NEW_CHAT.lstrip("-") not in shown
    assert_private(shown.replace(str(files.image), "<file>"))


def test_a_host_refusal_is_a_failure_not_a_success(
    telegram_network: FakeTelegramNetwork, files: SimpleNamespace
) -> None:
    result = deliver_media(MediaPayload(files.image), "telegram")  # no home channel set
    assert result.success is False
    assert result.reason is not None
    assert "No home channel set for telegram" in result.reason
    assert telegram_network.calls == []
    assert transform_media_delivery_output(response_text="x", session_id=SESSION) is None


def test_a_tool_returning_a_failed_delivery_answers_the_model_with_an_error(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    plugin: ModuleType,
    files: SimpleNamespace,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    reply = hermes_host.call(  # no home channel set: hermes refuses the target
        "kitm_deliver", {"path": str(files.image), "target": "telegram"}, session_id=SESSION
    )
    outcome = json.loads(reply)
    assert set(outcome) == {"success", "error", "error_code"}, outcome
    assert outcome["success"] is False
    assert outcome["error_code"] == "media_delivery_failed"
    assert outcome["error"].startswith(
        f"kitm_deliver failed: could not deliver {files.image.name} to telegram"
    )
    assert "No home channel set for telegram" in outcome["error"]
    assert telegram_network.calls == []
    # hermes' own tool pipeline reads the answer as a failed call, not a success
    (observed,) = plugin.TOOL_POST_CALLS
    if "model_tools._emit_post_tool_call_hook" in hermes_host.release.functions:
        assert (observed["status"], observed["error_type"]) == ("error", "tool_error")
        assert observed["error_message"] == outcome["error"]
    else:  # hermes before 0.16.0 tells post_tool_call the result only
        assert "status" not in observed
        assert json.loads(observed["result"]) == outcome
    (line,) = [r for r in caplog.records if r.getMessage().startswith("kitm_deliver: ")]
    assert line.levelno == logging.WARNING
    assert line.getMessage().startswith("kitm_deliver: returned failure; elapsed_ms=")
    assert "; error_code=media_delivery_failed; error=could not deliver" in line.getMessage()
    assert transform_media_delivery_output(response_text="x", session_id=SESSION) is None


def test_a_failed_telegram_send_is_a_failure_and_arms_nothing(
    telegram_network: FakeTelegramNetwork, in_chat: Callable[..., Any], files: SimpleNamespace
) -> None:
    telegram_network.failures["send_photo"] = RuntimeError("Bad Request: chat not found")
    result = in_chat(lambda: deliver_media(MediaPayload(files.image), session_id=SESSION))
    assert result.success is False
    assert result.reason is not None
    assert "chat not found" in result.reason
    assert transform_media_delivery_output(response_text="x", session_id=SESSION) is None


@pytest.mark.surface("media: Telegram spoiler photos", requires=MEDIA_POLICY_FUNCTION)
def test_the_hosts_media_policy_is_asked_before_sending(
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not offers(MEDIA_POLICY_FUNCTION):
        # no policy to ask: send_message sends what it is given, and the spoiler path,
        # which bypasses send_message, is refused naming the release that has one
        spoiler = MediaPayload(files.image, spoiler=True)
        result = in_chat(lambda: deliver_media(spoiler, session_id=SESSION))
        assert result.success is False
        assert result.reason is not None
        assert f"spoiler photos need {first_label(MEDIA_POLICY_FUNCTION)}" in result.reason
        assert telegram_network.calls == []
        return
    # strict media mode with no allowed roots and no recency window: hermes refuses the file
    monkeypatch.setenv("HERMES_MEDIA_DELIVERY_STRICT", "1")
    monkeypatch.setenv("HERMES_MEDIA_TRUST_RECENT_FILES", "0")
    from gateway.platforms.base import validate_media_delivery_path

    if validate_media_delivery_path(str(files.image)) is not None:
        pytest.fail("the host accepted the file in strict mode; the test setup is wrong")
    payload = MediaPayload(files.image, caption="would be sent alone")
    result = in_chat(lambda: deliver_media(payload, session_id=SESSION))
    assert result.success is False
    assert result.reason is not None
    assert "media policy" in result.reason
    assert telegram_network.calls == []


# -- the guard ----------------------------------------------------------------------------


def test_the_hosts_hooks_see_the_guarded_send(
    hermes_host: HermesHost,
    plugin: ModuleType,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    context = {"session_id": SESSION, "task_id": "task-1", "tool_call_id": "call-1"}
    [host_pre], [host_post] = host_pipeline_hooks(hermes_host, plugin, **context)
    in_chat(lambda: deliver_media(MediaPayload(files.image), **context))

    [pre] = plugin.PRE_CALLS
    assert pre["args"] == {
        "action": "send",
        "target": f"telegram:{CHAT}:{TOPIC}",
        "message": f"MEDIA:{files.image}",
    }
    assert (pre["session_id"], pre["task_id"], pre["tool_call_id"]) == (
        SESSION,
        "task-1",
        "call-1",
    )
    # the hooks are told what this release's own pipeline tells them, no more, no less
    assert set(pre) == set(host_pre)
    if "telemetry_schema_version" in host_pre:  # added by the host's invoke_hook
        assert pre["telemetry_schema_version"] is not None
    [post] = plugin.POST_CALLS
    assert set(post) == set(host_post)
    if "status" in host_post:  # the observer fields (0.16.0 and newer)
        assert post["status"] == "ok"
        assert post["error_type"] is None
    assert json.loads(post["result"])["success"] is True
    assert isinstance(post["duration_ms"], int)
    assert post["session_id"] == SESSION


def test_a_blocking_pre_tool_call_hook_stops_delivery_before_the_handler(
    hermes_host: HermesHost,
    plugin: ModuleType,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tools.send_message_tool as host_send

    handler_calls: list[Any] = []
    real_handler = host_send.send_message_tool

    def spy(args: Any, **kwargs: Any) -> Any:
        handler_calls.append(args)
        return real_handler(args, **kwargs)

    monkeypatch.setattr(host_send, "send_message_tool", spy)
    monkeypatch.setattr(plugin, "BLOCK_SEND_MESSAGE", BLOCK)
    _, host_posts = host_pipeline_hooks(hermes_host, plugin, session_id=SESSION)

    result = in_chat(lambda: deliver_media(MediaPayload(files.image), session_id=SESSION))

    assert result.success is False
    assert result.reason == BLOCK
    assert result.host_result == {"error": BLOCK}
    assert handler_calls == []
    assert telegram_network.calls == []
    # post_tool_call hears of the block exactly where this release's pipeline reports one
    assert len(plugin.POST_CALLS) == len(host_posts)
    if host_posts:
        [post] = plugin.POST_CALLS
        assert set(post) == set(host_posts[0])
        assert (post["status"], post["error_type"], post["error_message"]) == (
            "blocked",
            "plugin_block",
            BLOCK,
        )
    assert transform_media_delivery_output(response_text="x", session_id=SESSION) is None

    # the same guard, switched off, lets the handler run
    monkeypatch.setattr(plugin, "BLOCK_SEND_MESSAGE", None)
    assert in_chat(lambda: deliver_media(MediaPayload(files.image))).success is True
    assert len(handler_calls) == 1


def test_invoke_host_tool_answers_json_for_blocked_and_unknown_calls(
    plugin: ModuleType, telegram_network: FakeTelegramNetwork, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plugin, "BLOCK_SEND_MESSAGE", BLOCK)
    blocked = invoke_host_tool("send_message", {"action": "list"}, session_id=SESSION)
    assert json.loads(blocked) == {"error": BLOCK}

    unknown = json.loads(invoke_host_tool("terminal", {"command": "ls"}))
    assert unknown["error"] == "unsupported host tool 'terminal'; supported: send_message"
    assert unknown["error_code"] == "unsupported_host_tool"
    assert [call["args"] for call in plugin.PRE_CALLS] == [{"action": "list"}]


def test_send_message_really_is_not_a_registered_tool(hermes_host: HermesHost) -> None:
    # why invoke_host_tool exists: the registry route answers "Unknown tool" (send_message
    # was a model tool up to 0.16.0; the host model records each release's tools)
    assert RELEASE is not None
    if "send_message" in RELEASE.tools:
        assert hermes_host.registry.get_entry("send_message") is not None
        assert "Unknown tool" not in hermes_host.call("send_message", {"action": "list"})
        return
    assert hermes_host.registry.get_entry("send_message") is None
    assert "Unknown tool" in hermes_host.call("send_message", {"action": "list"})


# -- the Telegram spoiler extension -------------------------------------------------------


@pytest.mark.surface("media: Telegram spoiler photos", requires=MEDIA_POLICY_FUNCTION)
def test_spoiler_photo_goes_to_the_current_topic_and_the_client_is_closed(
    plugin: ModuleType,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="kit_media")
    payload = MediaPayload(files.image, spoiler=True, caption="guess")

    result = in_chat(lambda: deliver_media(payload, session_id=SESSION))

    if spoiler_refused(result, telegram_network, plugin):
        return
    assert result.success is True, result.reason
    assert telegram_network.methods == ["initialize", "send_photo", "shutdown"]
    assert telegram_network.only("send_photo").kwargs == {
        "chat_id": int(CHAT),
        "photo": files.image,
        "has_spoiler": True,
        "caption": "guess",
        "message_thread_id": int(TOPIC),
    }
    assert {call.token for call in telegram_network.calls} == {TOKEN}
    assert result.spoiler is True
    assert result.display_target == "telegram:…7890:…7585"
    assert dict(result.host_result) == {
        "success": True,
        "platform": "telegram",
        "chat_id": "…7890",
        "message_id": "4202",
        "spoiler": True,
    }
    [pre] = plugin.PRE_CALLS
    assert pre["args"]["media_options"] == {"spoiler": True}
    assert pre["args"]["target"] == f"telegram:{CHAT}:{TOPIC}"
    [post] = plugin.POST_CALLS
    assert post.get("status", "ok") == "ok"
    assert ("status" in post) is OBSERVER_FIELDS
    assert_private(json.dumps({**result.as_dict(), "path": ""}))
    assert_private(caplog.text, files.image)
    assert "file=cat picture.png" in caplog.text


@pytest.mark.surface("media: Telegram spoiler photos", requires=MEDIA_POLICY_FUNCTION)
def test_spoiler_to_the_home_channel_uses_its_topic(
    plugin: ModuleType,
    telegram_network: FakeTelegramNetwork,
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TELEGRAM_HOME_CHANNEL", HOME_CHAT)
    monkeypatch.setenv("TELEGRAM_HOME_CHANNEL_THREAD_ID", "99")
    result = deliver_media(MediaPayload(files.image, spoiler=True), "telegram")
    if spoiler_refused(result, telegram_network, plugin):
        return
    assert result.success is True, result.reason
    assert telegram_network.only("send_photo").kwargs == {
        "chat_id": int(HOME_CHAT),
        "photo": files.image,
        "has_spoiler": True,
        "message_thread_id": 99,
    }


@pytest.mark.surface("media: Telegram spoiler photos", requires=MEDIA_POLICY_FUNCTION)
def test_spoiler_to_a_forums_general_topic_omits_the_thread(
    plugin: ModuleType, telegram_network: FakeTelegramNetwork, files: SimpleNamespace
) -> None:
    result = deliver_media(MediaPayload(files.image, spoiler=True), f"telegram:{CHAT}:1")
    if spoiler_refused(result, telegram_network, plugin):
        return
    assert result.success is True, result.reason
    assert "message_thread_id" not in telegram_network.only("send_photo").kwargs


@pytest.mark.surface("media: Telegram spoiler photos", requires=MEDIA_POLICY_FUNCTION)
def test_a_blocked_spoiler_never_builds_a_client(
    plugin: ModuleType,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(plugin, "BLOCK_SEND_MESSAGE", BLOCK)
    result = in_chat(
        lambda: deliver_media(MediaPayload(files.image, spoiler=True), session_id=SESSION)
    )
    if spoiler_refused(result, telegram_network, plugin):
        return
    assert result.success is False
    assert result.reason == BLOCK
    assert telegram_network.calls == []
    if OBSERVER_FIELDS:
        [post] = plugin.POST_CALLS
        assert post["status"] == "blocked"
    else:  # this release's pipeline tells post_tool_call nothing of a block
        assert plugin.POST_CALLS == []


def test_a_spoiler_outside_telegram_is_refused_not_sent_plainly(
    plugin: ModuleType,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    payload = MediaPayload(files.image, spoiler=True)
    result = in_chat(
        lambda: deliver_media(payload, session_id=SESSION), platform="discord", chat_id="123456789"
    )
    assert result.success is False
    assert result.reason is not None
    assert "Telegram-only" in result.reason
    assert telegram_network.calls == []
    assert plugin.PRE_CALLS == []  # refused before the guard: nothing was attempted


@pytest.mark.surface("media: Telegram spoiler photos", requires=MEDIA_POLICY_FUNCTION)
def test_a_failed_spoiler_send_still_closes_the_client_and_hides_the_token(
    plugin: ModuleType,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    telegram_network.failures["send_photo"] = RuntimeError(
        f"POST https://api.telegram.org/bot{TOKEN}/sendPhoto failed"
    )
    result = in_chat(
        lambda: deliver_media(MediaPayload(files.image, spoiler=True), session_id=SESSION)
    )
    if spoiler_refused(result, telegram_network, plugin):
        return
    assert result.success is False
    assert telegram_network.methods == ["initialize", "send_photo", "shutdown"]
    assert result.reason is not None
    assert "Telegram spoiler delivery failed: RuntimeError" in result.reason
    assert_private(json.dumps({**result.as_dict(), "path": ""}))
    assert transform_media_delivery_output(response_text="x", session_id=SESSION) is None


# -- final-response suppression through the host's hooks ----------------------------------


def finalize(hermes_host: HermesHost, response_text: str, session_id: str = SESSION) -> str:
    """What ``agent/turn_finalizer.py`` does with ``transform_llm_output``: first str wins."""
    results = hermes_host.plugins.invoke_hook(
        "transform_llm_output",
        response_text=response_text,
        session_id=session_id,
        model="test-model",
        platform="telegram",
    )
    return next((r for r in results if isinstance(r, str) and r), response_text)


def test_the_hooks_are_registered_through_the_host(hermes_host: HermesHost) -> None:
    hooks = hermes_host.manager._hooks
    assert transform_media_delivery_output in hooks["transform_llm_output"]
    assert clear_media_delivery_state in hooks["on_session_end"]
    assert {getattr(declaration_of(hook), "name", None) for hook in MEDIA_DELIVERY_HOOKS} == {
        "transform_llm_output",
        "on_session_end",
    }


def test_a_module_registered_as_a_whole_registers_the_media_hooks_it_imports(
    hermes_host: HermesHost,
) -> None:
    # kit_media_module imports MEDIA_DELIVERY_HOOKS into the module it hands to
    # register_plugin; hermes credits the plugin with both hooks (it listed 0 before)
    info = hermes_host.list_plugins()["kit_media_module"]
    assert (info["enabled"], info["error"]) == (True, None)
    loaded = hermes_host.manager._plugins["kit_media_module"]
    assert (info["tools"], info["hooks"]) == (1, len(loaded.hooks_registered))
    both = {"on_session_end", "transform_llm_output"}
    # hermes 0.17.0 and newer credit a plugin with each hook whose callbacks it added
    # (0.17.0 plugins.py 1562-1566); before, only with hook names no plugin loaded
    # earlier was credited with (0.15.0 plugins.py 1438-1449): kit_media_contract was
    loaded_before = list(hermes_host.manager._plugins)[
        : list(hermes_host.manager._plugins).index("kit_media_module")
    ]
    earlier: set[str] = set()
    for key in loaded_before:
        earlier |= set(hermes_host.manager._plugins[key].hooks_registered)
    assert set(loaded.hooks_registered) in (both, both - earlier)
    hooks = hermes_host.manager._hooks
    # once by kit_media_contract (by hand), once by kit_media_module (as a module)
    assert hooks["transform_llm_output"].count(transform_media_delivery_output) == 2
    assert hooks["on_session_end"].count(clear_media_delivery_state) == 2


@pytest.mark.surface("media: final-reply suppression", requires=SILENCE_FUNCTION)
def test_two_plugins_with_the_media_hooks_still_silence_one_reply(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    reply = in_chat(
        lambda: hermes_host.call(
            "kitmm_send", {"path": str(files.image)}, task_id="task-m", session_id=SESSION
        )
    )
    outcome = json.loads(reply)
    assert outcome["data"]["success"] is True, outcome
    assert outcome["data"]["suppression_armed"] is ARMS
    assert telegram_network.methods == ["send_photo"]
    # both plugins' copies of the hook run; the marker is consumed once
    results = hermes_host.plugins.invoke_hook(
        "transform_llm_output", response_text="Sent!", session_id=SESSION
    )
    assert [r for r in results if r is not None] == (["NO_REPLY"] if ARMS else [])
    assert finalize(hermes_host, "Anything else?") == "Anything else?"


@pytest.mark.surface("media: final-reply suppression", requires=SILENCE_FUNCTION)
def test_one_final_reply_is_suppressed_after_a_delivery_from_a_real_tool_call(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    reply = in_chat(
        lambda: hermes_host.call(
            "kitm_deliver", {"path": str(files.image)}, task_id="task-9", session_id=SESSION
        )
    )
    outcome = json.loads(reply)
    assert outcome["success"] is True, outcome
    assert outcome["data"]["success"] is True
    assert telegram_network.methods == ["send_photo"]

    written = f"Here is your cat! MEDIA:{files.image}"
    final = finalize(hermes_host, written)
    if not SILENCES:  # no silence filter: the kit armed nothing, and said why
        assert outcome["data"]["suppression_armed"] is False
        assert first_label(SILENCE_FUNCTION) in outcome["data"]["suppression_note"]
        assert final == written
        return
    if not ARMS:  # the human-turn guard: the reply is sent, and the model was told so
        assert_guarded(outcome["data"]["suppression_armed"], outcome["data"]["suppression_note"])
        assert final == written
        return
    # the host's own filter judges the kit's token silent (upstream deleted its
    # SILENT_REPLY_TOKEN constant: compat_manifest.json @0f9c44d8, kind restored-def)
    from gateway.response_filters import is_intentional_silence_response

    assert final == "NO_REPLY"
    assert is_intentional_silence_response(final)
    # exactly one: the next turn of the same session is delivered as written
    assert finalize(hermes_host, "Anything else?") == "Anything else?"


@pytest.mark.surface("media: final-reply suppression", requires=SILENCE_FUNCTION)
def test_other_sessions_replies_are_left_alone(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    assert_armed(in_chat(lambda: deliver_media(MediaPayload(files.image), session_id=SESSION)))
    assert finalize(hermes_host, "hello", session_id="another-session") == "hello"
    assert finalize(hermes_host, "done") == silenced("done")


def test_session_end_clears_an_unconsumed_marker(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    assert in_chat(lambda: deliver_media(MediaPayload(files.image), session_id=SESSION)).success
    hermes_host.plugins.invoke_hook(
        "on_session_end",
        session_id=SESSION,
        task_id="task-9",
        turn_id="turn-1",
        completed=False,
        interrupted=True,
        model="test-model",
        platform="telegram",
    )
    assert finalize(hermes_host, "next turn") == "next turn"


@pytest.mark.surface("media: final-reply suppression", requires=SILENCE_FUNCTION)
def test_without_a_session_id_in_the_context_the_task_local_one_is_used(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
) -> None:
    # set_session_vars(session_id=...) binds HERMES_SESSION_ID for the task, as
    # agent_init's set_current_session_id does for agent.session_id
    assert_armed(in_chat(lambda: deliver_media(MediaPayload(files.image))))
    assert finalize(hermes_host, "done") == silenced("done")


def test_the_session_another_agent_wrote_to_the_environment_is_never_silenced(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gateway import session_context

    # agent_init's set_current_session_id writes os.environ for every agent it sets up:
    # the environment holds whichever session started last in the process
    monkeypatch.setenv("HERMES_SESSION_ID", "placeholder")
    contextvars.copy_context().run(bind_agent_session, session_context, "other-session")
    assert session_context.get_session_env("HERMES_SESSION_ID") == "other-session"

    def fresh_turn() -> kit_media.MediaDeliveryResult:
        gateway_message_entry(session_context)
        assert session_context.get_session_env("HERMES_SESSION_ID") == "other-session"
        return deliver_media(MediaPayload(files.image), f"telegram:{CHAT}")

    result = contextvars.copy_context().run(fresh_turn)
    assert result.success is True, result.reason
    assert result.suppression_armed is False
    assert result.suppression_note is not None
    assert "named no session" in result.suppression_note
    assert finalize(hermes_host, "their reply", session_id="other-session") == "their reply"


def test_a_plain_thread_started_in_a_turn_arms_nothing(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    in_chat: Callable[..., Any],
    files: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from gateway import session_context

    monkeypatch.setenv("HERMES_SESSION_ID", "other-session")  # the last agent set up
    results: list[kit_media.MediaDeliveryResult] = []

    def worker() -> None:  # a plain thread does not inherit the turn's context variables
        try:
            assert session_context.get_session_env("HERMES_SESSION_ID") == "other-session"
            results.append(deliver_media(MediaPayload(files.image), f"telegram:{CHAT}"))
        finally:  # hermes keeps an event loop per worker thread; close it as the thread ends
            loop = getattr(hermes_host.model_tools._worker_thread_local, "loop", None)
            if loop is not None:
                loop.close()

    def turn() -> None:
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()

    in_chat(turn)
    [result] = results
    assert (result.success, result.suppression_armed) == (True, False)
    assert finalize(hermes_host, "their reply", session_id="other-session") == "their reply"
    assert finalize(hermes_host, "my reply") == "my reply"


@pytest.mark.surface("media: final-reply suppression", requires=SILENCE_FUNCTION)
def test_the_session_hermes_binds_for_the_turn_is_armed_and_the_gateways_blank_is_not(
    hermes_host: HermesHost,
    telegram_network: FakeTelegramNetwork,
    files: SimpleNamespace,
) -> None:
    from gateway import session_context

    def gateway_turn(agent_session: str | None) -> kit_media.MediaDeliveryResult:
        # GatewayRunner._set_session_env binds the chat and no session id ("" from 0.17.0)
        bind_turn(session_context, platform="telegram", chat_id=CHAT, thread_id=TOPIC)
        if agent_session is not None:  # the agent's set-up in this turn
            bind_agent_session(session_context, agent_session)
        return deliver_media(MediaPayload(files.image))

    blank = contextvars.copy_context().run(gateway_turn, None)
    assert (blank.success, blank.suppression_armed) == (True, False)
    assert blank.suppression_note is not None

    saved = os.environ.get("HERMES_SESSION_ID")
    try:
        bound = contextvars.copy_context().run(gateway_turn, SESSION)
    finally:  # set_current_session_id also writes os.environ
        if saved is None:
            os.environ.pop("HERMES_SESSION_ID", None)
        else:
            os.environ["HERMES_SESSION_ID"] = saved
    assert_armed(bound)
    assert finalize(hermes_host, "done") == silenced("done")


# -- paths hermes would read back from the MEDIA: line as another file --------------------

_NAME_PARTS = [
    *"abcXYZ019 _-.,;:)]}([{'\"`~!@#$%^&+=",
    *("\u00a0", "\u2003", "\t", "ſ", "K", ".png", ".pdf", ".bin", ".PNG"),
    *("MEDIA:", "[[as_document]]", "[[audio_as_voice]]"),
]
_ENDINGS = [".png", ".jpg", ".ogg", ".pdf", ".txt", ".bin", "", ".PNG", ".ſvg", ".tar.gz"]
_STRICT_RULES = (
    "which hermes strips",
    "would end media path",
    "no extension hermes delivers",
    "whitespace right before its extension",
    "names another file",
)
"""Refusals that are about the path hermes reads (the others are about how it sends)."""


def _break_before(text: str) -> str:
    """The part of ``text`` before its first space or quote, as hermes trims it."""
    cut = min((i for i, ch in enumerate(text) if ch.isspace() or ch in "\"'"), default=-1)
    return "" if cut < 0 else text[:cut].rstrip("`\"',.;:)}]")


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    parts=st.lists(st.sampled_from(_NAME_PARTS), min_size=1, max_size=8),
    ending=st.sampled_from(_ENDINGS),
    kind=st.sampled_from(list(MediaType)),
    caption=st.sampled_from(["", "Your file", "`code` and > quote", 'x: "y", [z]']),
    other_file=st.booleans(),
)
def test_every_path_the_kit_accepts_is_the_one_file_hermes_reads_back(
    hermes_host: HermesHost,
    tmp_path_factory: pytest.TempPathFactory,
    parts: list[str],
    ending: str,
    kind: MediaType,
    caption: str,
    other_file: bool,
) -> None:
    from gateway.platforms.base import BasePlatformAdapter

    name = "".join(parts) + ending
    assume("/" not in name and name not in (".", ".."))
    folder = tmp_path_factory.mktemp("names")
    path = folder / name
    path.write_bytes(b"media bytes")
    head = _break_before(str(path))
    if other_file and head.startswith(f"{folder}/") and not Path(head).exists():
        Path(head).write_bytes(b"another file")
    payload = _built(path, kind, caption=caption)
    if isinstance(payload, str):
        refused = payload
        if any(rule in refused for rule in _STRICT_RULES):
            media, _ = BasePlatformAdapter.extract_media(f"MEDIA:{path}")
            assert media != [(str(path), False)], f"refused, yet hermes reads it: {refused}"
        return
    message = payload.to_message()
    media, _ = BasePlatformAdapter.extract_media(message)
    assert media == [(str(path), kind is MediaType.VOICE)]
    assert ("[[as_document]]" in message) is (kind is MediaType.DOCUMENT)


_READ_BACK_NAMES = (
    "cat.png",
    "cat.png)",
    "cat.png,",
    "photo album.png",
    "notes.bin",
    "notes two.bin",
    "cat .png",
    "plan.png, notes.pdf",
    "quote'd.png",
    "dots...png",
)
"""File names the releases' parsers read differently (the folder also holds ``photo``)."""


def test_the_kits_model_of_the_media_line_is_this_hosts(
    hermes_host: HermesHost, tmp_path: Path
) -> None:
    from gateway.platforms import base

    from kit_media import _media_tag

    # the tables the kit copies, where this release names them (the extensions from
    # 0.16.0, the trimmed characters and the directives from 0.18.0)
    if hasattr(base, "MEDIA_DELIVERY_EXTS"):
        # the kit holds both tables the releases have had (0.16.0 to 0.19.0, and 0.20.0 on),
        # and uses the running release's own once hermes has loaded its parser
        table = set(base.MEDIA_DELIVERY_EXTS)
        assert table in ({*_media_tag.MEDIA_DELIVERY_EXTS}, {*_media_tag.NEWER_MEDIA_DELIVERY_EXTS})
        assert _media_tag.delivery_extensions() == table
    if hasattr(base, "_normalize_media_tag_path"):
        printable = (chr(code) for code in range(33, 127))  # whitespace is stripped too
        trimmed = {ch for ch in printable if base._normalize_media_tag_path(f"/a{ch}") == "/a"}
        assert trimmed == set(_media_tag.STRIPPED_END)
    if hasattr(base, "_strip_media_tag_directives"):
        assert {_media_tag.VOICE_DIRECTIVE, _media_tag.DOCUMENT_DIRECTIVE} == {
            d
            for d in ("[[audio_as_voice]]", "[[as_document]]", "[[x]]")
            if base._strip_media_tag_directives(f"a{d}b") == "ab"
        }
    # on every release: with hermes' parser loaded, the kit accepts a path exactly when
    # this release reads MEDIA:<path> back as that one file
    (tmp_path / "photo").write_bytes(b"another file")
    (tmp_path / "cat.png").write_bytes(png_bytes())
    for name in _READ_BACK_NAMES:
        path = tmp_path / name
        path.write_bytes(png_bytes())
        media, _ = base.BasePlatformAdapter.extract_media(f"MEDIA:{path}")
        reads_back = media == [(str(path), False)]
        assert (_media_tag.tag_problem(str(path)) is None) is reads_back, (name, media)


def _send_through_hermes(message: str) -> dict[str, Any]:
    args = {"action": "send", "target": f"telegram:{CHAT}", "message": message}
    return json.loads(invoke_host_tool("send_message", args))


def test_a_path_ending_in_a_stripped_character_makes_hermes_send_another_file(
    telegram_network: FakeTelegramNetwork, tmp_path: Path
) -> None:
    other = tmp_path / "cat.png"
    other.write_bytes(png_bytes())
    checked = tmp_path / "cat.png)"
    checked.write_bytes(png_bytes())

    assert _send_through_hermes(f"MEDIA:{checked}")["success"] is True
    assert telegram_network.only("send_photo").kwargs["photo"] == other  # not `checked`
    with pytest.raises(MediaError, match=r"ends in '\)', which hermes strips"):
        MediaPayload(checked)


def test_a_directive_in_a_path_changes_how_hermes_sends_the_file(
    telegram_network: FakeTelegramNetwork, tmp_path: Path
) -> None:
    checked = tmp_path / "plan[[as_document]].png"
    checked.write_bytes(png_bytes())

    assert _send_through_hermes(f"MEDIA:{checked}")["success"] is True
    assert telegram_network.methods == ["send_document"]  # an image sent as a file
    with pytest.raises(MediaError, match=r"holds '\[\[as_document\]\]', which hermes acts on"):
        MediaPayload(checked)


def test_a_space_after_another_files_name_makes_hermes_send_that_file_too(
    telegram_network: FakeTelegramNetwork, tmp_path: Path
) -> None:
    checked = tmp_path / "photo album.png"
    checked.write_bytes(png_bytes())
    other = tmp_path / "photo"
    other.write_bytes(b"private notes")

    assert _send_through_hermes(f"MEDIA:{checked}")["success"] is True
    sent = [
        call.kwargs.get("photo") or call.kwargs.get("document") for call in telegram_network.calls
    ]
    if list(map(str, sent)) == [str(checked)]:
        # this release reads the whole name (its parser has no pass for extension-less
        # paths, which arrived in 0.18.0): the kit follows its parser and accepts the file
        assert MediaPayload(checked).path == checked
        return
    assert sorted(map(str, sent)) == sorted([str(checked), str(other)])
    with pytest.raises(MediaError, match=r"names another file \('photo'\)"):
        MediaPayload(checked)


@pytest.fixture
def model_missing_a_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kit model of the MEDIA: line that knows no rule: only the host's answers remain."""
    from kit_media import _media_tag

    monkeypatch.setattr(_media_tag, "tag_problem", lambda text: None)


def _misread_by_the_parser_alone(folder: Path) -> tuple[Path, str]:
    """A file this release's ``MEDIA:`` parser misreads while its media policy (if it has
    one) answers for that very file, and what the parser reads, as the kit names it.

    0.18.0 and newer read ``photo album.png`` as two files when ``photo`` exists; 0.14.0
    to 0.17.0 read nothing from ``notes.bin``; 0.13.0, which has no media policy, reads
    ``cat.png)`` as ``cat.png``.
    """
    from gateway.platforms import base

    (folder / "photo").write_bytes(b"private notes")
    (folder / "cat.png").write_bytes(png_bytes())
    for name in ("photo album.png", "notes.bin", "cat.png)"):
        path = folder / name
        path.write_bytes(png_bytes())
        media, _ = base.BasePlatformAdapter.extract_media(f"MEDIA:{path}")
        if media == [(str(path), False)]:
            continue
        if offers(MEDIA_POLICY_FUNCTION) and base.validate_media_delivery_path(str(path)) != str(
            path.resolve()
        ):
            continue
        return path, ", ".join(repr(Path(p).name) for p, _ in media) or "no file"
    pytest.fail("no file this release's parser misreads and its media policy accepts")


@pytest.mark.usefixtures("model_missing_a_rule")
def test_the_hosts_own_parser_is_asked_before_sending(
    telegram_network: FakeTelegramNetwork, tmp_path: Path
) -> None:
    checked, names = _misread_by_the_parser_alone(tmp_path)

    result = deliver_media(MediaPayload(checked), f"telegram:{CHAT}", session_id=SESSION)
    assert result.success is False
    assert result.reason is not None
    assert result.reason.startswith(
        f"hermes would read this MEDIA: line as {names}, not {checked.name!r} alone, so"
        " nothing was sent: rename the file"
    )
    assert telegram_network.calls == []
    assert transform_media_delivery_output(response_text="x", session_id=SESSION) is None


@pytest.mark.usefixtures("model_missing_a_rule")
def test_a_media_policy_answer_for_another_file_is_a_refusal(
    telegram_network: FakeTelegramNetwork, tmp_path: Path
) -> None:
    # hermes' validate_media_delivery_path trims a path as its MEDIA: parser does
    (tmp_path / "cat.png").write_bytes(png_bytes())
    checked = tmp_path / "cat.png)"
    checked.write_bytes(png_bytes())

    result = deliver_media(MediaPayload(checked), f"telegram:{CHAT}", session_id=SESSION)
    assert result.success is False
    if not offers(MEDIA_POLICY_FUNCTION):  # no policy to ask: hermes' parser refuses it
        assert result.reason is not None
        assert result.reason.startswith(
            "hermes would read this MEDIA: line as 'cat.png', not 'cat.png)' alone"
        )
    else:
        assert result.reason == (
            "hermes' media policy answered for 'cat.png', not 'cat.png)', so nothing was"
            " sent: rename the file so that its name ends in its extension"
        )
    assert telegram_network.calls == []


def _built(*args: Any, **kwargs: Any) -> MediaPayload | str:
    """The payload, or the message of the MediaError that refused it."""
    try:
        return MediaPayload(*args, **kwargs)
    except MediaError as refused:
        return str(refused)
