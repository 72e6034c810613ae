"""The lifecycle contract plugin's declarations.

Hooks and middleware here run for every tool and model call of the shared test host,
so each acts only on this plugin's own tool (``klc_*``) or on requests carrying the
``klc`` marker, and passes everything else through untouched.
"""

from __future__ import annotations

import json
from typing import Any

from kit_core import str_arg, tool
from kit_lifecycle import CommandType, MiddlewareKind, command, hook, middleware

CALLS: list[tuple[Any, ...]] = []


@tool(
    toolset="kit_lifecycle_contract",
    name="klc_echo",
    params={"text": str_arg("Text", required=True)},
)
def klc_echo(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Echo the text back."""
    CALLS.append(("klc_echo", args["text"]))
    return {"echo": args["text"]}


@command("klc-status", args_hint="<scope>")
def klc_status(raw_args: str) -> str:
    """Report what the plugin has seen."""
    CALLS.append(("klc-status", raw_args))
    return f"klc status for {raw_args or 'all'}: {len(CALLS)} call(s)"


@command("klc-later")
async def klc_later(raw_args: str) -> str:
    """Answer asynchronously."""
    return f"later: {raw_args}"


def _admin_arguments(parser: Any) -> None:
    parser.add_argument("--scope", default="all")


@command("klc-admin", type=CommandType.CLI, setup_fn=_admin_arguments)
def klc_admin(args: Any) -> int:
    """Administer the lifecycle contract plugin.

    Second line of help text.
    """
    CALLS.append(("klc-admin", args.scope))
    return 0


@middleware(MiddlewareKind.TOOL_REQUEST)
def shout_request(**kwargs: Any) -> dict[str, Any] | None:
    if not str(kwargs["tool_name"]).startswith("klc_"):
        return None
    args = {**kwargs["args"], "text": str(kwargs["args"].get("text", "")).upper()}
    return {"args": args, "source": "klc"}


@middleware(MiddlewareKind.TOOL_EXECUTION)
def stamp_result(**kwargs: Any) -> Any:
    result = kwargs["next_call"](kwargs["args"])
    if not str(kwargs["tool_name"]).startswith("klc_"):
        return result
    data = json.loads(result)
    data["stamped_by"] = "klc"
    return json.dumps(data)


@middleware(MiddlewareKind.LLM_REQUEST)
def cap_tokens(**kwargs: Any) -> dict[str, Any] | None:
    request = kwargs["request"]
    if not request.get("klc"):
        return None
    return {"request": {**request, "max_tokens": 7}, "source": "klc"}


@middleware(MiddlewareKind.LLM_EXECUTION)
def wrap_response(**kwargs: Any) -> Any:
    response = kwargs["next_call"](kwargs["request"])
    if not kwargs["request"].get("klc"):
        return response
    return {"klc_wrapped": response}


@hook("pre_llm_call")
def add_context(**kwargs: Any) -> dict[str, str] | None:
    if "klc" not in str(kwargs.get("user_message", "")):
        return None
    return {"context": "klc context: the lifecycle contract plugin is loaded"}


@hook("pre_tool_call")
def guard(**kwargs: Any) -> dict[str, str] | None:
    if kwargs.get("tool_name") == "klc_echo" and kwargs.get("args", {}).get("text") == "FORBIDDEN":
        return {"action": "block", "message": "klc refuses forbidden text"}
    return None
