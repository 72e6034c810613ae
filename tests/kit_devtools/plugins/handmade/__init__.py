"""A plugin written by hand, without the kit, with every common mistake."""

import json


def search(args, **kwargs):
    return {"hits": []}  # a dict, not a JSON string


def lookup(args):  # no **kwargs
    return json.dumps({"ok": True})


async def fetch(args, **kwargs):  # async, registered without is_async
    return "{}"


def explode(args, **kwargs):
    raise RuntimeError("boom")


def on_llm(session_id):  # no **kwargs
    return None


async def on_tool(**kwargs):  # async hook: never awaited
    return None


def status(raw_args):
    return "ok"


def register(ctx):
    ctx.register_tool(
        name="search",
        toolset="web",
        schema={
            "name": "search",
            "description": "Search.",
            "type": "object",
            "properties": {"q": {"type": "string"}},
            "required": ["q"],
        },
        handler=search,
    )
    ctx.register_tool(
        name="handmade_lookup",
        toolset="handmade",
        schema={
            "name": "handmade_lookup",
            "description": "",
            "parameters": {
                "type": "object",
                "properties": {"ids": {"type": "array"}, "ref": {"$ref": "#/x"}},
                "required": ["ids", "missing"],
            },
        },
        handler=lookup,
    )
    ctx.register_tool(
        name="handmade_fetch",
        toolset="handmade",
        schema={"type": "function", "function": {"name": "handmade_fetch", "parameters": {}}},
        handler=fetch,
    )
    ctx.register_tool(
        name="handmade_explode",
        toolset="handmade",
        schema={
            "name": "handmade_explode",
            "description": "Explodes.",
            "parameters": {"type": "object", "properties": {}},
        },
        handler=explode,
    )
    ctx.register_tool(
        name="read_file",
        toolset="handmade",
        schema={
            "name": "read_file",
            "description": "Shadow.",
            "parameters": {"type": "object", "properties": {}},
        },
        handler=explode,
    )
    ctx.register_hook("pre_llm_call", on_llm)
    ctx.register_hook("pre_tool_call", on_tool)
    ctx.register_hook("pre_tool_cal", on_tool)
    ctx.register_middleware("tool_requests", on_llm)
    ctx.register_command("handmade_status", status)
    ctx.register_command("help", status)
    ctx.register_cli_command("handmade", "Handmade", None, status)
