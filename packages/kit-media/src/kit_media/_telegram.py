"""The narrow Telegram extension: one photo with ``has_spoiler=True``.

hermes 0.19.0 has no send path that forwards ``has_spoiler`` (neither the standalone
``_send_telegram`` of ``send_message`` nor the gateway adapter's ``send_image_file``),
while python-telegram-bot 22 supports it on ``Bot.send_photo``. This module sends that
one photo itself, under the same ``pre_tool_call``/``post_tool_call`` guard as
``send_message`` (tool name ``send_message``, args with ``media_options: {"spoiler":
true}``), with the token and routing hermes itself uses:

* token, ``extra.base_url``/``base_file_url``/``local_mode``: the Telegram entry of
  ``gateway.config.load_gateway_config()`` (``TELEGRAM_BOT_TOKEN`` or config.yaml, as
  ``gateway.config._apply_env_overrides`` reads them). Never a model argument, never in a result or
  log.
* proxy: ``TELEGRAM_PROXY`` or the system proxy through the host's
  ``resolve_proxy_url``, as ``tools.send_message_tool`` does for its own Bot.
* routes: the current chat (``origin``), the home channel (with its topic, which
  ``send_message`` ignores), ``telegram:<chat>``, ``telegram:<chat>:<topic>`` or
  ``telegram:@username`` (``tools.send_message_tool._TELEGRAM_TOPIC_TARGET_RE``); topic
  ``1`` (a forum's General topic) is sent without ``message_thread_id`` (as
  ``TelegramAdapter._message_thread_id_for_send`` of hermes' Telegram platform does).

The client is one-shot: ``initialize``, ``send_photo``, and ``shutdown`` always, on a
private event loop (a worker thread when the caller is already inside a running loop).
Anything else is refused with the reason, never sent without the spoiler.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

from kit_core import redact_text
from kit_media._guard import HostGuard, run_guarded
from kit_media._host import HostRefusal, HostUnavailableError, import_host, import_telegram
from kit_media._privacy import mask_id
from kit_media.payload import MediaPayload
from kit_media.targets import ResolvedDeliveryTarget

logger = logging.getLogger("kit_media.telegram")

_CHAT_TOPIC: Final = re.compile(r"\s*(-?\d+)(?::(\d+))?\s*")
_USERNAME: Final = re.compile(r"@[A-Za-z0-9_]{4,32}")
_GENERAL_TOPIC: Final = "1"

_T = TypeVar("_T")


class SpoilerRefusal(HostRefusal):
    """The spoiler photo cannot be sent to this target in this host; nothing was sent."""


def send_spoiler_photo(
    payload: MediaPayload,
    photo: Path,
    target: ResolvedDeliveryTarget,
    context: dict[str, Any],
    guard: HostGuard,
) -> tuple[str, tuple[str, ...]]:
    """Send ``photo`` as a spoiler to ``target`` under the guard.

    Returns ``(reply JSON, raw ids to scrub from it)``.

    Raises:
        SpoilerRefusal: not a Telegram route, Telegram not configured, no home channel,
            or python-telegram-bot missing; checked before the guard runs.
        HostUnavailableError: hermes' gateway config cannot be imported.
    """
    require_telegram_route(target)
    telegram_config = _telegram_config()
    token = telegram_config.token
    chat, topic = _route(target, telegram_config)
    bot_class = _bot_class()
    bot_kwargs = _bot_kwargs(token, telegram_config)
    args: dict[str, Any] = {
        "action": "send",
        "target": target.host_target,
        "message": payload.to_message(),
        "media_options": {"spoiler": True},
    }
    raw_ids = (str(chat), str(topic or ""))

    def operation(_args: dict[str, Any]) -> str:
        return _send(bot_class, bot_kwargs, chat, topic, photo, payload.caption, token)

    reply = run_guarded(guard, "send_message", args, context, operation, secrets=(token,))
    return reply, raw_ids


def require_telegram_route(target: ResolvedDeliveryTarget) -> None:
    """Raise :class:`SpoilerRefusal` unless ``target`` is a Telegram route."""
    if target.platform != "telegram":
        msg = (
            f"spoiler photos are a Telegram-only extension; the target platform is"
            f" {target.platform!r}, so nothing was sent: target a Telegram chat, or send"
            " without spoiler=True"
        )
        raise SpoilerRefusal(msg)


@dataclass(frozen=True, slots=True)
class _TelegramConfig:
    token: str = field(repr=False)
    extra: dict[str, Any]
    home_chat: str = field(repr=False)
    home_thread: str = field(repr=False)


def _telegram_config() -> _TelegramConfig:
    gateway_config = import_host("gateway.config")
    try:
        config = gateway_config.load_gateway_config()
        pconfig = config.platforms.get(gateway_config.Platform("telegram"))
    except Exception as exc:
        msg = f"hermes' gateway config could not be loaded ({type(exc).__name__}); nothing was sent"
        raise SpoilerRefusal(msg) from exc
    token = getattr(pconfig, "token", None)
    if pconfig is None or not getattr(pconfig, "enabled", False) or not token:
        msg = (
            "Telegram is not configured in hermes, so the spoiler photo was not sent: set"
            " TELEGRAM_BOT_TOKEN (or the telegram section of config.yaml) for the gateway"
        )
        raise SpoilerRefusal(msg)
    extra = getattr(pconfig, "extra", None)
    home = getattr(pconfig, "home_channel", None)
    home_chat = str(getattr(home, "chat_id", "") or "").strip()
    home_thread = str(getattr(home, "thread_id", "") or "").strip()
    extra_dict: dict[str, Any] = extra if isinstance(extra, dict) else {}  # pyright: ignore[reportUnknownVariableType]
    return _TelegramConfig(str(token), extra_dict, home_chat, home_thread)


def _route(target: ResolvedDeliveryTarget, config: _TelegramConfig) -> tuple[int | str, int | None]:
    """``(chat_id, message_thread_id)`` for the Bot API."""
    if target.kind == "home":
        if not config.home_chat:
            msg = (
                "Telegram has no home channel, so the spoiler photo was not sent: run /sethome"
                " in the chat, or `hermes config set TELEGRAM_HOME_CHANNEL <chat_id>`, or"
                " target 'telegram:<chat_id>'"
            )
            raise SpoilerRefusal(msg)
        ref = config.home_chat + (f":{config.home_thread}" if config.home_thread else "")
    else:
        ref = target.chat_ref
    match = _CHAT_TOPIC.fullmatch(ref)
    if match:
        topic = match.group(2)
        chat: int | str = int(match.group(1))
    elif _USERNAME.fullmatch(ref.strip()):
        chat, topic = ref.strip(), None
    else:
        msg = (
            f"the spoiler path needs a Telegram chat id, <chat id>:<topic id> or @username;"
            f" {mask_id(ref)!r} is none of these (channel names are not resolved here),"
            " so nothing was sent"
        )
        raise SpoilerRefusal(msg)
    thread = None if not topic or topic == _GENERAL_TOPIC else int(topic)
    return chat, thread


def _bot_class() -> Any:
    try:
        telegram = import_telegram()
    except HostUnavailableError as exc:
        raise SpoilerRefusal(str(exc)) from exc
    bot_class = getattr(telegram, "Bot", None)
    if not callable(bot_class):
        msg = "python-telegram-bot has no telegram.Bot: install hermes-agent[messaging]"
        raise SpoilerRefusal(msg)
    return bot_class


def _bot_kwargs(token: str, config: _TelegramConfig) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"token": token}
    base_url = config.extra.get("base_url")
    if isinstance(base_url, str) and base_url:
        kwargs["base_url"] = base_url
        base_file_url = config.extra.get("base_file_url", base_url)
        kwargs["base_file_url"] = base_file_url if isinstance(base_file_url, str) else base_url
    if config.extra.get("local_mode"):
        kwargs["local_mode"] = True
    proxy = _proxy_url()
    if proxy:
        try:
            request_class = import_host("telegram.request").HTTPXRequest
            kwargs["request"] = request_class(proxy=proxy)
            kwargs["get_updates_request"] = request_class(proxy=proxy)
        except Exception as exc:
            logger.warning("event=telegram_proxy_unusable error_type=%s", type(exc).__name__)
    return kwargs


def _proxy_url() -> str | None:
    try:
        resolve = import_host("gateway.platforms.base").resolve_proxy_url
        proxy = resolve("TELEGRAM_PROXY", target_hosts=["api.telegram.org"])
    except Exception:
        return None
    return proxy if isinstance(proxy, str) and proxy else None


def _send(
    bot_class: Any,
    bot_kwargs: dict[str, Any],
    chat: int | str,
    topic: int | None,
    photo: Path,
    caption: str,
    token: str,
) -> str:
    async def send() -> Any:
        bot = bot_class(**bot_kwargs)
        try:
            await bot.initialize()
            with photo.open("rb") as handle:
                kwargs: dict[str, Any] = {"chat_id": chat, "photo": handle, "has_spoiler": True}
                if caption:
                    kwargs["caption"] = caption
                if topic is not None:
                    kwargs["message_thread_id"] = topic
                return await bot.send_photo(**kwargs)
        finally:
            await bot.shutdown()

    try:
        message = run_coroutine(send)
    except Exception as exc:
        detail = redact_text(f"{type(exc).__name__}: {exc}", (token,))
        logger.warning("event=telegram_spoiler_failed error_type=%s", type(exc).__name__)
        return json.dumps({"error": f"Telegram spoiler delivery failed: {detail}"})
    reply = {
        "success": True,
        "platform": "telegram",
        "chat_id": str(chat),
        "message_id": str(getattr(message, "message_id", "")),
        "spoiler": True,
    }
    return json.dumps(reply)


def run_coroutine(factory: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    """Run a coroutine to completion on a private event loop, from sync code.

    The loop is never installed as the thread's current loop (hermes keeps its own per
    thread). Inside a running loop the private loop runs on a worker thread that
    inherits the caller's context variables.
    """
    import asyncio  # here, not at import: asyncio costs every plugin that imports the kit
    import concurrent.futures

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run_on_private_loop(factory)
    pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kit-media-telegram")
    try:
        context = contextvars.copy_context()
        return pool.submit(context.run, _run_on_private_loop, factory).result()
    finally:
        pool.shutdown(wait=False)


def _run_on_private_loop(factory: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    import asyncio

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(factory())
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()
