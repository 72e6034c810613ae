"""The checks of the members a memory provider is judged by before and besides its turn,
for the contract drive (``_memory_drive``, whose drive gets them as a mixin): its ``name``,
``is_available()``, the schemas ``get_tool_schemas()`` gives ``add_provider`` (each one as
hermes' memory manager offers it to the model), and ``handle_tool_call`` on each offered
tool and on a name it does not offer.

Standard library only, as the drive is (hermes' worker imports it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from kit_devtools.testing._memory_members import (
    UNKNOWN_TOOL,
    Call,
    Observed,
    kind_of,
    raised_text,
)


class MemberChecks:
    """The mixin the drive gets these checks from; each records what it checked
    (``checked``) and flags what the provider breaks (``flag``)."""

    provider: Any
    manager: Any
    observed: Observed
    facts: dict[str, Any]
    args_for: Callable[[Any], dict[str, Any]]
    checked: list[str]

    def flag(self, member: str, rule: str, detail: str, fix: str) -> None:
        raise NotImplementedError  # the drive's

    def calls(self, member: str) -> list[Call]:
        raise NotImplementedError  # the drive's

    def manage(self, method: str, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError  # the drive's

    def identity(self) -> bool:
        self.checked.append("name")
        try:
            name = self.provider.name
        except Exception as exc:
            self.flag(
                "name", "must not raise", f"reading it raised {raised_text(exc)}", "return a str"
            )
            return False
        if not isinstance(name, str) or not name:
            self.flag(
                "name",
                "must be a non-empty str",
                f"it is {name!r}",
                "return the provider's short name, the one memory.provider selects",
            )
            return False
        if name == "builtin":
            self.flag(
                "name",
                "must not be 'builtin'",
                "hermes takes a provider of that name for its own store: it never mirrors"
                " memory writes to it and does not bound its prefetch",
                "choose the provider's own name",
            )
        return True

    def available(self) -> bool:
        self.checked.append("is_available")
        try:
            found = self.provider.is_available()
        except Exception as exc:
            self.flag(
                "is_available",
                "must not raise",
                f"it raised {raised_text(exc)}; agent start catches it and runs with no memory"
                " provider",
                "check configuration and installed packages only; return False when"
                " something is missing",
            )
            return False
        if found is not True:
            self.flag(
                "is_available",
                "must return True where the provider can work",
                f"it returned {found!r}: hermes never activates the provider, and nothing"
                " else of its contract could be driven",
                "give the test the configuration (environment, files under hermes_home) the"
                " provider checks for",
            )
            return False
        return True

    def added(self) -> bool:
        """``add_provider``, and the schemas it read."""
        self.checked.append("get_tool_schemas")
        try:
            self.manager.add_provider(self.observed)
        except Exception as exc:
            self.flag(
                "get_tool_schemas",
                "must return a list without raising",
                f"add_provider raised {raised_text(exc)}: agent start catches it and runs with no"
                " memory provider",
                "return [] when the provider offers no tool",
            )
            return False
        calls = self.calls("get_tool_schemas")
        raw: Any = calls[0].returned if calls else []
        if not isinstance(raw, list | tuple):
            self.flag(
                "get_tool_schemas",
                "must return a list of tool schemas",
                f"it returned a {kind_of(raw)}",
                'return a list of {"name", "description", "parameters"} dicts',
            )
            return True
        offered = self.manage("get_all_tool_schemas")
        for schema in cast("list[Any]", raw):
            self.schema(schema, offered)
        return True

    def schema(self, schema: Any, offered: list[Any]) -> None:
        shape = '{"name": ..., "description": ..., "parameters": {...}}'
        bare = f"return it bare: {shape}"
        if not isinstance(schema, dict):
            self.flag("get_tool_schemas", "each schema must be a dict", f"{schema!r}", bare)
            return
        found = cast("dict[str, Any]", schema)
        inner = found
        if found.get("type") == "function" and isinstance(found.get("function"), dict):
            inner = cast("dict[str, Any]", found["function"])
        name = inner.get("name")
        if not isinstance(name, str) or not name:
            self.flag(
                "get_tool_schemas",
                "each schema must have a name",
                f"{schema!r} has none: hermes skips it, and the model never sees the tool",
                f'give it a "name", as a bare function schema: {shape}',
            )
            return
        if name in self.facts["core_tools"]:
            self.flag(
                "get_tool_schemas",
                "must not take the name of a hermes core tool",
                f"{name!r} is one: hermes' own tool wins, and the provider's is never offered",
                f"rename it, with the provider's name as a prefix ({self.provider.name}_{name})",
            )
            return
        # by value: hermes offers what a second get_tool_schemas() returns, new dicts for
        # a provider that builds its list on each call
        sent = next((o for o in offered if o in (schema, inner)), None)
        if sent is None and inner is not schema:
            self.flag(
                "get_tool_schemas",
                "must give bare function schemas",
                f"{name!r} is wrapped as {{'type': 'function', 'function': ...}}: this release"
                " reads the name at the top level, finds none, and never offers the tool",
                bare,
            )
        elif sent is None:
            self.flag(
                "get_tool_schemas",
                "each schema must reach the model",
                f"hermes' memory manager does not offer {name!r}",
                bare,
            )
        elif sent.get("name") != name:
            self.flag(
                "get_tool_schemas",
                "must give bare function schemas",
                f"{name!r} is wrapped as {{'type': 'function', 'function': ...}}: this release"
                " wraps it once more, and the model gets a tool without a name",
                bare,
            )

    def tools(self) -> None:
        self.checked.append("handle_tool_call")
        fix = "return json.dumps(result): hermes hands the model what handle_tool_call returns"
        for offered in self.manage("get_all_tool_schemas"):
            if not isinstance(offered, dict):
                continue
            schema = cast("dict[str, Any]", offered)
            name = schema.get("name")
            if not isinstance(name, str) or name in self.facts["core_tools"]:
                continue
            args = self.args_for(schema.get("parameters"))
            before = len(self.calls("handle_tool_call"))
            result = self.manage("handle_tool_call", name, args)
            mine = self.calls("handle_tool_call")[before:]
            if mine and mine[0].raised is not None:
                self.flag(
                    "handle_tool_call",
                    "must not raise",
                    f"{name}({json.dumps(args)}) raised {raised_text(mine[0].raised)}: the model"
                    " gets hermes' error instead of the tool's result",
                    "catch the failure and return it as a JSON error string",
                )
            elif not isinstance(result, str):
                self.flag(
                    "handle_tool_call",
                    "must return a str (a JSON string)",
                    f"{name}({json.dumps(args)}) returned a {kind_of(result)}: hermes puts it in"
                    " the conversation as it is, where a tool result must be a string",
                    fix,
                )
        try:
            unknown = self.provider.handle_tool_call(UNKNOWN_TOOL, {})
        except Exception:
            return  # hermes routes only the names the provider offers; raising is an answer
        if not isinstance(unknown, str):
            self.flag(
                "handle_tool_call",
                "must answer a name it does not offer with a JSON error string (or raise)",
                f"handle_tool_call({UNKNOWN_TOOL!r}, {{}}) returned {unknown!r}",
                'end with: return json.dumps({"error": f"unknown tool {tool_name}"})',
            )
