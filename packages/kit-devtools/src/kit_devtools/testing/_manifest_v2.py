"""The manifest fields hermes reads from 0.20.1 on (manifest v2, upstream #64165).

Read from the releases (each cited name is the installed wheel's):

* 0.20.1: ``hermes_cli.plugins.PluginManager._parse_manifest`` and
  ``hermes_cli.plugins._parse_manifest_v2_fields``; ``hermes_cli.plugins._display_author``;
  ``hermes_cli.plugin_capabilities.parse_declared_capabilities``.
* 0.21.3 on: the same code moved to ``hermes_cli/plugins_manifest.py``
  (``hermes_cli.plugins_manifest.parse_manifest_file``,
  ``hermes_cli.plugins_manifest._parse_manifest_v2_fields``), called from
  ``hermes_cli.plugins_discovery.scan_directory``; ``requires_hermes`` joins the fields
  (``str(data.get("requires_hermes") or "").strip()``).
* 0.22.2: ``parse_manifest_file`` adds ``provides_locales`` / ``locale_metadata``
  (``hermes_cli.plugins_manifest.parse_provides_locales`` with ``agent/i18n_layers.py``'s
  language ids) and reads ``provides_hooks`` falling back to the old spelling ``hooks``.

Every problem of these fields is a WARNING (logged by ``hermes_cli.plugins`` as "Plugin
<key>: ..."), never a refusal; the returned warnings are those, in hermes' order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final, cast

__all__ = ["CAPABILITY_IDS", "SUPPORTED_MANIFEST_VERSION", "v2_fields"]

SUPPORTED_MANIFEST_VERSION: Final = 2
"""``SUPPORTED_MANIFEST_VERSION`` (2 on 0.20.1 through 0.22.2)."""

CAPABILITY_IDS: Final = frozenset(
    {"gateway.platform_actions", "llm.agent_id_override", "llm.model_override",
     "llm.profile_override", "llm.provider_override", "llm.task_override", "tools.override"}
)  # fmt: skip
"""``plugin_capabilities.VALID_CAPABILITY_IDS``, the same on 0.20.1 through 0.22.2
(read by importing each release)."""

_LANGUAGE_ID: Final = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")
"""``agent.i18n_layers._LANGUAGE_ID_RE`` (0.22.2)."""


def _as_int(raw: object, fallback: int | None) -> tuple[int | None, bool]:
    try:
        return int(cast("Any", raw)), True
    except (TypeError, ValueError):
        return fallback, False


def _listed(
    data: Mapping[str, Any], name: str, what: str, coerce: Callable[[object], Any], warn: str,
    key: str, warnings: list[str],
) -> list[Any]:  # fmt: skip
    """``hermes_cli.plugins_manifest._manifest_list`` (0.21.3)."""
    raw = data.get(name)
    if raw is not None and not isinstance(raw, list):
        warnings.append(f"Plugin {key}: {name} must be {what}; ignoring")
        return []
    found: list[Any] = []
    for item in cast("list[object]", raw or []):
        value = coerce(item)
        if value is None:
            warnings.append(warn.format(key=key, item=repr(item)))
        else:
            found.append(value)
    return found


def _dependency(item: object) -> dict[str, Any] | None:
    if isinstance(item, str):
        return {"id": item, "version_range": None}
    if isinstance(item, Mapping):
        entry = cast("Mapping[str, Any]", item)
        if isinstance(entry.get("id"), str) and entry["id"]:
            vr = entry.get("version_range")
            return {"id": entry["id"], "version_range": str(vr) if vr is not None else None}
    return None


def _requirement(item: object) -> str | None:
    return item.strip() if isinstance(item, str) and item.strip() else None


def _config_schema(
    data: Mapping[str, Any], key: str, types: frozenset[str], warnings: list[str]
) -> dict[str, Any]:
    raw = data.get("config_schema")
    if raw is not None and not isinstance(raw, Mapping):
        warnings.append(f"Plugin {key}: config_schema must be a mapping; ignoring")
        raw = None
    schema: dict[str, Any] = {}
    for skey, spec in cast("Mapping[object, object]", raw or {}).items():
        if not isinstance(spec, Mapping):
            warnings.append(
                f"Plugin {key}: config_schema entry {skey!r} must be a mapping"
                " (e.g. {type: str}); skipping"
            )
            continue
        entry = cast("Mapping[str, Any]", spec)
        stype = entry.get("type")
        if stype is not None and str(stype).lower() not in types:
            warnings.append(
                f"Plugin {key}: config_schema key {skey!r} declares unknown type {stype!r}"
                f" (known: {', '.join(sorted(types))}); type check will be skipped"
                " for it"
            )
        schema[str(skey)] = dict(entry)
    return schema


def capabilities(raw: object, name: object, warnings: list[str]) -> list[str]:
    """``hermes_cli.plugin_capabilities.parse_declared_capabilities`` (0.20.1)."""
    if not raw:
        return []
    if not isinstance(raw, (list, tuple)):
        warnings.append(
            f"Plugin {name}: manifest 'capabilities' must be a list, got"
            f" {type(raw).__name__} — ignoring"
        )
        return []
    found: list[str] = []
    for item in cast("list[object]", raw):
        if not isinstance(item, str):
            warnings.append(f"Plugin {name}: ignoring non-string capability entry {item!r}")
            continue
        cap = item.strip()
        if cap in CAPABILITY_IDS:
            if cap not in found:
                found.append(cap)
        else:
            known = ", ".join(sorted(CAPABILITY_IDS))
            warnings.append(
                f"Plugin {name}: unknown capability {cap!r} (known: {known}) — ignoring"
            )
    return found


def locales(raw: object, key: str, warnings: list[str]) -> tuple[list[str], dict[str, Any]]:
    """``parse_provides_locales`` (0.22.2 plugins_manifest.py): ids and their metadata."""
    ids: list[str] = []
    metadata: dict[str, Any] = {}
    if raw is None:
        return ids, metadata
    items: object = [cast("object", raw)] if isinstance(raw, str | Mapping) else raw
    if not isinstance(items, list):
        warnings.append(
            f"Plugin {key}: provides_locales must be a list of language ids, got"
            f" {type(cast('object', raw)).__name__}"
        )
        return ids, metadata

    def normal(value: object) -> str:
        return value.strip().lower().replace("_", "-") if isinstance(value, str) else ""

    for item in cast("list[object]", items):
        meta: dict[str, Any] = {}
        if isinstance(item, Mapping):
            entry = cast("Mapping[str, Any]", item)
            lang = normal(entry.get("id", ""))
            endonym = entry.get("endonym")
            if isinstance(endonym, str) and endonym.strip():
                meta["endonym"] = endonym.strip()
            if "rtl" in entry:
                meta["rtl"] = bool(entry["rtl"])
        else:
            lang = normal(item)
        if not _LANGUAGE_ID.match(lang):
            warnings.append(f"Plugin {key}: ignoring invalid provides_locales entry {item!r}")
            continue
        if lang in ids:
            warnings.append(f"Plugin {key}: duplicate provides_locales entry {lang!r}")
            continue
        ids.append(lang)
        if meta:
            metadata[lang] = meta
    return ids, metadata


def v2_fields(
    data: Mapping[str, Any],
    key: str,
    known: frozenset[str],
    types: frozenset[str],
    warnings: list[str],
) -> dict[str, Any]:
    """``_parse_manifest_v2_fields``: the v2 fields, and its warnings appended to
    ``warnings`` (an unknown key, one not in the release's ``known`` fields, warns only on a
    v2+ manifest; hermes logs it at debug on v1). ``types``: the ``config_schema`` types the
    release checks."""
    mv, ok = _as_int(data.get("manifest_version", 1), 1)
    if not ok:
        raw = data.get("manifest_version")
        warnings.append(f"Plugin {key}: manifest_version {raw!r} is not an integer; treating as 1")
    version = mv or 0
    if version > SUPPORTED_MANIFEST_VERSION:
        warnings.append(
            f"Plugin {key}: manifest_version {version} is newer than this Hermes supports"
            f" ({SUPPORTED_MANIFEST_VERSION}); loading anyway and ignoring unknown fields"
        )
    raw_api = data.get("api_version")
    api, ok = (None, True) if raw_api is None else _as_int(raw_api, None)
    if not ok:
        warnings.append(f"Plugin {key}: api_version {raw_api!r} is not an integer; ignoring")
    deps = _listed(
        data, "requires_plugins", "a list", _dependency,
        "Plugin {key}: requires_plugins entry {item} must be a plugin id string or a"
        " {{id, version_range}} mapping; skipping", key, warnings,
    )  # fmt: skip
    pydeps = _listed(
        data, "python_dependencies", "a list of requirement strings", _requirement,
        "Plugin {key}: python_dependencies entry {item} must be a non-empty requirement"
        " string; skipping", key, warnings,
    )  # fmt: skip
    schema = _config_schema(data, key, types, warnings)
    raw_tags = data.get("tags")
    if raw_tags is not None and not isinstance(raw_tags, list):
        warnings.append(f"Plugin {key}: tags must be a list; ignoring")
        raw_tags = None
    # as hermes: keys YAML read as other types make sorted() or join() raise, and hermes
    # then refuses the manifest ("Failed to parse"); the caller does the same
    unknown: list[Any] = sorted(set(data) - known)
    if unknown:
        line = ", ".join(unknown)  # computed at debug level too (hermes formats it eagerly)
        if version >= SUPPORTED_MANIFEST_VERSION:
            warnings.append(
                f"Plugin {key}: unknown manifest field(s) ignored: {line}"
                " (newer manifest schema or typo; plugin still loads)"
            )
    return {
        "manifest_version": mv, "api_version": api, "requires_plugins": deps,
        "python_dependencies": pydeps, "config_schema": schema,
        "license": str(data.get("license") or ""), "homepage": str(data.get("homepage") or ""),
        "tags": [str(t) for t in cast("list[object]", raw_tags or [])],
    }  # fmt: skip
