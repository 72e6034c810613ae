"""Reading ``plugin.yaml`` exactly as each hermes release does, and what it derives from it.

hermes-agent parses a manifest with PyYAML's safe loader (``utils.fast_safe_load``: the
libyaml ``CSafeLoader`` when built, else ``SafeLoader``, "identical everywhere"), treats an
empty document as ``{}``, and refuses (logs "Failed to parse") anything that raises while
reading it, a document that is not a mapping included
(``hermes_cli.plugins.PluginManager._parse_manifest`` of 0.19.0, the same through 0.20.0).

From 0.20.1 the manifest carries the v2 fields (:mod:`._manifest_v2`; ``_parse_manifest`` in
0.20.1, ``hermes_cli.plugins_manifest.parse_manifest_file`` from 0.21.3). 0.22.2 reads the
file as ``utf-8-sig`` with ruamel.yaml at YAML 1.1 (``hermes_yaml.safe_load``, called by
``utils.fast_safe_load``): the same documents as PyYAML except that a duplicate key is an
error and a bare ``y``/``n`` is a boolean; and it refuses a non-mapping document with "top
level must be a mapping" (``parse_manifest_file``). The host model records a release's
``PluginManifest`` fields and its top-level modules: a release that ships
``hermes_yaml`` reads with ruamel (:func:`reads_with_ruamel`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import field
from functools import cache
from pathlib import Path
from typing import Any, Final, cast

import yaml

from kit_core.hermes import MANIFEST_FILES, MANIFEST_KINDS, HostRelease
from kit_devtools.testing import _manifest_v2
from kit_devtools.testing.entries import PluginManifest

_LOADER: Final[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _RuamelLike(_LOADER):
    """PyYAML's safe loader reading as ``hermes_yaml.safe_load`` (ruamel, YAML 1.1) does:
    a duplicate key raises (ruamel's ``DuplicateKeyError``) and ``y``/``n`` are booleans."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                msg = f'found duplicate key "{key}" (ruamel.yaml refuses it)'
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", node.start_mark, msg, key_node.start_mark
                )
            seen.add(key)
        base: Any = super()  # PyYAML's loader is untyped
        return base.construct_mapping(node, deep=deep)

    def construct_yaml_bool(self, node: Any) -> bool:
        value = self.construct_scalar(node)
        if value in ("y", "Y", "n", "N"):
            return value in ("y", "Y")
        base: Any = super()
        return bool(base.construct_yaml_bool(node))


_RuamelLike.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:y|Y|n|N)$"), list("yYnN")
)
_RuamelLike.add_constructor("tag:yaml.org,2002:bool", _RuamelLike.construct_yaml_bool)


class ManifestError(ValueError):
    """A manifest hermes cannot read: bad YAML, or a document that is not a mapping."""


class ManifestBeyondLimits(ManifestError):
    """A manifest the kit does not read, past :data:`MAX_BYTES` or :data:`MAX_VALUES` (hermes
    reads it, with no bound): ``why``, and the ``fix``."""

    def __init__(self, why: str, fix: str) -> None:
        super().__init__(f"{why}; {fix}")
        self.why = why
        self.fix = fix


MAX_BYTES: Final = 1024 * 1024
"""The largest ``plugin.yaml`` the kit reads (its own manifests are a few hundred bytes)."""

MAX_VALUES: Final = 100_000
"""The most values a manifest may hold with its YAML aliases expanded: past it, the
document is an alias bomb (643 bytes can stand for billions of values) that would hold
any tool walking it, so it is refused before it is built."""


