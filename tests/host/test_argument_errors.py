"""A refused call's every argument error, and the spec helpers inside ``Annotated``, as the
real hermes delivers them: a plugin loaded by hermes' own discovery (``RealHost``), called
through its whole tool pipeline (``model_tools.handle_function_call``)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import RealHost

pytestmark = pytest.mark.host

NAME = "kit-errors"
PLUGIN = '''
from typing import Annotated

from hermes_plugin_kit import array_arg, int_arg, object_arg, register_plugin, str_arg, tool


@tool(
    toolset="kit_errors",
    params={
        "query": str_arg("What to look for", required=True, example="coffee"),
        "limit": int_arg("How many", minimum=1),
        "state": str_arg("Which state", enum=["open", "closed"]),
        "filters": object_arg(
            "Filters",
            properties={"tags": array_arg("Tags", items=str_arg("A tag"), required=True)},
        ),
    },
)
def kerr_search(args, **kwargs):
    """Search."""
    return args


@tool(toolset="kit_errors")
def kerr_count(
    n: Annotated[int, int_arg("How many to count", minimum=1, maximum=9)],
    word: Annotated[str, str_arg("The word", min_length=2)] = "ab",
) -> dict:
    """Count."""
    return {"n": n, "word": word}


def register(ctx):
    return register_plugin(ctx, [kerr_search, kerr_count])
'''


def errors_plugin(tmp_path: Path) -> Path:
    folder = tmp_path / NAME
    folder.mkdir()
    (folder / "plugin.yaml").write_text(
        f"name: {NAME}\nversion: 0.1.0\nkind: standalone\n"
        "provides_tools: [kerr_search, kerr_count]\n",
        encoding="utf-8",
    )
    (folder / "__init__.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    return folder


def answer(host: RealHost, name: str, args: dict[str, Any]) -> dict[str, Any]:
    raw = host.call_tool(name, args, task_id="t")
    assert isinstance(raw, str), raw
    return json.loads(raw)


def test_every_argument_error_reaches_the_model_in_one_envelope(tmp_path: Path) -> None:
    with RealHost() as host:
        host.load(errors_plugin(tmp_path))
        many = answer(host, "kerr_search", {"query": "x", "limit": 0, "state": "bogus"})
        nested = answer(host, "kerr_search", {"query": "x", "filters": {"tgas": ["a"], "x": 1}})
        one = answer(host, "kerr_search", {"query": "x", "limit": 0})
    assert many == {
        "success": False,
        "error": "limit must be >= 1; got integer 0"
        " | state must be one of 'open', 'closed'; got string 'bogus'",
        "error_code": "invalid_argument",
        "errors": [
            {
                "argument": "limit",
                "rule": "minimum",
                "message": "limit must be >= 1; got integer 0",
            },
            {
                "argument": "state",
                "rule": "enum",
                "message": "state must be one of 'open', 'closed'; got string 'bogus'",
            },
        ],
    }
    assert nested["error"] == (
        "filters.tags is required; got 'tgas' instead: did you mean 'tags'?"
        " | filters has an unknown key 'x'. This tool accepts: tags"
    )
    assert [e["argument"] for e in nested["errors"]] == ["filters.tags", "filters.x"]
    assert one == {
        "success": False,
        "error": "limit must be >= 1; got integer 0",
        "error_code": "invalid_argument",
    }


def test_a_spec_helper_inside_annotated_describes_and_checks_the_argument(tmp_path: Path) -> None:
    with RealHost() as host:
        host.load(errors_plugin(tmp_path))
        (definition,) = [
            d for d in host.definitions(["kit_errors"]) if d["function"]["name"] == "kerr_count"
        ]
        good = answer(host, "kerr_count", {"n": 3})
        refused = answer(host, "kerr_count", {"n": 10, "word": "a"})
    properties = definition["function"]["parameters"]["properties"]
    assert properties["n"] == {
        "type": "integer",
        "description": "How many to count",
        "minimum": 1,
        "maximum": 9,
    }
    assert properties["word"]["minLength"] == 2
    assert properties["word"]["description"] == "The word"
    assert good == {"success": True, "data": {"n": 3, "word": "ab"}}
    assert refused["error"] == (
        "n must be <= 9; got integer 10 | word must have at least 2 characters; got string 'a'"
    )
