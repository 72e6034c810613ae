"""unit-convert's tools declared by their typed signatures instead of ``params=``.

The same tools as ``tools.py``: the same names, the same schemas sent to the model
(the tests compare them through the real hermes), the same checks and errors. Each
argument is written once, in the signature; its description comes from the docstring,
its example and bounds from ``Arg``. To use this style, register this module instead:
``register_all(ctx, typed)``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from kit_core import Arg, tool, tool_name

from .tools import length, temperature

Scale = Literal["celsius", "fahrenheit", "kelvin"]
Unit = Literal["cm", "ft", "in", "km", "m", "mi", "mm"]


@tool(
    toolset="unit-convert",
    namespace="units",
    name=tool_name("units", "convert", "temperature"),
    emoji="🌡",
)
def convert_temperature(
    value: Annotated[float, Arg(example=21.5)],
    from_scale: Annotated[Scale, Arg(example="celsius")],
    to_scale: Annotated[Scale, Arg(example="fahrenheit")],
    digits: Annotated[int, Arg(minimum=0, maximum=6, example=1)] = 2,
) -> dict[str, Any]:
    """Convert a temperature between Celsius, Fahrenheit and Kelvin.

    Args:
        value: The temperature to convert
        from_scale: Scale of the value
        to_scale: Scale to convert to
        digits: Decimal places to round to
    """
    return temperature(value, from_scale, to_scale, digits)


@tool(toolset="unit-convert", namespace="units", name=tool_name("units", "convert", "length"))
async def convert_length(
    value: Annotated[float, Arg(example=3)],
    from_unit: Annotated[Unit, Arg(example="mi")],
    to_unit: Annotated[Unit, Arg(example="km")],
) -> dict[str, Any]:
    """Convert a length between metric and imperial units.

    Args:
        value: The length to convert
        from_unit: Unit of the value
        to_unit: Unit to convert to
    """
    return length(value, from_unit, to_unit)
