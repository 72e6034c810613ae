"""Upstream hermes' plugin configuration, for :mod:`_upstream_context`: the manifest with its
``config_schema`` (:class:`UpstreamManifest`) and the plugin-relative config keys
``get_config`` and ``set_config`` take (:func:`relative_segments`, read with
:func:`nested`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, cast

from kit_core.hermes import RESERVED_CONFIG_ROOTS
from kit_devtools.testing.entries import PluginManifest

_SEGMENT: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$")


@dataclass(frozen=True, slots=True)
class UpstreamManifest(PluginManifest):
    """Upstream's ``PluginManifest``: 0.19.0's fields and ``config_schema``."""

    config_schema: dict[str, Any] = field(default_factory=dict[str, Any])


def upstream_manifest(manifest: PluginManifest, data: Mapping[str, Any]) -> UpstreamManifest:
    """``manifest`` with the ``config_schema`` of the parsed YAML (mapping entries only)."""
    if hasattr(manifest, "config_schema"):  # the release's own manifest (0.20.1 on) has it
        return cast("UpstreamManifest", manifest)
    raw = data.get("config_schema")
    schema: dict[str, Any] = {}
    if isinstance(raw, Mapping):
        for key, spec in raw.items():  # pyright: ignore[reportUnknownVariableType]
            if isinstance(spec, Mapping):
                schema[str(key)] = dict(spec)  # pyright: ignore[reportUnknownArgumentType]
    values = {f.name: getattr(manifest, f.name) for f in fields(manifest)}
    return UpstreamManifest(**values, config_schema=schema)


def relative_segments(key: object) -> tuple[str, ...]:
    """``_plugin_relative_segments``: ``key``'s segments, or ValueError."""
    if not isinstance(key, str):
        msg = "Expected a plugin-relative config key string"
        raise ValueError(msg)
    segments = tuple(key.split("."))
    invalid = not key or "/" in key or "\\" in key or segments[0].lower() in RESERVED_CONFIG_ROOTS
    if invalid or not all(_SEGMENT.fullmatch(s) for s in segments):
        msg = (
            "Expected a plugin-relative config key such as 'endpoint' or "
            "'retry.policy'; global, cross-plugin, and traversal paths are forbidden"
        )
        raise ValueError(msg)
    return segments


def nested(root: object, segments: tuple[str, ...], default: Any) -> Any:
    """``_nested_plugin_value``: ``root[s1][s2]...``, else ``default``."""
    current: Any = root
    for segment in segments:
        if not isinstance(current, Mapping) or segment not in current:
            return default
        current = cast("Mapping[str, Any]", current)[segment]
    return current
