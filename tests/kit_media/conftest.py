"""Unit-test fixtures for kit-media: the host is never the subject here.

Every test runs with the hermes and telegram modules kit-media imports lazily set to
``None`` in ``sys.modules``, so an import of the real host fails loudly instead of
booting hermes (the real host is tested in ``tests/host``, and must not be imported
before its fixture sets ``HERMES_HOME``). Tests that need a host install
:class:`FakeHost`, a few plain modules with the attributes kit-media uses and recorders.
"""

from __future__ import annotations

import contextvars
import enum
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, ParamSpec, Protocol, TypeVar

import pytest
from tests.kit_media._upstream_gateway import response_filters_members

from kit_media._markers import MARKERS

HOST_MODULES = (
    "hermes_cli",
    "hermes_cli.plugins",
    "tools.send_message_tool",
    "gateway.session_context",
    "gateway.config",
    "gateway.platforms.base",
    "gateway.response_filters",
    "model_tools",
    "telegram",
    "telegram.request",
)

TOKEN = "7012345678:AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o"
CHAT = "-1001234567890"
TOPIC = "17585"
HOME_CHAT = "-1009876543210"

HERMES_SESSION_ID = contextvars.ContextVar[str]("HERMES_SESSION_ID")
"""Plays hermes' ``gateway.session_context._SESSION_ID``: the kit finds it by its name."""

_P = ParamSpec("_P")
_T = TypeVar("_T")


class InTurn(Protocol):
    def __call__(
        self, bound_id: str, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs
    ) -> _T: ...


