"""The unit-convert tools."""

from __future__ import annotations

from typing import Any

from kit_core import int_arg, number_arg, str_arg, tool, tool_name

SCALES = ("celsius", "fahrenheit", "kelvin")
LENGTHS = {
    "mm": 0.001,
    "cm": 0.01,
    "m": 1.0,
    "km": 1000.0,
    "in": 0.0254,
    "ft": 0.3048,
    "mi": 1609.344,
}


def _to_kelvin(value: float, scale: str) -> float:
    if scale == "celsius":
        return value + 273.15
    if scale == "fahrenheit":
        return (value - 32) * 5 / 9 + 273.15
    return value


def _from_kelvin(value: float, scale: str) -> float:
    if scale == "celsius":
        return value - 273.15
    if scale == "fahrenheit":
        return (value - 273.15) * 9 / 5 + 32
    return value


@tool(
    toolset="unit-convert",
    namespace="units",
    name=tool_name("units", "convert", "temperature"),
    emoji="🌡",
    params={
        "value": number_arg("The temperature to convert", required=True, example=21.5),
        "from_scale": str_arg("Scale of the value", required=True, enum=SCALES, example="celsius"),
        "to_scale": str_arg(
            "Scale to convert to", required=True, enum=SCALES, example="fahrenheit"
        ),
        "digits": int_arg("Decimal places to round to", minimum=0, maximum=6, example=1, default=2),
    },
)
def convert_temperature(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Convert a temperature between Celsius, Fahrenheit and Kelvin."""
    return temperature(args["value"], args["from_scale"], args["to_scale"], args["digits"])


def temperature(value: float, from_scale: str, to_scale: str, digits: int) -> dict[str, Any]:
    """The conversion itself (shared with the typed declaration in ``typed.py``)."""
    kelvin = _to_kelvin(value, from_scale)
    if kelvin < 0:
        msg = f"{value} {from_scale} is below absolute zero"
        raise ValueError(msg)
    return {"value": round(_from_kelvin(kelvin, to_scale), digits), "scale": to_scale}


@tool(
    toolset="unit-convert",
    namespace="units",
    name=tool_name("units", "convert", "length"),
    params={
        "value": number_arg("The length to convert", required=True, example=3),
        "from_unit": str_arg(
            "Unit of the value", required=True, enum=sorted(LENGTHS), example="mi"
        ),
        "to_unit": str_arg("Unit to convert to", required=True, enum=sorted(LENGTHS), example="km"),
    },
)
async def convert_length(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Convert a length between metric and imperial units."""
    return length(args["value"], args["from_unit"], args["to_unit"])


def length(value: float, from_unit: str, to_unit: str) -> dict[str, Any]:
    """The conversion itself (shared with the typed declaration in ``typed.py``)."""
    metres = value * LENGTHS[from_unit]
    return {"value": round(metres / LENGTHS[to_unit], 6), "unit": to_unit}
