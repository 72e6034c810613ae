"""The oldest hermes release that offers everything a plugin uses, from the host model.

Each use (a ``PluginContext`` member read or called, with the keywords of the call; a
hook or middleware kind registered; a surface; a manifest field) is asked of
:func:`kit_core.hermes.first_release`: the oldest release of the host model that
has it. The floor is the newest of those. A manifest field an
older release does not know is dropped there without harm (0.19.0's ``_parse_manifest``
reads only its own keys), so manifest fields are listed with the release that first
reads them but do not raise the floor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kit_core._host_signatures import accepts
from kit_core.hermes import HostRelease, first_release, registry_releases, version_key
from kit_devtools.cli._compat_uses import ContextCall

__all__ = ["Use", "accepts", "floor_of", "uses_of"]

SURFACES: Final = (
    ("tools", "register_tool"),
    ("commands", "register_command"),
    ("cli_commands", "register_cli_command"),
    ("skills", "register_skill"),
)
"""A surface of ``LoadedPlugin`` and the ``PluginContext`` member that registers it."""


@dataclass(frozen=True, slots=True)
class Use:
    """One thing the plugin uses, and the oldest known release that offers it."""

    kind: str
    """``context``, ``hook``, ``middleware``, ``surface`` or ``manifest``."""
    name: str
    detail: str
    since: HostRelease | None
    raises_floor: bool = True

    def as_dict(self) -> dict[str, Any]:
        since = self.since
        return {
            "kind": self.kind,
            "name": self.name,
            "detail": self.detail,
            "since": since.version if since else None,
            "since_label": since.label if since else None,
            "raises_floor": self.raises_floor,
        }


def _context_use(call: ContextCall) -> Use:
    def offers(release: HostRelease) -> bool:
        signature = release.context.get(call.member)
        if signature is None:
            return False
        if not call.called:
            return True
        return signature == "property" or accepts(signature, call.positional, call.keywords)

    if call.called:
        detail = f"ctx.{call.member}(" + ", ".join(
            [*(["..."] * min(call.positional, 1)), *(f"{k}=" for k in call.keywords)]
        ) + ")"  # fmt: skip
    else:
        detail = f"ctx.{call.member}"
    return Use("context", call.member, detail, first_release(offers))


def uses_of(
    calls: Sequence[ContextCall],
    hooks: Iterable[str],
    middleware: Iterable[str],
    surfaces: Mapping[str, Sequence[str]],
    manifest_fields: Iterable[str],
) -> list[Use]:
    """Every distinct use, each with the release that first offers it."""
    found: dict[tuple[str, str], Use] = {}
    for call in calls:
        use = _context_use(call)
        found.setdefault(("context", use.detail), use)
    for hook in sorted(set(hooks)):
        since = first_release(lambda r, h=hook: h in r.hooks)
        found[("hook", hook)] = Use("hook", hook, f"hook {hook}", since)
    for kind in sorted(set(middleware)):
        since = first_release(lambda r, k=kind: k in r.middleware)
        found[("middleware", kind)] = Use("middleware", kind, f"middleware {kind}", since)
    for surface, member in SURFACES:
        names = surfaces.get(surface, ())
        if names:
            since = first_release(lambda r, m=member: r.offers(m))
            detail = f"{surface}: {', '.join(sorted(names))}"
            found[("surface", surface)] = Use("surface", surface, detail, since)
    for name in manifest_fields:
        since = first_release(lambda r, n=name: n in r.manifest)
        found[("manifest", name)] = Use("manifest", name, f"plugin.yaml {name}", since, False)
    return list(found.values())


def floor_of(uses: Sequence[Use]) -> tuple[HostRelease, list[Use]] | None:
    """The oldest release offering every use that raises the floor, and the uses that set
    it; None when some use no known release offers."""
    binding = [u for u in uses if u.raises_floor]
    if any(u.since is None for u in binding):
        return None
    oldest = registry_releases()[0]
    floor = max((u.since for u in binding if u.since), key=lambda r: version_key(r.version),
                default=oldest)  # fmt: skip
    return floor, [u for u in binding if u.since is floor and floor is not oldest]