def _in_turn(bound_id: str, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    def bound() -> _T:
        HERMES_SESSION_ID.set(bound_id)
        return fn(*args, **kwargs)

    return contextvars.copy_context().run(bound)


@pytest.fixture
def in_turn() -> InTurn:
    """``in_turn(session_id, fn, *args, **kwargs)`` runs ``fn`` in a copied context with
    ``HERMES_SESSION_ID`` bound, as hermes binds it for a turn (``set_current_session_id``);
    nothing leaks into the test's own context."""
    return _in_turn


@pytest.fixture(autouse=True)
def no_real_host(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in HOST_MODULES:
        monkeypatch.setitem(sys.modules, name, None)
    MARKERS.clear_all()
    yield
    MARKERS.clear_all()


class Platform(enum.Enum):
    TELEGRAM = "telegram"
    DISCORD = "discord"


@dataclass
class FakeBot:
    """Stands in for ``telegram.Bot``; every instance reports to its host."""

    host: FakeHost
    kwargs: dict[str, Any]

    async def initialize(self) -> None:
        self.host.record_bot("initialize", {})

    async def send_photo(self, **kwargs: Any) -> Any:
        photo = kwargs["photo"]
        recorded = {**kwargs, "photo": Path(photo.name), "bytes": photo.read()}
        self.host.record_bot("send_photo", recorded)
        return SimpleNamespace(message_id=321)

    async def shutdown(self) -> None:
        self.host.record_bot("shutdown", {})


def is_silence(text: str) -> bool:
    """Plays ``gateway.response_filters.is_intentional_silence_response`` for the token."""
    return text.strip().upper() in {"NO_REPLY", "[SILENT]"}


def caption_split(text: str, media: Any, *, max_caption_len: int) -> tuple[str | None, str]:
    """Plays ``tools.send_message_tool._media_caption_split`` (its presence is what counts)."""
    return (text.strip(), "") if text.strip() and len(media) == 1 else (None, text)


@dataclass
class FakeHost:
    """The hermes (and telegram) surface kit-media uses, with recorders."""

    session: dict[str, str] = field(default_factory=dict)
    block: str | None = None
    guard_error: Exception | None = None
    reply: Any = field(
        default_factory=lambda: json.dumps(
            {"success": True, "platform": "telegram", "chat_id": CHAT, "message_id": "11"}
        )
    )
    policy: Callable[[str], str | None] = lambda path: path
    telegram_enabled: bool = True
    token: str | None = TOKEN
    extra: dict[str, Any] = field(default_factory=dict)
    home_chat: str = ""
    home_thread: str = ""
    proxy: str | None = None
    bot_failures: dict[str, Exception] = field(default_factory=dict)
    has_post_hook: bool = True
    silence_filter: bool = True
    """Whether the gateway has hermes' silence filter (``gateway.response_filters``)."""
    caption_split: bool = True
    """Whether ``send_message`` can put a caption on the file (``_media_caption_split``)."""
    dispatch_api: bool = False
    """Whether ``hermes_cli.plugins`` has upstream's ``_dispatch_pre_tool_call_hooks``."""
    modify: list[Any] = field(default_factory=list)
    """``args`` of the ``{"action": "modify", "args": ...}`` directives the hooks return."""
    hermes: str = "0.19.0"
    """The release the gateway plays: ``hermes_cli.__version__``, and what
    ``gateway.response_filters`` offers besides its silence filter (the human-turn guard's
    predicates from 0.21.4, ``SILENT_REPLY_TOKEN`` where the release has one)."""
    pre_calls: list[dict[str, Any]] = field(default_factory=list)
    post_calls: list[dict[str, Any]] = field(default_factory=list)
    handler_calls: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    bots: list[FakeBot] = field(default_factory=list)
    bot_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    policy_calls: list[str] = field(default_factory=list)

    # -- hermes_cli.plugins
    def resolve_pre_tool_block(self, tool_name: str, args: Any, **context: Any) -> str | None:
        if self.dispatch_api:  # upstream: ``return _dispatch_pre_tool_call_hooks(...)[0]``
            return self.dispatch_pre_tool_call_hooks(tool_name, args, **context)[0]
        self.pre_calls.append(
            {"tool_name": tool_name, "args": json.loads(json.dumps(args)), **context}
        )
        if self.guard_error is not None:
            raise self.guard_error
        return self.block

    def dispatch_pre_tool_call_hooks(
        self, tool_name: str, args: Any, **hook_kwargs: Any
    ) -> tuple[str | None, dict[str, Any] | None]:
        """Plays upstream's ``_dispatch_pre_tool_call_hooks`` (``hermes_cli/plugins.py`` at
        00067189dfecf833d4d009c2dd977ae85cf800e0, L1887-1895): one hook pass, then
        ``(block_message, modified_args)``; the merge copies
        ``_get_pre_tool_call_directive_details`` (L1808-1816 there): each non-empty dict
        ``args`` of a modify directive is merged over the args so far, later ones winning
        per key, and the original args are never changed."""
        self.pre_calls.append(
            {"tool_name": tool_name, "args": json.loads(json.dumps(args)), **hook_kwargs}
        )
        if self.guard_error is not None:
            raise self.guard_error
        modified: dict[str, Any] | None = None
        for partial in self.modify:
            if isinstance(partial, dict) and partial:
                base = (
                    modified if modified is not None else (args if isinstance(args, dict) else {})
                )
                modified = {**base, **partial}
        return self.block, modified

    def has_hook(self, name: str) -> bool:
        return self.has_post_hook

    def invoke_hook(self, name: str, **kwargs: Any) -> list[Any]:
        assert name == "post_tool_call"
        self.post_calls.append(kwargs)
        return []

    # -- tools.send_message_tool
    def send_message_tool(self, args: dict[str, Any], **kwargs: Any) -> Any:
        self.handler_calls.append((args, kwargs))
        if isinstance(self.reply, BaseException):
            raise self.reply
        return self.reply(args) if callable(self.reply) else self.reply

    # -- gateway.session_context
    def get_session_env(self, name: str, default: str = "") -> str:
        return self.session.get(name, default)

    # -- gateway.platforms.base
    def validate_media_delivery_path(self, path: str) -> str | None:
        self.policy_calls.append(path)
        return self.policy(path)

    def resolve_proxy_url(self, env: str, target_hosts: Any = None) -> str | None:
        return self.proxy

    # -- gateway.config
    def load_gateway_config(self) -> Any:
        home = (
            SimpleNamespace(chat_id=self.home_chat, thread_id=self.home_thread or None)
            if self.home_chat
            else None
        )
        telegram = SimpleNamespace(
            enabled=self.telegram_enabled, token=self.token, extra=self.extra, home_channel=home
        )
        return SimpleNamespace(platforms={Platform.TELEGRAM: telegram})

    # -- telegram
    def make_bot(self, **kwargs: Any) -> FakeBot:
        bot = FakeBot(self, kwargs)
        self.bots.append(bot)
        return bot

    def record_bot(self, method: str, kwargs: dict[str, Any]) -> None:
        self.bot_calls.append((method, kwargs))
        if method in self.bot_failures:
            raise self.bot_failures[method]

    @property
    def bot_methods(self) -> list[str]:
        return [method for method, _ in self.bot_calls]

    def in_chat(
        self, platform: str = "telegram", chat_id: str = CHAT, thread_id: str = TOPIC, **extra: str
    ) -> FakeHost:
        self.session.update(
            HERMES_SESSION_PLATFORM=platform,
            HERMES_SESSION_CHAT_ID=chat_id,
            HERMES_SESSION_THREAD_ID=thread_id,
            **extra,
        )
        return self

    def modules(self) -> dict[str, ModuleType]:
        def module(name: str, **attrs: Any) -> ModuleType:
            mod = ModuleType(name)
            mod.__dict__.update(attrs)
            return mod

        return {
            "hermes_cli": module("hermes_cli", __version__=self.hermes),
            "hermes_cli.plugins": module(
                "hermes_cli.plugins",
                resolve_pre_tool_block=self.resolve_pre_tool_block,
                has_hook=self.has_hook,
                invoke_hook=self.invoke_hook,
                **(
                    {"_dispatch_pre_tool_call_hooks": self.dispatch_pre_tool_call_hooks}
                    if self.dispatch_api
                    else {}
                ),
            ),
            "tools.send_message_tool": module(
                "tools.send_message_tool",
                send_message_tool=self.send_message_tool,
                **({"_media_caption_split": caption_split} if self.caption_split else {}),
            ),
            "gateway.session_context": module(
                "gateway.session_context", get_session_env=self.get_session_env
            ),
            "gateway.platforms.base": module(
                "gateway.platforms.base",
                validate_media_delivery_path=self.validate_media_delivery_path,
                resolve_proxy_url=self.resolve_proxy_url,
            ),
            "gateway.config": module(
                "gateway.config", Platform=Platform, load_gateway_config=self.load_gateway_config
            ),
            "gateway.response_filters": module(
                "gateway.response_filters",
                **({"is_intentional_silence_response": is_silence} if self.silence_filter else {}),
                **response_filters_members(self.hermes),
            ),
            "telegram": module("telegram", Bot=self.make_bot),
            "telegram.request": module(
                "telegram.request", HTTPXRequest=lambda **kw: SimpleNamespace(**kw)
            ),
        }


@pytest.fixture
def host(monkeypatch: pytest.MonkeyPatch) -> FakeHost:
    """A fake hermes host installed in ``sys.modules`` for this test."""
    fake = FakeHost()
    for name, module in fake.modules().items():
        monkeypatch.setitem(sys.modules, name, module)
    return fake


@pytest.fixture
def image(tmp_path: Path) -> Path:
    path = tmp_path / "private folder" / "cat.png"
    path.parent.mkdir()
    path.write_bytes(b"\x89PNG fake image bytes")
    return path


@pytest.fixture
def voice(tmp_path: Path) -> Path:
    path = tmp_path / "memo.opus"
    path.write_bytes(b"OggS fake opus")
    return path
