"""requires_env on hooks, middleware and commands, and its binding by register_plugin."""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from kit_core import HookSpec, declare, str_arg, tool
from kit_lifecycle import (
    CommandType,
    DeclarationError,
    MiddlewareKind,
    command,
    hook,
    middleware,
    register_plugin,
)

VALUE = "lifecycle-env-value-5d2c9a"
OTHER = "another-env-value-77e1b0"


def observer(**kwargs: Any) -> None:
    return None


def handler(raw: Any) -> str:
    return "ok"


DECORATORS: dict[str, Callable[..., Any]] = {
    "hook": lambda env: hook("on_session_end", requires_env=env)(observer),
    "middleware": lambda env: middleware(MiddlewareKind.TOOL_REQUEST, requires_env=env)(observer),
    "slash": lambda env: command("lc-env", "Env.", requires_env=env)(handler),
    "cli": lambda env: command("lc-env", "Env.", type=CommandType.CLI, requires_env=env)(handler),
}


@pytest.mark.parametrize("kind", DECORATORS)
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("LC_TOKEN", r"requires_env must be a list of variable names, e\.g\. \['LC_TOKEN'\]"),
        (3, r"requires_env must be a list of variable names"),
        (["LC TOKEN"], r"requires_env holds invalid variable names \['LC TOKEN'\]"),
        (["1ST"], r"requires_env holds invalid variable names \['1ST'\]"),
        ([None], r"requires_env holds invalid variable names \[None\]"),
    ],
)
def test_requires_env_must_be_a_list_of_names(kind: str, bad: Any, message: str) -> None:
    with pytest.raises(DeclarationError, match=message):
        DECORATORS[kind](bad)


@pytest.mark.parametrize("kind", DECORATORS)
@pytest.mark.parametrize("good", [None, [], ["LC_TOKEN"], ("LC_TOKEN", "_lc_other2")])
def test_requires_env_accepts_names(kind: str, good: Any) -> None:
    assert callable(DECORATORS[kind](good))


def test_the_exception_leaving_a_hook_is_the_same_object_with_the_value_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LC_HOOK_KEY", VALUE)
    cause = KeyError(f"lookup of {VALUE}")
    error = PermissionError(f"refused with {VALUE}", 13)
    error.add_note(f"note with {VALUE}")

    @hook("pre_tool_call", requires_env=["LC_HOOK_KEY"])
    def guard(**kwargs: Any) -> None:
        raise error from cause

    with pytest.raises(PermissionError) as caught:
        guard(session_id="s")
    assert caught.value is error
    assert error.args == ("refused with ***", 13)
    assert error.__notes__ == ["note with ***"]
    assert str(cause) == "'lookup of ***'"


def test_an_exception_without_the_value_is_left_exactly_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LC_HOOK_KEY", VALUE)
    args = ("plain", {"n": 1})
    error = RuntimeError(*args)

    @middleware(MiddlewareKind.TOOL_REQUEST, requires_env=["LC_HOOK_KEY"])
    def rewrite(**kwargs: Any) -> None:
        raise error

    with pytest.raises(RuntimeError):
        rewrite(args={})
    assert error.args is args


