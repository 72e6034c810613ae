"""Reading ``plugin.yaml`` exactly as hermes does, and what hermes derives from it.

hermes-agent parses a manifest with PyYAML's safe loader (``utils.fast_safe_load``: the
libyaml ``CSafeLoader`` when built, else ``SafeLoader``, "identical everywhere"), treats an
empty document as ``{}``, and refuses (logs "Failed to parse") anything that raises while
reading it, a document that is not a mapping included (``_parse_manifest``,
``hermes_cli/plugins.py`` 1565-1644 in 0.19.0).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import yaml

from kit_devtools.testing.entries import PluginManifest

VALID_KINDS: Final = frozenset({"standalone", "backend", "exclusive", "platform", "model-provider"})

_LOADER: Final[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ManifestError(ValueError):
    """A manifest hermes cannot read: bad YAML, or a document that is not a mapping."""


def read_manifest(path: Path) -> dict[str, Any]:
    """Parse ``path`` (a ``plugin.yaml``) like hermes; an empty document gives ``{}``.

    Raises:
        ManifestError: the YAML does not parse, or is not a mapping (hermes refuses both).
        OSError, UnicodeDecodeError: the file cannot be read as UTF-8 (hermes too).
    """
    text = path.read_text(encoding="utf-8")
    try:
        data: Any = yaml.load(text, Loader=_LOADER) or {}  # a safe loader
    except yaml.YAMLError as exc:
        raise ManifestError(str(exc)) from None
    if not isinstance(data, dict):
        kind = type(data).__name__
        msg = f"'{kind}' object has no attribute 'get' (a manifest must be a mapping)"
        raise ManifestError(msg)
    return data  # pyright: ignore[reportUnknownVariableType]


def effective_kind(data: dict[str, Any], directory: Path | None) -> tuple[str, str | None]:
    """The kind hermes gives the plugin, and a warning when the declared kind is unknown.

    Like ``_parse_manifest``: a non-string kind is ``standalone``; an unknown one warns and
    becomes ``standalone``; with no ``kind`` key, an ``__init__.py`` mentioning a memory
    provider makes it ``exclusive``, one mentioning ``register_provider`` and
    ``ProviderProfile`` makes it ``model-provider``.
    """
    raw = data.get("kind", "standalone")
    if not isinstance(raw, str):
        raw = "standalone"
    kind = raw.strip().lower()
    warning = None
    if kind not in VALID_KINDS:
        warning = f"unknown kind '{raw}' (valid: {', '.join(sorted(VALID_KINDS))})"
        kind = "standalone"
    if kind == "standalone" and "kind" not in data and directory is not None:
        source = _head(directory)
        if is_memory_provider_source(source):
            kind = "exclusive"
        elif all(marker in source for marker in MODEL_PROVIDER_MARKERS):
            kind = "model-provider"
    return kind, warning


REKIND_LIMIT: Final = 8192
"""hermes reads this many characters of ``__init__.py`` for its text test of the kind."""

MEMORY_MARKERS: Final = ("register_memory_provider", "MemoryProvider")
"""Either word makes a plugin with no ``kind`` a memory provider (``exclusive``)."""

MODEL_PROVIDER_MARKERS: Final = ("register_provider", "ProviderProfile")
"""Both words make a plugin with no ``kind`` a model provider."""


def _head(directory: Path) -> str:
    """The first characters of the plugin's ``__init__.py``, as hermes-agent 0.19.0 reads
    them (the locale's encoding, ``hermes_cli/plugins.py`` L1604; upstream reads
    ``utf-8-sig``, which ``compat`` models)."""
    init = directory / "__init__.py"
    try:
        return init.read_text(errors="replace")[:REKIND_LIMIT] if init.exists() else ""
    except OSError:
        return ""


def is_memory_provider_source(source: str) -> bool:
    """hermes' text test for a memory provider (``_is_memory_provider_dir``,
    ``plugins/memory/__init__.py`` 74-88; the same words re-kind a manifest)."""
    return any(marker in source for marker in MEMORY_MARKERS)


def is_memory_provider_dir(directory: Path) -> bool:
    """Whether hermes' memory discovery takes ``directory`` for a memory provider."""
    return is_memory_provider_source(_head(directory))


def build_manifest(
    data: dict[str, Any], *, name: str, key: str, source: str, path: str | None, kind: str
) -> PluginManifest:
    """``ctx.manifest`` from the parsed YAML, field by field as ``_parse_manifest`` does."""
    return PluginManifest(
        name=name,
        version=str(data.get("version", "")),
        description=data.get("description", ""),
        author=data.get("author", ""),
        requires_env=data.get("requires_env", []),
        provides_tools=data.get("provides_tools", []),
        provides_hooks=data.get("provides_hooks", []),
        source=source,
        path=path,
        kind=kind,
        key=key,
    )


def plugin_slug(key: str) -> str:
    """The module name hermes imports a directory plugin under, without the namespace."""
    return key.replace("/", "__").replace("-", "_")
