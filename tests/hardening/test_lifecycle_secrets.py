"""The ``requires_env`` values of a plugin's tools never show through its other surfaces.

A plugin whose tool needs ``HPK_LIFECYCLE_SERVICE_KEY`` registers hooks, middleware, slash
and CLI commands with ``register_plugin``. The key's value (and every other secret of the
corpus) is planted where the host puts ids (``session_id``, ``task_id``), in exceptions the
callbacks raise, and in text a registrar raises with. Through every logging path at DEBUG
(invoked, ok, raised, the single-use ``next_call``), no piece of a secret may appear in a
record, in the message of an exception that leaves a callback, in the line hermes logs
for it (``Hook '%s' callback %s raised: %s``), or in a ``PartialRegistrationError``. The
same holds for callbacks that name their variables with ``requires_env=`` and are used
without ``register_plugin``, and for a key rotated while the plugin runs.
"""

from __future__ import annotations

import asyncio
import logging
import string
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core import str_arg, tool
from kit_lifecycle import (
    CommandType,
    MiddlewareKind,
    PartialRegistrationError,
    command,
    hook,
    middleware,
    register_plugin,
)

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))
ENV_NAME = "HPK_LIFECYCLE_SERVICE_KEY"
OWN_ENV = "HPK_LIFECYCLE_HOOK_KEY"
HOST_LOG = logging.getLogger("hpk.hardening.fake_host")


class Refused(Exception):
    """What a callback raises, quoting what it was given."""


@tool(toolset="secrets", name="sec_fetch", requires_env=[ENV_NAME], params={"q": str_arg("Q")})
def sec_fetch(args: dict[str, Any], **kwargs: Any) -> object:
    """Fetch with the service key."""
    return args


def raising(kwargs: dict[str, Any]) -> None:
    if kwargs.get("fail"):
        raise Refused(f"refused {kwargs['fail']} for session {kwargs.get('session_id')}")


@hook("pre_tool_call")
def sec_guard(**kwargs: Any) -> None:
    raising(kwargs)


@middleware(MiddlewareKind.TOOL_REQUEST)
def sec_request(**kwargs: Any) -> None:
    raising(kwargs)


@middleware(MiddlewareKind.TOOL_EXECUTION)
def sec_execution(**kwargs: Any) -> Any:
    first = kwargs["next_call"](kwargs.get("args"))
    if kwargs.get("twice"):
        kwargs["next_call"](kwargs.get("args"))  # refused: next_call is single-use
    raising(kwargs)
    return first


@command("sec-say", "Say it.")
def sec_say(raw_args: str) -> str:
    raising({"fail": raw_args} if raw_args.startswith("fail") else {})
    return "ok"


@command("sec-later", "Say it later.")
async def sec_later(raw_args: str) -> str:
    raising({"fail": raw_args} if raw_args.startswith("fail") else {})
    return "ok"


@command("sec-admin", "Administer.", type=CommandType.CLI)
def sec_admin(args: Any) -> int:
    raising({"fail": args.fail})
    return 0


PLUGIN = (sec_fetch, sec_guard, sec_request, sec_execution, sec_say, sec_later, sec_admin)


@hook("post_tool_call", requires_env=[OWN_ENV])
def own_observer(**kwargs: Any) -> None:
    raising(kwargs)


@middleware(MiddlewareKind.LLM_REQUEST, requires_env=[OWN_ENV])
def own_request(**kwargs: Any) -> None:
    raising(kwargs)


@command("sec-own", "Uses its own key.", requires_env=[OWN_ENV])
def own_command(raw_args: str) -> str:
    raising({"fail": raw_args})
    return "ok"


def recording_context() -> SimpleNamespace:
    def keep(*args: Any, **kwargs: Any) -> None:
        return None

    return SimpleNamespace(
        manifest=SimpleNamespace(name="secrets-plugin"),
        register_tool=keep,
        register_hook=keep,
        register_middleware=keep,
        register_command=keep,
        register_cli_command=keep,
    )


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    register_plugin(recording_context(), PLUGIN)


