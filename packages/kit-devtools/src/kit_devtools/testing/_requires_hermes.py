"""``requires_hermes``: the manifest's version gate, as upstream hermes reads it.

Modelled from upstream hermes-agent's source of 0.21.3 (it needs Python 3.14, so it is
read, not run):

* the loader, ``hermes_cli/plugins_manifest.py``:
  ``hermes_cli.plugins_manifest._VERSION_COMPARATOR_RE``,
  ``hermes_cli.plugins_manifest._version_tuple``,
  ``hermes_cli.plugins_manifest.version_satisfies`` (*permissive*: a clause whose version
  does not parse gates nothing), ``hermes_cli.plugins_manifest.requires_hermes_error`` (the
  reason "requires hermes X, running Y"), and ``parse_manifest_file``, which reads the
  field as ``str(data.get("requires_hermes") or "").strip()``;
* ``hermes plugins validate``, ``hermes_cli/plugin_validate.py``:
  ``hermes_cli.plugin_validate._requires_hermes_spec_valid`` (*strict*: such a clause fails
  admission) and ``hermes_cli.plugin_validate._check_requires_hermes``.

The registry releases (0.13.0-0.19.0) have no such field: their ``PluginManifest`` does
not read it, so they load the plugin whatever it says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from kit_core.hermes import HostRelease
from kit_devtools.testing._failure import PluginRefused

__all__ = ["enforces", "gate", "spec_of", "spec_parses", "version_satisfies", "version_tuple"]

COMPARATOR: Final = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*(.+?)\s*$")
"""``_VERSION_COMPARATOR_RE``."""


def version_tuple(version: str) -> tuple[int, ...] | None:
    """``_version_tuple``: ``v1.2.3-rc1`` -> ``(1, 2, 3)``, missing segments are 0, segments
    past the third are ignored; None when one of the first three is not an integer."""
    parts = re.split(r"[-+]", str(version).strip().lstrip("v"), maxsplit=1)[0].split(".")
    parts += ["0"] * (3 - len(parts))
    try:
        return tuple(int(part) for part in parts[:3])
    except ValueError:
        return None


def _clauses(spec: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for raw in spec.split(","):
        clause = raw.strip()
        if not clause:
            continue
        match = COMPARATOR.match(clause)
        found.append((match.group(1), match.group(2)) if match else (">=", clause))
    return found


def version_satisfies(spec: str, current: str) -> bool:
    """``version_satisfies``: comma-separated clauses are ANDed, a bare version means
    ``>=``, and what does not parse is permissive."""
    now = version_tuple(current)
    if now is None:
        return True
    for op, target in _clauses(spec):
        wanted = version_tuple(target)
        if wanted is None:
            continue
        holds = {
            ">=": now >= wanted, "<=": now <= wanted, "==": now == wanted,
            "!=": now != wanted, ">": now > wanted, "<": now < wanted,
        }[op]  # fmt: skip
        if not holds:
            return False
    return True


def spec_parses(spec: str) -> bool:
    """``_requires_hermes_spec_valid``: every clause's version parses. Note a lone operator
    (``">="``) is not a comparator match, so its "version" is the operator itself, which
    does not parse."""
    return all(version_tuple(target) is not None for _, target in _clauses(spec))


def spec_of(manifest: Mapping[str, Any]) -> str:
    """The spec as ``parse_manifest_file`` reads it: ``str(value or "").strip()``."""
    return str(manifest.get("requires_hermes") or "").strip()


def enforces(release: HostRelease) -> bool:
    """Whether ``release`` reads ``requires_hermes`` (its ``PluginManifest`` has the field)."""
    return "requires_hermes" in release.manifest


def gate(manifest: Mapping[str, Any], release: HostRelease) -> PluginRefused | None:
    """The refusal of a release that enforces the gate and is outside the spec (upstream
    records the reason as the plugin's error and never imports it), else None."""
    spec = spec_of(manifest)
    if not spec or not enforces(release) or version_satisfies(spec, release.version):
        return None
    return PluginRefused(
        f"requires hermes {spec}, running {release.version}",
        f"run this plugin on a hermes its requires_hermes admits ({spec}), or widen the spec",
    )
