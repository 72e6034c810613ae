"""How kit-lifecycle's messages name the releases of the host model that have something.

Decorators check names against every release the model knows (:mod:`kit_core.hermes`),
so a plugin imports the same way alone and inside any host; what the running host
offers, ``register_plugin`` asks :mod:`kit_core._running_host`.
"""

from __future__ import annotations

from collections.abc import Callable

from kit_core.hermes import HostRelease, known_releases

__all__ = ["builtin_on", "span"]


def builtin_on(has: Callable[[HostRelease], bool]) -> list[HostRelease]:
    """The known releases for which ``has`` holds, oldest first."""
    return [release for release in known_releases() if has(release)]


def span(releases: list[HostRelease]) -> str:
    """How a message names a run of releases: ``hermes-agent 0.17.0 to 0.18.2``, ``hermes
    0.18.1 to 0.22.2`` when the run reaches the packagings of upstream (hermes-agent ends
    at 0.19.0), or ``every hermes-agent release`` when it is all of them."""
    if len(releases) == len(known_releases()):
        return "every hermes-agent release"
    first, last = releases[0], releases[-1]
    if first is last:
        return first.label
    if first.distribution == last.distribution == "hermes-agent":
        return f"{first.label} to {last.version}"
    return f"hermes {first.version} to {last.version}"
