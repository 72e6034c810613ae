"""Reading ``plugin.yaml`` without PyYAML: the subset plugin manifests use.

Supported: ``key: scalar`` (plain, quoted, numbers, booleans, null), inline lists
``[a, b]`` and mappings ``{a: b}``, block lists (``- x``, including ``- key: value`` items),
nested mappings, and ``|`` / ``>`` block scalars. Comments and blank lines are skipped.
Anything else raises :class:`ManifestError` naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from hermes_plugin_kit.testing.entries import PluginManifest

VALID_KINDS: Final = frozenset({"standalone", "backend", "exclusive", "platform", "model-provider"})

_KEY = re.compile(r"^(?P<key>[^\s#:][^:]*?|\"[^\"]*\"|'[^']*')\s*:(?:\s+(?P<value>.*)|$)")
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")


class ManifestError(ValueError):
    """A manifest this parser cannot read."""


def read_manifest(path: Path) -> dict[str, Any]:
    """Parse ``path`` (a ``plugin.yaml``) into a dict; an empty file gives ``{}``."""
    text = path.read_text(encoding="utf-8")
    lines = [(n, line.rstrip()) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        return {}
    value, rest = _block(lines, 0, _indent(lines[0][1]))
    if rest < len(lines):
        raise ManifestError(f"line {lines[rest][0]}: unexpected indentation")
    if not isinstance(value, dict):
        raise ManifestError("a manifest must be a mapping of keys to values")
    return value  # pyright: ignore[reportUnknownVariableType]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(lines: list[tuple[int, str]], start: int, indent: int) -> tuple[Any, int]:
    """The mapping or list whose lines start at ``start`` with ``indent`` spaces."""
    if lines[start][1].strip().startswith("- ") or lines[start][1].strip() == "-":
        return _list(lines, start, indent)
    return _mapping(lines, start, indent)


def _mapping(lines: list[tuple[int, str]], start: int, indent: int) -> tuple[dict[str, Any], int]:
    out: dict[str, Any] = {}
    i = start
    while i < len(lines) and _indent(lines[i][1]) == indent:
        number, line = lines[i]
        match = _KEY.match(line.strip())
        if match is None:
            raise ManifestError(f"line {number}: expected 'key: value', got {line.strip()!r}")
        key = _unquote(match["key"].strip())
        raw = _strip_comment(match["value"] or "")
        i += 1
        if raw in {"|", ">", "|-", ">-", "|+", ">+"}:
            out[key], i = _block_scalar(lines, i, indent, raw)
        elif raw:
            out[key] = _scalar(raw, number)
        elif i < len(lines) and _indent(lines[i][1]) > indent:
            out[key], i = _block(lines, i, _indent(lines[i][1]))
        elif i < len(lines) and _indent(lines[i][1]) == indent and lines[i][1].strip()[:1] == "-":
            out[key], i = _list(lines, i, indent)
        else:
            out[key] = None
    return out, i


def _list(lines: list[tuple[int, str]], start: int, indent: int) -> tuple[list[Any], int]:
    out: list[Any] = []
    i = start
    while i < len(lines) and _indent(lines[i][1]) == indent:
        number, line = lines[i]
        item = line.strip()
        if not (item == "-" or item.startswith("- ")):
            break
        body = item[1:].strip()
        i += 1
        if not body:
            if i < len(lines) and _indent(lines[i][1]) > indent:
                value, i = _block(lines, i, _indent(lines[i][1]))
                out.append(value)
            else:
                out.append(None)
        elif _KEY.match(body) and not body.startswith(("[", "{", '"', "'")):
            # "- key: value" opens a mapping whose other keys are indented under it
            inner = indent + (len(item) - len(body))
            nested = [(number, " " * inner + body)]
            while i < len(lines) and _indent(lines[i][1]) > indent:
                nested.append(lines[i])
                i += 1
            value, used = _mapping(nested, 0, inner)
            if used != len(nested):
                raise ManifestError(f"line {nested[used][0]}: unexpected indentation")
            out.append(value)
        else:
            out.append(_scalar(_strip_comment(body), number))
    return out, i


def _block_scalar(
    lines: list[tuple[int, str]], start: int, indent: int, style: str
) -> tuple[str, int]:
    i = start
    body: list[str] = []
    while i < len(lines) and _indent(lines[i][1]) > indent:
        body.append(lines[i][1])
        i += 1
    if not body:
        return "", i
    margin = min(_indent(line) for line in body)
    text_lines = [line[margin:] for line in body]
    text = "\n".join(text_lines) if style[0] == "|" else " ".join(s.strip() for s in text_lines)
    return (text if style.endswith("-") else text + "\n"), i


def _strip_comment(raw: str) -> str:
    text = raw.strip()
    if text[:1] in {'"', "'"}:
        end = text.find(text[0], 1)
        if end > 0 and (not text[end + 1 :].strip() or text[end + 1 :].lstrip()[:1] == "#"):
            return text[: end + 1]
        return text
    return re.split(r"\s+#", text, maxsplit=1)[0].strip()


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in {'"', "'"}:
        return text[1:-1]
    return text


def _scalar(raw: str, number: int) -> Any:
    text = raw.strip()
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(part, number) for part in _split(inner)] if inner else []
    if text.startswith("{") and text.endswith("}"):
        out: dict[str, Any] = {}
        for part in _split(text[1:-1].strip()):
            key, sep, value = part.partition(":")
            if not sep:
                raise ManifestError(f"line {number}: expected 'key: value' in {text!r}")
            out[_unquote(key.strip())] = _scalar(value, number) if value.strip() else None
        return out
    if len(text) >= 2 and text[0] == text[-1] and text[0] in {'"', "'"}:
        return text[1:-1]
    lowered = text.lower()
    if lowered in {"true", "yes", "on"}:
        return True
    if lowered in {"false", "no", "off"}:
        return False
    if lowered in {"null", "~"}:
        return None
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def _split(inner: str) -> list[str]:
    parts: list[str] = []
    depth, quote, current = 0, "", ""
    for char in inner:
        if quote:
            quote = "" if char == quote else quote
        elif char in {'"', "'"}:
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


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
        init = directory / "__init__.py"
        try:
            source = init.read_text(errors="replace")[:8192] if init.exists() else ""
        except OSError:
            source = ""
        if "register_memory_provider" in source or "MemoryProvider" in source:
            kind = "exclusive"
        elif "register_provider" in source and "ProviderProfile" in source:
            kind = "model-provider"
    return kind, warning


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
