"""A refused call missing a required argument says which unknown argument it probably
meant, so the model can fix the spelling on its next try."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kit_core import int_arg, object_arg, str_arg, tool


@tool(
    toolset="t",
    description="Start a timer.",
    params={
        "minutes": int_arg("How long", required=True, example=5),
        "label": str_arg("A name"),
    },
)
def timer(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    return args


def refusal(args: Any) -> dict[str, Any]:
    answer = json.loads(timer(args))
    assert answer["success"] is False
    assert answer["error_code"] == "missing_argument"
    return answer


def test_a_close_unknown_argument_is_named() -> None:
    error = refusal({"minuts": 5})["error"]
    assert error == "minutes is required (e.g. 5); got 'minuts' instead: did you mean 'minutes'?"


def test_the_hint_works_for_json_string_arguments() -> None:
    assert "did you mean 'minutes'?" in refusal('{"minutse": 5}')["error"]


ACCEPTS = "This tool accepts: minutes, label"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({}, "minutes is required (e.g. 5)"),
        ({"zzz": 5}, f"minutes is required (e.g. 5) | unknown argument 'zzz'. {ACCEPTS}"),
        ({"label": "tea"}, "minutes is required (e.g. 5)"),
        (
            {"min": 5},
            f"minutes is required (e.g. 5) | unknown argument 'min'; did you mean 'minutes'?"
            f" {ACCEPTS}",
        ),
        ({"minutes": None}, "minutes is required (e.g. 5)"),
    ],
)
def test_no_hint_without_a_close_unknown_argument(args: dict[str, Any], error: str) -> None:
    """The missing argument's own text has no hint; an unknown argument the call also sent
    is the next error, with its own did-you-mean."""
    assert refusal(args)["error"] == error


def test_a_secret_looking_name_is_not_echoed() -> None:
    @tool(
        toolset="t",
        description="Log in.",
        params={"api_key": str_arg("The key", required=True)},
    )
    def login(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return args

    answer = json.loads(login({"api_kei": "x"}))
    assert answer["error"].startswith("api_key is required")
    assert "did you mean 'api_key'?" in answer["error"]


def test_nested_objects_are_unchanged() -> None:
    @tool(
        toolset="t",
        description="Nested.",
        params={"opts": object_arg("Opts", properties={"n": int_arg("N", required=True)})},
    )
    def nested(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return args

    answer = json.loads(nested({"opts": {"m": 1}}))
    assert answer["success"] is False