def drive(value: str, texts: list[str]) -> None:
    """Every logging path of every surface once with ``value`` planted, collecting the text
    of each exception that leaves a callback, and the line hermes logs for it."""
    ids = {"session_id": value, "task_id": value}

    def fails(call: Callable[[], Any], name: str) -> None:
        try:
            call()
        except (Refused, RuntimeError) as exc:
            texts.append(str(exc))
            texts.append(repr(exc))
            HOST_LOG.warning("Hook '%s' callback %s raised: %s", name, name, exc)
        else:
            raise AssertionError(f"{name} did not raise")

    for callback, name in ((sec_guard, "pre_tool_call"), (own_observer, "post_tool_call")):
        callback(tool_name="sec_fetch", args={"q": "x"}, **ids)  # invoked + ok
        fails(lambda callback=callback: callback(fail=value, **ids), name)
    for callback in (sec_request, own_request):
        callback(args={"q": "x"}, **ids)
        fails(lambda callback=callback: callback(fail=value, **ids), "request middleware")

    def run(args: Any = None) -> str:
        return "result"

    sec_execution(next_call=run, args={"q": "x"}, **ids)
    fails(lambda: sec_execution(next_call=run, fail=value, **ids), "tool_execution")
    fails(lambda: sec_execution(next_call=run, twice=True, **ids), "tool_execution")
    sec_say("hello")
    fails(lambda: sec_say(f"fail {value}"), "sec-say")
    asyncio.run(sec_later("hello"))
    fails(lambda: asyncio.run(sec_later(f"fail {value}")), "sec-later")
    fails(lambda: sec_admin(SimpleNamespace(fail=value)), "sec-admin")
    fails(lambda: own_command(f"fail {value}"), "sec-own")


def test_no_secret_leaks_through_any_hook_middleware_or_command_path(
    corpus: list[Any], capture: Any, no_leaks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = next(s for s in corpus if s.where == "env")
    monkeypatch.setenv(ENV_NAME, env.text)
    monkeypatch.setenv(OWN_ENV, env.text)
    texts: list[str] = []
    with capture(HOST_LOG.name) as logs:
        for secret in corpus:
            if secret.where != "keyed":  # only a value under a secret-looking key is hidden
                drive(secret.text, texts)
    assert len(logs.records) > 20 * len(corpus)
    assert {r.levelno for r in logs.records} >= {logging.DEBUG, logging.INFO, logging.WARNING}
    no_leaks(logs, texts, path="hooks, middleware and commands of a plugin with requires_env")


def test_a_key_rotated_while_the_plugin_runs_is_hidden_too(
    capture: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts: list[str] = []
    with capture(HOST_LOG.name) as logs:
        for value in ("first0key0value0abcdefgh", "second1key1value1ijklmnop"):
            monkeypatch.setenv(ENV_NAME, value)
            monkeypatch.setenv(OWN_ENV, value)
            drive(value, texts)
            seen = logs.texts() + texts
            assert all(value not in text for text in seen)
    assert any("***" in text for text in texts)


def test_a_registrar_error_does_not_show_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    value = "registrar0key0value0qrstuvwx"
    monkeypatch.setenv(ENV_NAME, value)
    ctx = recording_context()

    def refuse(hook_name: str, callback: Any) -> None:
        raise PermissionError(f"hook {hook_name} refused with key {value}\n{value}")

    ctx.register_hook = refuse
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(ctx, PLUGIN)
    error = caught.value
    for text in (str(error), repr(error), error.failed, *error.rolled_back, *error.left_registered):
        assert value not in text
    assert "PermissionError: hook pre_tool_call refused with key *** ***." in str(error)


@HARDENING
@given(value=st.text(alphabet=string.ascii_letters + string.digits + "-_.:/+=", min_size=16))
def test_any_key_value_is_hidden(value: str, capture: Any, tally: Any) -> None:
    texts: list[str] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_NAME, value)
        mp.setenv(OWN_ENV, value)
        with capture(HOST_LOG.name) as logs:
            drive(value, texts)
    for text in logs.texts() + texts:
        assert value not in text
    tally.fuzz("requires_env values through hooks, middleware and commands")