def _bounded(root: yaml.Node) -> None:
    """Refuse a composed document that, with its aliases expanded, holds more than
    :data:`MAX_VALUES` values (counted once per node, shared nodes by their expansion)."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in sizes:
            continue
        children: list[yaml.Node] = []
        if isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        total = 1 + sum(sizes.get(id(c), 1) for c in children)
        sizes[id(node)] = total
        if total > MAX_VALUES:
            raise ManifestBeyondLimits(
                f"it expands to more than {MAX_VALUES:,} values through YAML aliases (an"
                " alias bomb, which would hold whatever walks it)",
                "write the manifest without anchors and aliases (&name, *name)",
            )


def bounded_text(path: Path, encoding: str = "utf-8") -> str:
    """The text of the manifest ``path``, refused past :data:`MAX_BYTES` (never read whole).

    Raises:
        ManifestBeyondLimits: the file is larger.
        OSError, UnicodeDecodeError: it cannot be read as text.
    """
    with path.open("rb") as file:
        raw = file.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise ManifestBeyondLimits(
            f"it is larger than the {MAX_BYTES:,} bytes the kit reads",
            "keep plugin.yaml to the plugin's name and what it provides; data goes in files"
            " of its own",
        )
    return raw.decode(encoding)


def load_bounded(text: str, loader: Any = _LOADER) -> Any:
    """``text`` read by PyYAML's safe ``loader`` as ``yaml.safe_load`` does, refused when
    its aliases expand past :data:`MAX_VALUES` (checked on the composed nodes, before
    anything is built).

    Raises:
        ManifestError: the YAML does not parse, or is an alias bomb.
    """
    reader = loader(text)
    try:
        node = reader.get_single_node()
        if node is None:
            return None
        _bounded(node)
        return reader.construct_document(node)
    except yaml.YAMLError as exc:
        raise ManifestError(str(exc)) from None
    finally:
        reader.dispose()


def reads_with_ruamel(release: HostRelease | None) -> bool:
    """Whether ``release`` reads manifests with ruamel: its ``utils.fast_safe_load`` is
    ``hermes_yaml.safe_load`` wherever it ships ``hermes_yaml`` (0.22.2 on; 0.21.5's is
    still PyYAML's ``CSafeLoader``)."""
    return release is not None and "hermes_yaml" in release.top_level


def read_manifest(path: Path, release: HostRelease | None = None) -> dict[str, Any]:
    """Parse ``path`` (a ``plugin.yaml``) like ``release`` (0.19.0's reader when None); an
    empty document gives ``{}``.

    Raises:
        ManifestError: the YAML does not parse, or is not a mapping (hermes refuses both).
        OSError, UnicodeDecodeError: the file cannot be read as UTF-8 (hermes too).
    """
    ruamel = reads_with_ruamel(release)
    text = bounded_text(path, "utf-8-sig" if ruamel else "utf-8")
    data: Any = load_bounded(text, _RuamelLike if ruamel else _LOADER) or {}
    if not isinstance(data, dict):
        kind = type(data).__name__
        msg = (
            f"top level must be a mapping, got {kind} (#14066)"
            if ruamel
            else f"'{kind}' object has no attribute 'get' (a manifest must be a mapping)"
        )
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
    if kind not in MANIFEST_KINDS:
        warning = f"unknown kind '{raw}' (valid: {', '.join(sorted(MANIFEST_KINDS))})"
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
    them (the locale's encoding, ``hermes_cli.plugins.PluginManager._parse_manifest``;
    upstream reads ``utf-8-sig``, which ``compat`` models)."""
    init = directory / "__init__.py"
    try:
        return init.read_text(errors="replace")[:REKIND_LIMIT] if init.exists() else ""
    except OSError:
        return ""


def is_memory_provider_source(source: str) -> bool:
    """hermes' text test for a memory provider (``plugins.memory._is_memory_provider_dir``;
    the same words re-kind a manifest)."""
    return any(marker in source for marker in MEMORY_MARKERS)


def is_memory_provider_dir(directory: Path) -> bool:
    """Whether hermes' memory discovery takes ``directory`` for a memory provider."""
    return is_memory_provider_source(_head(directory))


def has_manifest(directory: Path) -> bool:
    """Whether ``directory`` holds the manifest hermes' general loader discovers it by."""
    return any((directory / name).is_file() for name in MANIFEST_FILES)


CRON_MARKERS: Final = ("register_cron_scheduler", "CronScheduler")
"""Either word makes a folder a cron scheduler provider
(``plugins.cron_providers._is_cron_provider_dir``, 0.18.0 on); no kind is changed by them."""


def is_cron_provider_dir(directory: Path) -> bool:
    """Whether hermes' cron discovery takes ``directory`` for a cron scheduler provider."""
    source = _head(directory)
    return any(marker in source for marker in CRON_MARKERS)


def registers_cron_scheduler(directory: Path) -> bool:
    """Whether the plugin's ``__init__.py`` calls ``register_cron_scheduler``."""
    return CRON_MARKERS[0] in _head(directory)


def registers_memory_provider(directory: Path) -> bool:
    """Whether the plugin's ``__init__.py`` (as hermes reads it) calls
    ``register_memory_provider``: a plugin of another kind that says it is also a memory
    provider, not one that only names ``MemoryProvider``."""
    return MEMORY_MARKERS[0] in _head(directory)


