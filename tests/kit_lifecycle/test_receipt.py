"""RegistrationSummary and log_registration_summary: sorted names, field order, one receipt."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit_lifecycle import RegistrationSummary, log_registration_summary
from kit_lifecycle.summary import RECEIPT_PREFIX

FIELDS = (
    "tools",
    "hooks",
    "skills",
    "skipped_optional_skills",
    "commands",
    "middlewares",
    "cli_commands",
)
RECEIPT_ORDER = (
    "commands",
    "cli_commands",
    "tools",
    "middlewares",
    "hooks",
    "skills",
    "skipped_optional_skills",
)

LOGGER = "lc_receipt_tests"


def test_the_receipt_prefix_is_the_earlier_kits() -> None:
    assert RECEIPT_PREFIX == "hermes_plugin_kit: registered plugin lifecycle"


def test_the_field_order_keeps_the_earlier_kits_positions() -> None:
    assert tuple(f.name for f in dataclasses.fields(RegistrationSummary)) == FIELDS


def test_positional_construction() -> None:
    summary = RegistrationSummary(("t",), ("h",), ("s",), ("k",), ("c",), ("m",), ("x",))
    assert summary.tools == ("t",)
    assert summary.hooks == ("h",)
    assert summary.skills == ("s",)
    assert summary.skipped_optional_skills == ("k",)
    assert summary.commands == ("c",)
    assert summary.middlewares == ("m",)
    assert summary.cli_commands == ("x",)


def test_defaults_are_empty_tuples() -> None:
    summary = RegistrationSummary()
    assert all(getattr(summary, name) == () for name in FIELDS)


@pytest.mark.parametrize("field", FIELDS)
def test_every_field_is_sorted(field: str) -> None:
    summary = RegistrationSummary(**{field: ("b", "C", "a", "a-b", "a_b")})
    assert getattr(summary, field) == ("C", "a", "a-b", "a_b", "b")
    assert type(getattr(summary, field)) is tuple


def test_the_summary_is_frozen_and_compares_by_value() -> None:
    summary = RegistrationSummary(tools=("b", "a"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.tools = ()  # type: ignore[misc]
    assert summary == RegistrationSummary(tools=("a", "b"))
    assert hash(summary) == hash(RegistrationSummary(tools=("a", "b")))


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("bad", ["abc", ("a", 1), ("a", None), (b"a",)])
def test_non_tuples_of_names_are_refused(field: str, bad: object) -> None:
    with pytest.raises(TypeError) as excinfo:
        RegistrationSummary(**{field: bad})  # type: ignore[arg-type]
    assert str(excinfo.value) == (
        f"RegistrationSummary.{field} must be a tuple of names, got {bad!r}"
    )


@pytest.mark.parametrize("bad", [None, 5, 1.5])
def test_non_iterables_are_refused_with_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        RegistrationSummary(hooks=bad)  # type: ignore[arg-type]


def test_a_one_shot_iterator_is_not_silently_emptied() -> None:
    # an iterator of names must either be refused or kept whole, never consumed by the check
    try:
        summary = RegistrationSummary(tools=iter(["b", "a"]))  # type: ignore[arg-type]
    except TypeError:
        return
    assert summary.tools == ("a", "b")


# --- log_registration_summary --------------------------------------------------------------------


def full_summary() -> RegistrationSummary:
    return RegistrationSummary(
        tools=("lc_b", "lc_a"),
        hooks=("pre_llm_call",),
        skills=("notes",),
        skipped_optional_skills=(),
        commands=("lc-z", "lc-a"),
        middlewares=("tool_request", "llm_execution"),
        cli_commands=(),
    )


def test_the_exact_receipt_is_logged_once_and_returned(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    logger = logging.getLogger(LOGGER)
    receipt = log_registration_summary(logger, "lc-demo", full_summary())
    assert receipt == (
        "hermes_plugin_kit: registered plugin lifecycle; plugin=lc-demo; commands=lc-a,lc-z;"
        " cli_commands=<none>; tools=lc_a,lc_b; middlewares=llm_execution,tool_request;"
        " hooks=pre_llm_call; skills=notes; skipped_optional_skills=<none>"
    )
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        (LOGGER, logging.INFO, receipt)
    ]


def test_an_empty_summary_says_none_for_every_surface(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    receipt = log_registration_summary(logging.getLogger(LOGGER), "p", RegistrationSummary())
    assert receipt == (
        "hermes_plugin_kit: registered plugin lifecycle; plugin=p; commands=<none>;"
        " cli_commands=<none>; tools=<none>; middlewares=<none>; hooks=<none>; skills=<none>;"
        " skipped_optional_skills=<none>"
    )


def test_the_plugin_name_is_stripped() -> None:
    receipt = log_registration_summary(logging.getLogger(LOGGER), "  lc-demo \n", full_summary())
    assert "; plugin=lc-demo; " in receipt


def test_the_receipt_is_returned_even_when_info_is_off(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    receipt = log_registration_summary(logging.getLogger(LOGGER), "p", full_summary())
    assert receipt.startswith(RECEIPT_PREFIX)
    assert caplog.records == []


@pytest.mark.parametrize("bad", ["lc", None, logging.LoggerAdapter(logging.getLogger(LOGGER))])
def test_the_logger_must_be_a_logger(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"logger must be a logging\.Logger"):
        log_registration_summary(bad, "p", full_summary())


@pytest.mark.parametrize("bad", [None, {"tools": ()}, ("a",)])
def test_the_summary_must_be_a_registration_summary(bad: Any) -> None:
    with pytest.raises(TypeError, match="summary must be a RegistrationSummary"):
        log_registration_summary(logging.getLogger(LOGGER), "p", bad)


@pytest.mark.parametrize("bad", ["", "   ", None, 5])
def test_the_plugin_name_must_be_non_empty(bad: Any) -> None:
    with pytest.raises(ValueError, match="plugin_name must be a non-empty string"):
        log_registration_summary(logging.getLogger(LOGGER), bad, full_summary())


name_lists = st.lists(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True), max_size=5)


@given(
    st.fixed_dictionaries(dict.fromkeys(FIELDS, name_lists)),
    st.from_regex(r"[A-Za-z0-9_-]{1,10}", fullmatch=True),
)
def test_the_receipt_lists_every_field_in_order(values: dict[str, list[str]], plugin: str) -> None:
    summary = RegistrationSummary(**{k: tuple(v) for k, v in values.items()})
    receipt = log_registration_summary(logging.getLogger(LOGGER), plugin, summary)
    parts = receipt.split("; ")
    assert parts[0] == RECEIPT_PREFIX
    assert parts[1] == f"plugin={plugin}"
    keys = [p.split("=", 1)[0] for p in parts[2:]]
    assert tuple(keys) == RECEIPT_ORDER
    for part in parts[2:]:
        key, listed = part.split("=", 1)
        expected = sorted(values[key])
        assert listed == (",".join(expected) if expected else "<none>")
