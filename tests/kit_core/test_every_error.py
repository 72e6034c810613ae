"""A refused call gets every argument error at once: the first as it always read, the
others after it, each with its JSON path and rule, bounded in count and length."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from kit_core import array_arg, int_arg, object_arg, str_arg, tool
from kit_core._refusal import EXTRA_CHARS, MAX_LISTED


@tool(
    toolset="t",
    description="Search.",
    params={
        "query": str_arg("What", required=True, example="coffee"),
        "limit": int_arg("How many", minimum=1),
        "state": str_arg("Which", enum=["open", "closed"]),
        "filters": object_arg(
            "Filters",
            properties={
                "tags": array_arg("Tags", items=str_arg("A tag"), required=True),
                "range": object_arg("Range", properties={"low": int_arg("Lowest", required=True)}),
            },
        ),
    },
)
def search(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    return args


def refused(args: Any) -> dict[str, Any]:
    out = json.loads(search(args))
    assert out["success"] is False, out
    return out


def test_every_error_is_listed_after_the_first_which_keeps_its_text() -> None:
    out = refused({"query": "x", "limit": 0, "state": "bogus"})
    assert out["error"] == (
        "limit must be >= 1; got integer 0"
        " | state must be one of 'open', 'closed'; got string 'bogus'"
    )
    assert out["error_code"] == "invalid_argument"
    assert out["errors"] == [
        {"argument": "limit", "rule": "minimum", "message": "limit must be >= 1; got integer 0"},
        {
            "argument": "state",
            "rule": "enum",
            "message": "state must be one of 'open', 'closed'; got string 'bogus'",
        },
    ]
    assert list(out) == ["success", "error", "error_code", "errors"]


def test_one_error_keeps_todays_envelope_exactly() -> None:
    assert refused({"query": "x", "limit": 0}) == {
        "success": False,
        "error": "limit must be >= 1; got integer 0",
        "error_code": "invalid_argument",
    }


def test_missing_unknown_type_and_constraint_errors_are_all_collected_in_order() -> None:
    out = refused({"limit": "5", "state": 3, "extra": True, "filters": {"tags": ["a", 2, 3]}})
    assert out["error_code"] == "missing_argument"  # the first error's code
    assert [(e["argument"], e["rule"]) for e in out["errors"]] == [
        ("query", "required"),
        ("extra", "unknown"),
        ("limit", "type"),
        ("state", "type"),
        ("filters.tags[1]", "type"),
    ]
    assert out["error"].startswith("query is required (e.g. 'coffee') | unknown argument 'extra'")
    assert (
        " | filters.tags[1] must be a string; got integer 2 | and 1 more: filters.tags[2]"
        in (out["error"])
    )


def test_a_misspelled_nested_key_gets_a_did_you_mean_at_every_depth() -> None:
    depth_one = refused({"query": "x", "filters": {"tgas": ["a"]}})
    assert depth_one["error"] == (
        "filters.tags is required; got 'tgas' instead: did you mean 'tags'?"
    )
    depth_two = refused({"query": "x", "filters": {"tags": [], "range": {"loww": 1}}})
    assert depth_two["error"] == (
        "filters.range.low is required; got 'loww' instead: did you mean 'low'?"
    )
    unknown = refused({"query": "x", "filters": {"tags": [], "range": {"low": 1, "hihg": 2}}})
    assert unknown["error"] == ("filters.range has an unknown key 'hihg'. This tool accepts: low")
    both = refused({"query": "x", "filters": {"tags": [], "range": {"lwo": 1}}})
    assert both["error"] == (
        "filters.range.low is required"
        " | filters.range has an unknown key 'lwo'; did you mean 'low'? This tool accepts: low"
    )


def test_the_misspelled_key_a_missing_one_names_is_not_told_twice() -> None:
    out = refused({"qurey": "x", "limit": 0})
    assert out["error"] == (
        "query is required (e.g. 'coffee'); got 'qurey' instead: did you mean 'query'?"
        " | limit must be >= 1; got integer 0"
    )


def test_past_the_count_the_rest_are_summarised() -> None:
    sent = {"query": "x", **{f"k{i}": i for i in range(12)}}
    out = refused(sent)
    assert len(out["errors"]) == MAX_LISTED
    assert out["error"].count(" | ") == MAX_LISTED
    assert out["error"].endswith(" | and 7 more: k5, k6, k7, k8, k9, k10, k11")
    accepts = "This tool accepts: query, limit, state, filters"
    assert out["error"].count(accepts) == 1  # the names are told once


def test_the_message_is_capped() -> None:
    long_keys = {f"{c * 60}": 1 for c in "abcdefghijklmnopqrstuvwxyz"}
    out = refused({"query": "x", **long_keys})
    first = out["errors"][0]["message"]
    assert out["error"].startswith(first)
    assert len(out["error"]) - len(first) <= EXTRA_CHARS
    assert "more:" in out["error"]
    assert out["error"].endswith(" …")


def test_the_log_line_names_every_listed_argument(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        search({"query": "x", "limit": 0, "state": "bogus"})
    assert "search: rejected call, invalid limit, invalid state; elapsed_ms=" in caplog.text