_FIELD_TYPES: Final[dict[str, Any]] = {
    "portable": (bool, False),
    "skill_namespace": (str, ""),
    "capabilities": (list[str], field(default_factory=list[str])),
    "requires_hermes": (str, ""),
    "manifest_version": (int, 1),
    "api_version": (int | None, None),
    "requires_plugins": (list[Any], field(default_factory=list[Any])),
    "python_dependencies": (list[str], field(default_factory=list[str])),
    "config_schema": (dict[str, Any], field(default_factory=dict[str, Any])),
    "license": (str, ""),
    "homepage": (str, ""),
    "tags": (list[str], field(default_factory=list[str])),
    "emits": (list[Any], field(default_factory=list[Any])),
    "listens": (list[Any], field(default_factory=list[Any])),
    "provides_locales": (list[str], field(default_factory=list[str])),
    "locale_metadata": (dict[str, Any], field(default_factory=dict[str, Any])),
}
"""The fields hermes' ``PluginManifest`` has beyond 0.19.0's, with their defaults."""


@cache
def manifest_class(fields: tuple[str, ...]) -> type[PluginManifest]:
    """``PluginManifest`` with exactly the fields of a release (the host model's
    ``manifest``): 0.19.0's class itself, or a subclass adding the newer ones."""
    extra = [f for f in fields if f not in {f.name for f in dataclasses.fields(PluginManifest)}]
    unknown = [f for f in extra if f not in _FIELD_TYPES]
    if unknown:
        msg = f"the host model's PluginManifest has fields the kit does not build: {unknown}"
        raise RuntimeError(msg)
    if not extra:
        return PluginManifest
    spec = [(f, _FIELD_TYPES[f][0], _FIELD_TYPES[f][1]) for f in extra]
    made = dataclasses.make_dataclass(
        "PluginManifest", spec, bases=(PluginManifest,), frozen=True, slots=True
    )
    made.__doc__ = PluginManifest.__doc__
    return made


def _author(value: object) -> str:
    """``hermes_cli.plugins._display_author`` (0.20.1): a mapping's name, email and url."""
    if isinstance(value, dict):
        entry = cast("dict[str, Any]", value)
        return ", ".join(str(entry[f]) for f in ("name", "email", "url") if entry.get(f))
    return "" if value is None else str(value)


def build_manifest(
    data: dict[str, Any],
    *,
    name: str,
    key: str,
    source: str,
    path: str | None,
    kind: str,
    release: HostRelease | None = None,
    warnings: list[str] | None = None,
) -> PluginManifest:
    """``ctx.manifest`` from the parsed YAML, field by field as ``release`` builds it
    (0.19.0 when None); its warnings are appended to ``warnings``.

    Raises what hermes' reader raises on the same data (it then refuses the manifest).
    """
    fields = release.manifest if release is not None else ()
    cls = manifest_class(fields) if fields else PluginManifest
    newer = release if cls is not PluginManifest else None  # None: 0.19.0's fields alone
    hooks = data.get("provides_hooks", [])
    # 0.21.5 on read the old spelling too (#108371)
    if newer is not None and newer.reads_hooks_spelling:
        hooks = data.get("provides_hooks", data.get("hooks", []))
    author = data.get("author", "")
    values: dict[str, Any] = {
        "name": name, "version": str(data.get("version", "")),
        "description": data.get("description", ""),
        "author": author if newer is None else _author(author),
        "requires_env": data.get("requires_env", []),
        "provides_tools": data.get("provides_tools", []), "provides_hooks": hooks,
        "source": source, "path": path, "kind": kind, "key": key,
    }  # fmt: skip
    if newer is None:
        return PluginManifest(**values)
    said = [] if warnings is None else warnings
    raw_name: object = data.get("name", name)
    # in the order hermes warns: 0.20.1 reads the v2 fields before building the manifest,
    # 0.21.3 on evaluate them after ``capabilities`` among its keywords, 0.22.2 reads the
    # locales first
    if "provides_locales" in fields:
        ids, meta = _manifest_v2.locales(data.get("provides_locales"), key, said)
        values["provides_locales"], values["locale_metadata"] = ids, meta
    known, types = newer.manifest_known_fields, newer.config_schema_types
    if "requires_hermes" in fields:
        values["requires_hermes"] = str(data.get("requires_hermes") or "").strip()
        values["capabilities"] = _manifest_v2.capabilities(data.get("capabilities"), raw_name, said)
        values.update(_manifest_v2.v2_fields(data, key, known, types, said))
    else:
        values.update(_manifest_v2.v2_fields(data, key, known, types, said))
        values["capabilities"] = _manifest_v2.capabilities(data.get("capabilities"), raw_name, said)
    values["emits"] = data.get("emits") or []
    values["listens"] = data.get("listens") or []
    return cls(**{k: v for k, v in values.items() if k in fields})


def plugin_slug(key: str) -> str:
    """The module name hermes imports a directory plugin under, without the namespace."""
    return key.replace("/", "__").replace("-", "_")
