"""What makes declaring many tools light: shared checks, one stored schema, the host's own
copy, and the handler's shape read without inspect.signature. Each must change nothing a
tool does."""

from __future__ import annotations

import functools
import inspect
import json
import types
from collections.abc import Callable
from typing import Any, cast

import pytest
from tests._hermes_context import RecordingContext

from kit_core import (
    ToolDefinitionError,
    ToolSpec,
    arg,
    array_arg,
    declaration_of,
    int_arg,
    number_arg,
    object_arg,
    register_all,
    str_arg,
    tool,
)
from kit_core._shared import argument_check, shape_key, value_check


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


def answer(fn: Callable[..., str], args: Any) -> dict[str, Any]:
    return json.loads(fn(args))


def declare(name: str, description: str, params: dict[str, Any]) -> Any:
    def handler(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {"tool": name, "args": args}

    handler.__name__ = handler.__qualname__ = name
    handler.__doc__ = description
    return tool(toolset="light", params=params)(handler)


def places(query_help: str = "What to look for") -> dict[str, Any]:
    return {
        "query": str_arg(query_help, required=True, example="coffee"),
        "limit": int_arg("How many", minimum=1, maximum=20),
        "kind": str_arg("Kind", enum=["cafe", "bar"]),
    }


def check_of(fn: Any) -> Any:
    """The argument check a tool runs (its runner's, from its wrapper's closure)."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True))
    return cells["begin"].cell_contents.__self__.check


# -- checks compiled once per shape ----------------------------------------------------------


def test_tools_of_one_shape_share_their_check_and_each_still_answers_for_itself() -> None:
    first = declare("light_find_places", "Find places.", places())
    second = declare("light_list_venues", "List venues nearby.", places("Search text"))
    assert check_of(first) is check_of(second)
    for fn, name in ((first, "light_find_places"), (second, "light_list_venues")):
        ok = answer(fn, {"query": "tea", "limit": 3, "kind": "bar"})
        assert ok == {"success": True, "data": {"tool": name, "args": ok["data"]["args"]}}
        assert answer(fn, {"limit": 3})["error"] == "query is required (e.g. 'coffee')"
        assert answer(fn, {"query": "tea", "limit": 21})["error"] == (
            "limit must be <= 20; got integer 21"
        )
        assert answer(fn, {"query": "tea", "kind": "pub"})["error"] == (
            "kind must be one of 'cafe', 'bar'; got string 'pub'"
        )
        assert "did you mean 'limit'" in answer(fn, {"query": "tea", "limits": 2})["error"]


@pytest.mark.parametrize(
    ("one", "other", "call", "first_error", "second_error"),
    [
        (
            {"n": number_arg("N", minimum=1)},
            {"n": number_arg("N", minimum=1.0)},
            {"n": 0},
            "n must be >= 1; got integer 0",
            "n must be >= 1.0; got integer 0",
        ),
        (
            {"n": number_arg("N", maximum=0.0)},
            {"n": number_arg("N", maximum=-0.0)},
            {"n": 1},
            "n must be <= 0.0; got integer 1",
            "n must be <= -0.0; got integer 1",
        ),
        (
            {"v": arg(["integer", "boolean"], "V", enum=[1])},
            {"v": arg(["integer", "boolean"], "V", enum=[True])},
            {"v": 2},
            "v must be one of 1; got integer 2",
            "v must be one of true; got integer 2",
        ),
        (
            {"q": str_arg("Q", required=True, example="a")},
            {"q": str_arg("Q", required=True, example="b")},
            {},
            "q is required (e.g. 'a')",
            "q is required (e.g. 'b')",
        ),
        (
            {"label": str_arg("Label", min_length=9)},
            {"token": str_arg("Label", min_length=9)},
            {"label": "short", "token": "short"},
            "label must have at least 9 characters; got string 'short'",
            "token must have at least 9 characters; got string (value hidden)",
        ),
    ],
)
def test_shapes_that_equality_confuses_get_checks_of_their_own(
    one: dict[str, Any],
    other: dict[str, Any],
    call: dict[str, Any],
    first_error: str,
    second_error: str,
) -> None:
    first = declare("light_first", "First.", one)
    second = declare("light_second", "Second.", other)
    assert check_of(first) is not check_of(second)
    args = {k: v for k, v in call.items() if k in one}
    assert answer(first, args)["error"] == first_error
    args = {k: v for k, v in call.items() if k in other}
    assert answer(second, args)["error"] == second_error


def test_a_shared_check_ignores_what_only_informs_the_model() -> None:
    base: dict[str, Any] = {
        "type": "object",
        "properties": {"a": {"type": "string", "description": "A"}},
    }
    other: dict[str, Any] = {
        "type": "object",
        "properties": {"a": {"type": "string", "description": "B", "default": "x"}},
    }
    assert shape_key(base, {}) == shape_key(other, {})
    assert argument_check(base, {}) is argument_check(other, {})
    assert value_check(base["properties"]["a"]) is value_check(other["properties"]["a"])
    assert value_check(base["properties"]["a"], secret=True) is not value_check(
        base["properties"]["a"]
    )


def test_a_schema_holding_more_than_json_data_gets_a_check_of_its_own() -> None:
    parameters = {
        "type": "object",
        "properties": {"mode": {"type": "string", "enum": ["a", frozenset()]}},
    }
    assert shape_key(parameters, {}) is None
    check, misfit = argument_check(parameters, {})
    assert misfit is None
    assert check is not None
    assert check({"mode": "a"}) == ({"mode": "a"}, None)
    _, rejection = check({"mode": "b"})
    assert rejection is not None
    assert rejection.message.startswith("mode must be one of 'a', frozenset()")


def test_a_bad_example_fails_every_declaration_of_its_shape_with_its_own_name() -> None:
    for name in ("light_bad_one", "light_bad_two"):
        with pytest.raises(ToolDefinitionError) as info:
            declare(name, "Bad.", {"n": int_arg("N", minimum=5, example=1)})
        assert str(info.value) == (
            f"@tool {name!r}: the example of n does not fit: must be >= 5; got integer 1"
        )


def test_nested_shapes_are_shared_and_still_checked() -> None:
    def nested(help_text: str) -> dict[str, Any]:
        return {
            "filters": object_arg(
                help_text,
                properties={"tags": array_arg("Tags", items=str_arg("Tag", min_length=2))},
            )
        }

    first = declare("light_nested_one", "One.", nested("Filters"))
    second = declare("light_nested_two", "Two.", nested("Other filters"))
    assert check_of(first) is check_of(second)
    for fn in (first, second):
        assert answer(fn, {"filters": {"tags": ["ab", "c"]}})["error"] == (
            "filters.tags[1] must have at least 2 characters; got string 'c'"
        )
        assert answer(fn, {"filters": {"tags": ["ab"]}})["success"] is True


# -- one stored schema; copies for everyone ---------------------------------------------------


def containers(value: Any) -> list[Any]:
    found: list[Any] = []
    if isinstance(value, dict | list):
        found.append(value)
        items = value.values() if isinstance(value, dict) else value
        for item in items:
            found += containers(item)
    return found


def ids(value: Any) -> set[int]:
    return {id(c) for c in containers(value)}


def test_the_host_cannot_corrupt_the_tool_or_another_registration_through_its_schema() -> None:
    first = declare("light_host_one", "One.", places())
    second = declare("light_host_two", "Two.", places())
    module = types.ModuleType("light_host_plugin")
    vars(module).update(first=first, second=second)
    pristine = spec_of(first).schema
    host, other_host = RecordingContext(), RecordingContext()
    register_all(host, module)
    kept = host.tools["light_host_one"]["schema"]
    assert not ids(kept) & ids(host.tools["light_host_two"]["schema"])
    kept["parameters"]["properties"]["kind"]["enum"].append("pub")
    kept["parameters"]["properties"].pop("limit")
    kept["parameters"]["required"].clear()
    kept["description"] = "Changed by the host."
    register_all(other_host, module)
    assert other_host.tools["light_host_one"]["schema"] == pristine
    assert other_host.tools["light_host_one"]["description"] == pristine["description"]
    assert spec_of(first).schema == pristine
    assert spec_of(second).schema["parameters"] == pristine["parameters"]
    assert answer(first, {"limit": 3})["error"] == "query is required (e.g. 'coffee')"
    assert answer(first, {"query": "x", "kind": "pub"})["success"] is False


def test_an_author_cannot_corrupt_the_tool_through_what_the_spec_returns() -> None:
    fn = declare("light_author", "Author.", places())
    spec = spec_of(fn)
    pristine = spec.schema
    spec.schema["parameters"]["properties"]["kind"]["enum"].clear()
    spec.parameters["required"].append("kind")
    spec.definition()["function"]["parameters"]["properties"].clear()
    spec.register_kwargs(fn)["schema"]["parameters"].clear()
    assert spec.schema == pristine
    assert not ids(spec.schema) & ids(spec.schema)
    assert answer(fn, {"query": "x"})["success"] is True


def test_changing_an_argspec_after_declaring_changes_neither_schema_nor_checks() -> None:
    kind = str_arg("Kind", enum=["cafe", "bar"])
    fn = declare("light_spec_later", "Later.", {"kind": kind})
    own = cast("dict[str, Any]", kind.schema)  # a spec's schema is a plain dict
    own["enum"].append("pub")
    own["description"] = "Changed"
    assert spec_of(fn).schema["parameters"]["properties"]["kind"] == {
        "type": "string",
        "description": "Kind",
        "enum": ["cafe", "bar"],
    }
    assert answer(fn, {"kind": "pub"})["success"] is False


def test_changing_an_argspec_after_declaring_leaves_a_check_of_its_own_alone() -> None:
    choice: dict[str, Any] = {"a": 1}
    spec = arg(["object", "string"], "Choice", enum=[choice, "x", frozenset({1})])
    fn = declare("light_unkeyed", "Unkeyed.", {"choice": spec})
    assert shape_key(spec_of(fn).parameters, {}) is None  # compiled for this tool alone
    spec.schema["enum"][0]["a"] = 2
    assert answer(fn, {"choice": {"a": 1}})["success"] is True
    assert answer(fn, {"choice": {"a": 2}})["success"] is False


# -- the wrapper -----------------------------------------------------------------------------


def test_each_wrapper_runs_its_own_handler_and_looks_like_it() -> None:
    first = declare("light_wrap_one", "One.", {})
    second = declare("light_wrap_two", "Two.", {})
    assert answer(first, {})["data"]["tool"] == "light_wrap_one"
    assert answer(second, {})["data"]["tool"] == "light_wrap_two"
    for fn, name in ((first, "light_wrap_one"), (second, "light_wrap_two")):
        wrapped = fn.__wrapped__
        assert (fn.__name__, fn.__qualname__, fn.__doc__) == (name, name, wrapped.__doc__)
        assert fn.__module__ == wrapped.__module__ == __name__
        assert fn.__globals__ is wrapped.__globals__
        assert fn.__annotations__ == wrapped.__annotations__
    assert first.__code__ is second.__code__
    shared = {
        name
        for name, a, b in zip(
            first.__code__.co_freevars, first.__closure__, second.__closure__, strict=True
        )
        if a is b
    }
    assert shared.isdisjoint({"handler", "begin", "finish", "fail"})
    assert shared  # the per-process names are bound once for every tool


# -- the handler's shape, read from its code object ------------------------------------------

SIGNATURES = [
    "args, **kwargs",
    "args, /, **kwargs",
    "args, extra=None, **kwargs",
    "args, extra, **kwargs",
    "args=None, **kwargs",
    "*args, **kwargs",
    "args, *rest, **kwargs",
    "args, *, flag, **kwargs",
    "args, *, flag=1, **kwargs",
    "args",
    "**kwargs",
    "",
    "args, extra, /, other=1, **kwargs",
    "args=1, /, extra=2, *more, key, **kwargs",
    "a, b=1, c=2, **kw",
    "a, b, c=2, **kw",
    "*, a, **kw",
]


def fits_by_signature(fn: Callable[..., Any]) -> bool:
    """The rule as inspect.signature states it."""
    params = list(inspect.signature(fn).parameters.values())
    kinds = {p.kind for p in params}
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    takes_args = bool(positional) or inspect.Parameter.VAR_POSITIONAL in kinds
    extra_required = [p for p in positional[1:] if p.default is p.empty]
    return takes_args and not extra_required and inspect.Parameter.VAR_KEYWORD in kinds


def accepted(fn: Callable[..., Any]) -> bool:
    """Whether ``@tool`` with ``params=`` takes the handler (without them, a handler not
    written ``(args, **kwargs)`` is read as a typed one)."""
    try:
        tool(toolset="light", params={})(fn)
    except ToolDefinitionError as exc:
        if "must take (args, **kwargs)" not in str(exc):
            raise
        return False
    return True


@pytest.mark.parametrize("signature", SIGNATURES)
def test_the_handler_shape_is_judged_as_inspect_signature_judges_it(signature: str) -> None:
    namespace: dict[str, Any] = {}
    exec(f'def light_handler({signature}):\n    "Doc."\n    return {{}}\n', namespace)
    fn = namespace["light_handler"]
    assert accepted(fn) is fits_by_signature(fn)


def test_a_decorated_handler_is_judged_by_what_it_wraps() -> None:
    def inner(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Inner."""
        return {}

    @functools.wraps(inner)
    def outer(*whatever: Any) -> dict[str, Any]:  # no **kwargs of its own
        return {}

    assert accepted(outer) is True

    def bad(args: dict[str, Any]) -> dict[str, Any]:
        """Bad."""
        return {}

    @functools.wraps(bad)
    def outer_bad(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return {}

    assert accepted(outer_bad) is False

    def signed(*args: Any, **kwargs: Any) -> dict[str, Any]:
        """Signed."""
        return {}

    signed.__signature__ = inspect.signature(bad)
    assert accepted(signed) is False
