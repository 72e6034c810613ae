"""The name rules are string tests, not patterns compiled at import; each must accept
exactly what its documented pattern accepts in full."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from kit_core._env import check_requires_env
from kit_core._schema import is_property_name
from kit_core.errors import ToolDefinitionError
from kit_core.names import is_snake_case

SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
PROPERTY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")
ENV = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# mostly the characters the rules care about, some others (non-ASCII letters and digits)
NAMES = st.text(alphabet=st.sampled_from("ab_z09AZ.-é١ _\n"), max_size=70) | st.text(max_size=70)


@given(NAMES)
@example("a")
@example("a_")
@example("a__b")
@example("_a")
@example("a1_b2")
@example("")
def test_snake_case_is_the_pattern(name: str) -> None:
    assert is_snake_case(name) is (SNAKE.fullmatch(name) is not None)


@given(NAMES)
@example("a" * 64)
@example("a" * 65)
@example("_")
@example("é")
@example("x.y-z")
def test_property_names_are_the_pattern(name: str) -> None:
    assert is_property_name(name) is (PROPERTY.fullmatch(name) is not None)


@given(NAMES)
@example("MY_TOKEN")
@example("1ABC")
@example("ÉTÉ")
@example("A-B")
def test_env_names_are_the_pattern(name: str) -> None:
    try:
        check_requires_env("tool t", [name], ToolDefinitionError)
        accepted = True
    except ToolDefinitionError:
        accepted = False
    assert accepted is (ENV.fullmatch(name) is not None)
