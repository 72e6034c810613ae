"""No secret reaches a log record, an error envelope or a delivery result.

A corpus of secrets (one of every shape the kit promises to redact, a value kept under
secret-looking keys, and a ``requires_env`` value) is planted in argument keys, nested
values, exception messages, command text, hook and middleware keywords, registration
inputs, delivery targets and host replies, and sent through every logging path with every
logger at DEBUG. No 12-character piece of any secret may appear in a formatted record, its
raw arguments, its exception text, an envelope, a ``MediaDeliveryResult`` or an error.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from kit_core import int_arg, object_arg, register_all, str_arg, tool
from kit_lifecycle import MiddlewareKind, command, hook, middleware, plugin_skill, register_plugin
from kit_media import MediaError, MediaPayload, deliver_media, invoke_host_tool

ENV_NAME = "HPK_HARDENING_SERVICE_KEY"
SECRET_KEYS = ("api_key", "password", "Authorization", "client_secret", "refresh_token", "cookie")


@pytest.fixture(autouse=True)
def service_key(monkeypatch: pytest.MonkeyPatch, corpus: list[Any]) -> None:
    env = next(s for s in corpus if s.where == "env")
    monkeypatch.setenv(ENV_NAME, env.text)


@tool(
    toolset="hardening",
    requires_env=[ENV_NAME],
    params={
        "query": str_arg("Query", required=True, example="weather"),
        "count": int_arg("Count", minimum=1, maximum=5),
        "options": object_arg("Options", properties={"depth": int_arg("Depth")}),
    },
)
def leaky(args: dict[str, Any], **kwargs: Any) -> object:
    """Fails, quoting what it was given and the service key."""
    import os

    raise RuntimeError(f"upstream refused {args['query']!r} with key {os.environ[ENV_NAME]}")


@tool(toolset="hardening", requires_env=[ENV_NAME], params={"query": str_arg("Query")})
async def leaky_async(args: dict[str, Any], **kwargs: Any) -> object:
    """Fails quoting its query, or returns a value JSON cannot hold."""
    if args.get("query"):
        raise ValueError(f"cannot use {args['query']}")
    return {object()}


def plantings(secret: Any) -> list[Any]:
    """Tool arguments carrying ``secret`` wherever a model could put it."""
    keyed = [{"query": "x", key: secret.text} for key in SECRET_KEYS]
    if secret.where == "keyed":
        return keyed
    return [
        *keyed,
        {"query": secret.text},  # reaches the handler, which raises quoting it
        {"query": "x", "count": secret.text},  # refused: the value is quoted in the error
        {"query": "x", secret.text: 1},  # an unknown key
        {"query": "x", "options": {"depth": secret.text}},  # nested
        {"query": "x", "options": {"depth": [secret.text, {"deeper": secret.text}]}},
        json.dumps({"query": "x", "count": secret.text}),  # as JSON text
        [secret.text],
        secret.text,
        {"query": ""},  # refused, with the secret in the runtime context below
    ]


def test_no_secret_leaks_through_tool_calls(corpus: list[Any], capture: Any, no_leaks: Any) -> None:
    answers: list[str] = []
    with capture() as logs:
        for secret in corpus:
            context = {"session_id": secret.text, "task_id": secret.text}
            if secret.where != "anywhere":
                context = {"session_id": "s-1"}
            for args in plantings(secret):
                answers.append(leaky(args, **context))
                answers.append(asyncio.run(leaky_async(args, **context)))
            answers.append(asyncio.run(leaky_async({}, **context)))  # the unencodable result
    assert all(json.loads(a)["success"] is False for a in answers)
    no_leaks(logs, answers, path="tool calls (debug, rejection, failure, result)")


@command("hardening-secret", "Takes secret text.")
def secret_command(raw_args: str) -> str:
    raise PermissionError(f"refused {raw_args}")


@command("hardening-secret-ok", "Takes secret text and succeeds.")
async def secret_command_ok(raw_args: str) -> dict[str, int]:
    return {"chars": len(raw_args)}


def test_no_secret_leaks_through_commands(corpus: list[Any], capture: Any, no_leaks: Any) -> None:
    replies: list[str] = []
    with capture() as logs:
        for secret in corpus:
            with pytest.raises(PermissionError):
                secret_command(f"deploy {secret.text}")
            replies.append(str(asyncio.run(secret_command_ok(f"token={secret.text}"))))
    no_leaks(logs, replies, path="slash commands")


@hook("pre_tool_call", requires_env=[ENV_NAME])
def secret_hook(**kwargs: Any) -> None:
    raise PermissionError(f"refused {kwargs}")


@hook("post_tool_call", requires_env=[ENV_NAME])
def quiet_hook(**kwargs: Any) -> dict[str, Any]:
    return {"seen": kwargs}


@middleware(MiddlewareKind.TOOL_REQUEST, requires_env=[ENV_NAME])
def secret_middleware(**kwargs: Any) -> dict[str, Any]:
    return {"args": kwargs.get("args")}


@middleware(MiddlewareKind.TOOL_EXECUTION, requires_env=[ENV_NAME])
def secret_execution(**kwargs: Any) -> Any:
    return kwargs["next_call"](kwargs["args"])


def test_hooks_and_middleware(corpus: list[Any], capture: Any, no_leaks: Any) -> None:
    with capture() as logs:
        for secret in corpus:
            payload = {
                "tool_name": "x",
                "args": {"query": secret.text, "api_key": secret.text},
                "result": secret.text,
                # a value kept only under secret keys has no shape to find in an id
                "task_id": secret.text if secret.where != "keyed" else "t-1",
                "session_id": secret.text if secret.where != "keyed" else "s-1",
            }
            with pytest.raises(PermissionError):
                secret_hook(**payload)
            quiet_hook(**payload)
            secret_middleware(**payload)
            secret_execution(**payload, next_call=lambda args: json.dumps(args))
    no_leaks(logs, [], path="hooks and middleware")


def test_registration_receipts(
    corpus: list[Any], capture: Any, no_leaks: Any, tmp_path: Path
) -> None:
    texts = " ".join(s.text for s in corpus)
    skill_file = tmp_path / "secretive" / "SKILL.md"
    skill_file.parent.mkdir()
    skill_file.write_text("---\nname: secretive\n---\n")

    @tool(toolset="hardening", requires_env=[ENV_NAME], description=f"Knows {texts}.")
    def knows(args: dict[str, Any], **kwargs: Any) -> object:
        return args

    calls: list[Any] = []
    ctx = SimpleNamespace(
        register_tool=lambda **kw: calls.append(kw),
        register_skill=lambda **kw: calls.append(kw),
        manifest=SimpleNamespace(name="hardening-plugin"),
    )
    with capture() as logs:
        register_plugin(ctx, [knows], [plugin_skill("secretive", skill_file, f"Uses {texts}.")])
        module = ModuleType("hardening_secret_module")
        module.knows = knows  # pyright: ignore[reportAttributeAccessIssue]
        register_all(ctx, module)
    no_leaks(logs, [], path="register_plugin and register_all receipts")


def test_no_secret_leaks_through_media_delivery(
    corpus: list[Any], capture: Any, no_leaks: Any, media_host: Any, media_file: Path
) -> None:
    token = next(s for s in corpus if s.kind == "telegram")
    texts: list[str] = []
    with capture() as logs, media_host.installed():
        media_host.in_chat("-1001234567890", "17585")
        for secret in corpus:
            keyed = dict.fromkeys(SECRET_KEYS, secret.text)
            bare = secret.where == "anywhere"
            planted = secret.text if bare else ""
            replies: list[Any] = [
                json.dumps(
                    {
                        "success": False,
                        "error": f"Unauthorized: {secret.text}" if bare else "no",
                        **keyed,
                    }
                ),
                json.dumps(
                    {
                        "success": True,
                        "warnings": [secret.text] if bare else [],
                        "nested": {"deep": keyed},
                    }
                ),
                f"https://api.telegram.org/bot{token.text}/sendPhoto: {planted}",
                RuntimeError(f"client error {planted} bot{token.text}"),
            ]
            for reply in replies:
                media_host.reply = (lambda r: lambda args: _raise_or(r))(reply)
                context = {"session_id": secret.text if bare else "s-1", "task_id": "t-1"}
                result = deliver_media(MediaPayload(media_file), "origin", **context)
                texts += [repr(result), json.dumps(result.as_dict())]
                invoke_host_tool("send_message", {"action": "send"}, **context)  # its logs
            media_host.block = f"blocked because {secret.text}" if bare else None
            result = deliver_media(MediaPayload(media_file), "telegram", session_id="s-1")
            texts += [repr(result), json.dumps(result.as_dict())]
            media_host.block = None
            targets = [f"telegram:{secret.text}", f"telegram:{secret.text}:7"]
            if bare:  # only a secret-shaped value can be recognised on its own
                targets += [secret.text, f"{secret.text}:123456"]
            for target in targets:
                try:
                    result = deliver_media(MediaPayload(media_file), target)
                except MediaError as exc:
                    texts.append(str(exc))
                    continue
                texts += [repr(result), json.dumps(result.as_dict())]
    no_leaks(logs, texts, path="media delivery (targets, host replies, guard)")


def _raise_or(reply: Any) -> Any:
    if isinstance(reply, BaseException):
        raise reply
    return reply
