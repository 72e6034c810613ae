"""A typed tool's descriptions come from its docstring, in any of the three common styles."""

from __future__ import annotations

import pytest

from kit_core._docstrings import parse_docstring

GOOGLE = """Convert a temperature.

    Works both ways: it
    handles Kelvin too.

    Args:
        value: The temperature
            to convert.
        from_scale (str): Scale of the value.
        **kwargs: hermes' keywords.

    Returns:
        The converted value.

    Raises:
        ValueError: below absolute zero.
    """

NUMPY = """Convert a temperature.

    Works both ways: it
    handles Kelvin too.

    Parameters
    ----------
    value : float
        The temperature
        to convert.
    from_scale : str, optional
        Scale of the value.
    **kwargs
        hermes' keywords.

    Returns
    -------
    dict
        The converted value.
    """

SPHINX = """Convert a temperature.

    Works both ways: it
    handles Kelvin too.

    :param value: The temperature
        to convert.
    :param str from_scale: Scale of the value.
    :param kwargs: hermes' keywords.
    :returns: The converted value.
    :raises ValueError: below absolute zero.
    """


@pytest.mark.parametrize("doc", [GOOGLE, NUMPY, SPHINX], ids=["google", "numpy", "sphinx"])
def test_each_style_gives_the_description_and_each_argument(doc: str) -> None:
    read = parse_docstring(doc)
    assert read.description == "Convert a temperature.\n\nWorks both ways: it handles Kelvin too."
    assert read.names == {
        "value": "The temperature to convert.",
        "from_scale": "Scale of the value.",
        "kwargs": "hermes' keywords.",
    }


def test_a_description_line_ending_in_a_colon_is_not_a_section() -> None:
    read = parse_docstring("Find notes.\n\nMatching:\n    tags and text.\n")
    assert read.description == "Find notes.\n\nMatching: tags and text."
    assert read.names == {}


def test_attributes_sections_document_a_class_fields() -> None:
    google = parse_docstring("A point.\n\nAttributes:\n    x: across.\n    y: up.\n")
    sphinx = parse_docstring("A point.\n\n:ivar x: across.\n:var y: up.\n")
    assert google.names == sphinx.names == {"x": "across.", "y": "up."}


def test_no_docstring_and_a_bare_summary() -> None:
    assert parse_docstring(None).description == ""
    assert parse_docstring("Only this.").names == {}
    assert parse_docstring("Only this.").description == "Only this."


def test_an_entry_without_text_is_not_a_description() -> None:
    read = parse_docstring("Doc.\n\nArgs:\n    value:\n    other: Something.\n")
    assert read.names == {"other": "Something."}
