"""The hardening suite: fuzzing, secret leaks and concurrency across the kit's entry points.

Part of the normal test command. ``HPK_HARDENING_LONG=1`` runs the long version (many
more hypothesis examples, threads and calls). Whatever ran is tallied and printed as one
line in pytest's terminal summary, with what was lost (always zero when the suite passes).

Every test runs with the hermes and telegram modules the kit imports lazily hidden, so
the real host (which ``tests/host`` may have imported) is never used here; media tests
install :class:`FakeHost`, a few plain modules with recorders, in its place.
"""

from __future__ import annotations

import json
import logging
import os
import random
import string
import sys
import threading
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from tests.kit_media.conftest import FakeHost as MediaHost

from kit_media._markers import MARKERS

LONG = os.environ.get("HPK_HARDENING_LONG", "").strip() not in ("", "0")

settings.register_profile(
    "hpk-hardening",
    max_examples=1500 if LONG else 75,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Test modules here use ``@settings(parent=settings.get_profile("hpk-hardening"))``."""


@dataclass(frozen=True)
class Budget:
    threads: int
    calls_per_thread: int


BUDGET = Budget(threads=32, calls_per_thread=250) if LONG else Budget(8, 40)

HOST_MODULES = (
    "hermes_cli",
    "hermes_cli.plugins",
    "hermes_cli.plugins_dispatch",
    "hermes_cli.commands",
    "hermes_cli.main",
    "hermes_cli.config",
    "tools.registry",
    "tools.send_message_tool",
    "gateway.session_context",
    "gateway.config",
    "gateway.platforms.base",
    "gateway.response_filters",
    "model_tools",
    "telegram",
    "telegram.request",
)


@pytest.fixture(scope="module", autouse=True)
def _without_hermes() -> Iterator[None]:
    # module-scoped, not ``monkeypatch``: hypothesis tests may use it
    with pytest.MonkeyPatch.context() as mp:
        for name in HOST_MODULES:
            mp.setitem(sys.modules, name, None)  # an import of the real host fails
        MARKERS.clear_all()
        yield
        MARKERS.clear_all()


# -- what ran ----------------------------------------------------------------------------


@dataclass
class Tally:
    """What the suite tried, for the summary line (tests add to it as they go)."""

    fuzzed: Counter[str] = field(default_factory=Counter[str])
    secrets: set[str] = field(default_factory=set[str])
    paths: set[str] = field(default_factory=set[str])
    records: int = 0
    threads: int = 0
    calls: Counter[str] = field(default_factory=Counter[str])
    lost: Counter[str] = field(default_factory=Counter[str])
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fuzz(self, entry_point: str, count: int = 1) -> None:
        with self.lock:
            self.fuzzed[entry_point] += count

    def line(self) -> str:
        inputs = ", ".join(f"{name} {n:,}" for name, n in sorted(self.fuzzed.items()))
        calls = ", ".join(f"{n:,} {name}" for name, n in sorted(self.calls.items()))
        lost = sum(self.lost.values())
        return (
            f"hardening{' (long)' if LONG else ''}: fuzzed {sum(self.fuzzed.values()):,} inputs"
            f" ({inputs or 'none'}); planted {len(self.secrets)} secrets through"
            f" {len(self.paths)} logging paths, {self.records:,} log records checked;"
            f" {self.threads} threads made {calls or 'no calls'};"
            f" lost, leaked or crossed: {lost}"
        )


TALLY = Tally()


@pytest.fixture(scope="session")
def tally() -> Tally:
    return TALLY


@pytest.fixture(scope="session")
def budget() -> Budget:
    return BUDGET


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if TALLY.fuzzed or TALLY.calls or TALLY.secrets:
        terminalreporter.write_sep("-", "hardening summary")
        terminalreporter.write_line(TALLY.line())


# -- logs ----------------------------------------------------------------------------------


class Capture(logging.Handler):
    """Keeps every record, formatted as a real handler would (traceback included)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.records: list[logging.LogRecord] = []
        self.lines: list[str] = []
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        line = self.format(record)
        with self._guard:
            self.records.append(record)
            self.lines.append(line)

    def texts(self) -> list[str]:
        """Everything a log sink could see: formatted lines, raw args, exception text."""
        out = list(self.lines)
        for record in self.records:
            out.append(repr(record.args))
            out.append(str(record.msg))
            if record.exc_text:
                out.append(record.exc_text)
        return out


@contextmanager
def capturing(*names: str) -> Generator[Capture, None, None]:
    """Capture every record at DEBUG from the root logger (and the named loggers)."""
    capture = Capture()
    loggers = [logging.getLogger(), *(logging.getLogger(n) for n in names)]
    levels = [lg.level for lg in loggers]
    root = loggers[0]
    root.addHandler(capture)
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


# -- secrets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """A planted secret: the text planted, the part that must never be seen, and where it
    may be planted (``anywhere`` for secret-shaped values; ``keyed`` only under a
    secret-looking key; ``env`` only in a tool that names it in ``requires_env``)."""

    kind: str
    text: str
    core: str
    where: str = "anywhere"

    def windows(self, size: int = 12) -> list[str]:
        """Every ``size``-character piece of the core: none may appear anywhere."""
        if len(self.core) <= size:
            return [self.core]
        return [self.core[i : i + size] for i in range(len(self.core) - size + 1)]


ENV_SECRET_NAME = "HPK_HARDENING_SERVICE_KEY"


def secret_corpus(seed: int = 7) -> list[Secret]:
    """One secret of every shape the kit promises to redact, with random cores, plus a
    value kept under secret-looking keys and a ``requires_env`` value."""
    rng = random.Random(seed)

    def chars(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
        return "".join(rng.choice(alphabet) for _ in range(n))

    upper = string.ascii_uppercase + string.digits
    shaped = [
        ("openai", f"sk-{chars(40)}"),
        ("anthropic", f"sk-ant-{chars(40)}"),
        ("stripe", f"sk_live_{chars(28)}"),
        ("github", f"ghp_{chars(36)}"),
        ("github_pat", f"github_pat_{chars(50)}"),
        ("gitlab", f"glpat-{chars(20)}"),
        ("slack", f"xoxb-{chars(12, string.digits)}-{chars(24)}"),
        ("aws", f"AKIA{chars(16, upper)}"),
        ("google", f"AIza{chars(35)}"),
        ("huggingface", f"hf_{chars(34)}"),
        ("jwt", f"eyJ{chars(20)}.eyJ{chars(30)}.{chars(40)}"),
    ]
    corpus = [Secret(kind, text, text) for kind, text in shaped]
    token_core = f"AA{chars(33)}"
    corpus.append(Secret("telegram", f"{rng.randint(10**8, 10**9)}:{token_core}", token_core))
    bearer = chars(32)
    corpus.append(Secret("bearer", f"Bearer {bearer}", bearer))
    password = chars(18)
    corpus.append(Secret("assignment", f"password={password}", password))
    pem_body = chars(64)
    pem = f"-----BEGIN RSA PRIVATE KEY-----\n{pem_body}\n-----END RSA PRIVATE KEY-----"
    corpus.append(Secret("pem", pem, pem_body))
    pgp_body = chars(64)
    pgp = f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n{pgp_body}\n-----END PGP PRIVATE KEY BLOCK-----"
    corpus.append(Secret("pgp", pgp, pgp_body))
    slack_app = f"xapp-1-A{chars(10, upper)}-{chars(13, string.digits)}-{chars(40)}"
    corpus.append(Secret("slack_app", slack_app, slack_app))
    url_password = chars(20)
    corpus.append(Secret("url", f"https://deploy:{url_password}@git.example", url_password))
    basic = chars(28)
    corpus.append(Secret("basic", f"Basic {basic}Zz0=", basic))
    query = chars(30)
    corpus.append(Secret("query", f"https://maps.example/api?key={query}&z=3", query))
    glued = chars(36)
    corpus.append(Secret("glued", f"DEPLOY_KEY_ghp_{glued}", glued))
    encoded_core = f"AA{chars(33)}"
    encoded = f"{rng.randint(10**8, 10**9)}%3A{encoded_core}"
    corpus.append(Secret("telegram_url", encoded, encoded_core))
    header = chars(26)
    corpus.append(Secret("api_key_header", f"X-API-Key: {header}", header))
    keyed = chars(24, string.ascii_lowercase)
    corpus.append(Secret("keyed", keyed, keyed, where="keyed"))
    env = chars(48, string.ascii_lowercase)
    corpus.append(Secret("requires_env", env, env, where="env"))
    return corpus


CORPUS = secret_corpus()
SECRET_KEYS = ("api_key", "password", "Authorization", "client_secret", "refresh_token", "cookie")


@pytest.fixture(scope="session")
def corpus() -> list[Secret]:
    return CORPUS


@pytest.fixture(scope="session")
def capture() -> Callable[..., Any]:
    """``with capture() as logs:`` records every log record at DEBUG."""
    return capturing


@pytest.fixture(scope="session")
def no_leaks(tally: Tally) -> Callable[..., None]:
    """``no_leaks(logs, texts, path=...)``: no piece of any secret in the records or texts."""

    def check(logs: Capture, texts: list[str], *, path: str) -> None:
        seen = logs.texts() + texts
        for text in seen:
            for secret in CORPUS:
                for window in secret.windows():
                    assert window not in text, (
                        f"{secret.kind} secret leaked through {path}: {text[:400]!r}"
                    )
        with tally.lock:
            tally.paths.add(path)
            tally.secrets.update(secret.kind for secret in CORPUS)
            tally.records += len(logs.records)

    return check


# -- a fake hermes host for kit-media --------------------------------------------------------


@dataclass
class FakeHost(MediaHost):
    """kit-media's hermes double (``tests/kit_media/conftest.py``) with each thread in a
    turn of its own, as the gateway binds its ContextVars per message, and each send
    recorded with the thread that made it."""

    reply: Any = lambda args: json.dumps(
        {"success": True, "platform": "telegram", "message_id": "1"}
    )
    sends: list[tuple[int, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    local: threading.local = field(default_factory=threading.local)

    def in_chat(  # type: ignore[override]
        self, chat_id: str, thread_id: str = "", session_id: str = ""
    ) -> FakeHost:
        """Bind this thread's turn."""
        self.local.env = {
            "HERMES_SESSION_PLATFORM": "telegram",
            "HERMES_SESSION_CHAT_ID": chat_id,
            "HERMES_SESSION_THREAD_ID": thread_id,
            "HERMES_SESSION_ID": session_id,
        }
        return self

    def get_session_env(self, name: str, default: str = "") -> str:
        return getattr(self.local, "env", {}).get(name, default)

    def send_message_tool(self, args: dict[str, Any], **kwargs: Any) -> Any:
        self.sends.append((threading.get_ident(), args, kwargs))
        return super().send_message_tool(args, **kwargs)

    @contextmanager
    def installed(self) -> Generator[FakeHost, None, None]:
        with pytest.MonkeyPatch.context() as mp:
            for name, made in self.modules().items():
                mp.setitem(sys.modules, name, made)
            yield self


@pytest.fixture(scope="module")
def media_host() -> FakeHost:
    """Installed with ``with media_host.installed():`` (hypothesis tests may use it)."""
    return FakeHost()


@pytest.fixture(scope="module")
def media_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hardening-media") / "postcard.png"
    path.write_bytes(b"\x89PNG hardening")
    return path