def lines(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(r.getMessage() for r in caplog.records)


def test_register_plugin_binds_the_tools_variables_to_every_callback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("LC_SERVICE_KEY", VALUE)
    monkeypatch.setenv("LC_OWN_KEY", OTHER)

    @tool(toolset="lcenv", name="lcenv_fetch", requires_env=["LC_SERVICE_KEY"], params={})
    def fetch(args: dict[str, Any], **kwargs: Any) -> object:
        """Fetch."""
        return args

    @hook("on_session_end", requires_env=["LC_OWN_KEY"])
    def end(**kwargs: Any) -> None:
        return None

    @command("lcenv-say", "Say.")
    def say(raw: str) -> str:
        raise ValueError(f"cannot say {raw}")

    caplog.set_level(logging.DEBUG)
    end(session_id=VALUE, task_id=OTHER)
    assert VALUE in lines(caplog)  # not bound yet: only its own variable is hidden
    assert OTHER not in lines(caplog)

    keep: Callable[..., None] = lambda *args, **kwargs: None  # noqa: E731
    ctx = SimpleNamespace(register_tool=keep, register_hook=keep, register_command=keep)
    register_plugin(ctx, [fetch, end, say], plugin_name="lcenv")
    caplog.clear()
    end(session_id=VALUE, task_id=OTHER)
    with pytest.raises(ValueError, match=r"^cannot say \*\*\*$"):
        say(VALUE)
    assert VALUE not in lines(caplog)
    assert OTHER not in lines(caplog)
    assert 'context={"session_id": "***", "task_id": "***"}' in lines(caplog)


def test_a_plain_hook_callable_is_registered_untouched() -> None:
    def deliver(**kwargs: Any) -> None:
        return None

    declare(deliver, HookSpec("transform_llm_output", deliver))
    before = dict(vars(deliver))

    @tool(toolset="lcenv", name="lcenv_plain", requires_env=["LC_SERVICE_KEY"], params={})
    def plain(args: dict[str, Any], **kwargs: Any) -> object:
        """Plain."""
        return args

    hooks: list[Any] = []
    keep: Callable[..., None] = lambda *args, **kwargs: None  # noqa: E731
    ctx = SimpleNamespace(register_tool=keep, register_hook=lambda n, cb: hooks.append(cb))
    register_plugin(ctx, [plain, deliver], plugin_name="lcenv")
    assert hooks == [deliver]
    assert vars(deliver) == before  # no secret environment attached to a foreign callable


def test_the_key_as_a_command_name_is_hidden_too(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    name = "lcenvsecretcommandname"
    monkeypatch.setenv("LC_NAME_KEY", name)
    caplog.set_level(logging.DEBUG)
    command(name, "A command named like the key.", requires_env=["LC_NAME_KEY"])(handler)("x")
    assert name not in lines(caplog)
    assert "***: ok; elapsed_ms=" in lines(caplog)


def test_every_registration_adds_to_what_a_callback_hides(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("LC_FIRST_KEY", VALUE)
    monkeypatch.setenv("LC_SECOND_KEY", OTHER)

    @hook("on_session_start")
    def shared(**kwargs: Any) -> None:
        return None

    keep: Callable[..., None] = lambda *args, **kwargs: None  # noqa: E731
    ctx = SimpleNamespace(register_tool=keep, register_hook=keep)
    for env in ("LC_FIRST_KEY", "LC_SECOND_KEY"):

        @tool(toolset="lcenv", name=f"lcenv_{env.lower()}", requires_env=[env], params={})
        def uses(args: dict[str, Any], **kwargs: Any) -> object:
            """Uses a key."""
            return args

        register_plugin(ctx, [uses, shared], plugin_name="lcenv")
    caplog.set_level(logging.DEBUG)
    shared(session_id=VALUE, task_id=OTHER)
    assert VALUE not in lines(caplog)
    assert OTHER not in lines(caplog)


def test_a_tool_without_requires_env_binds_nothing(caplog: pytest.LogCaptureFixture) -> None:
    @tool(toolset="lcenv", name="lcenv_none", params={"q": str_arg("Q")})
    def none(args: dict[str, Any], **kwargs: Any) -> object:
        """Needs nothing."""
        return args

    @hook("on_session_reset")
    def reset(**kwargs: Any) -> None:
        return None

    keep: Callable[..., None] = lambda *args, **kwargs: None  # noqa: E731
    register_plugin(
        SimpleNamespace(register_tool=keep, register_hook=keep), [none, reset], plugin_name="x"
    )
    caplog.set_level(logging.DEBUG)
    reset(session_id="s-plain")
    assert 'context={"session_id": "s-plain"}' in lines(caplog)
