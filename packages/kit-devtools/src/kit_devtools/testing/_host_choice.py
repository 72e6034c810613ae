"""The hosts ``--hermes`` selects for ``real_host`` and ``any_host``.

``--hermes`` takes a comma-separated list: ``installed`` (the hermes-agent installed in
the test environment; the default when there is one), a registry release such as
``0.17.0`` (installed with uv into a cached environment; the installed release itself is
used where it is the one asked for), and ``0.21`` (also ``upstream``): the in-memory host
playing upstream hermes-agent 0.21, modelled from its source (it cannot be installed
here).
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from kit_devtools.testing import _host_envs

__all__ = ["MEMORY", "HostChoice", "installed_hermes", "parse_hosts"]

MODELLED_NAMES: Final = frozenset({"0.21", "0.21.3", "upstream"})
Kind = Literal["memory", "installed", "release", "modelled"]


def installed_hermes() -> str | None:
    """The version of the hermes-agent installed here, if any."""
    try:
        return importlib.metadata.version("hermes-agent")
    except importlib.metadata.PackageNotFoundError:
        return None


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
        """``memory``, ``hermes-0.19.0``, ``memory-0.21-modelled``."""
        if self.kind == "memory":
            return "memory"
        if self.kind == "modelled":
            return "memory-0.21-modelled"
        return f"hermes-{self.version or 'installed'}"

    def python(self) -> Path:
        """The interpreter of the environment this real host runs in (a release's cached
        environment is made or checked first)."""
        if self.kind == "installed":
            if self.version is None:
                raise _host_envs.HostEnvironmentError(
                    "hermes-agent is not installed in this environment: install it, or"
                    " choose releases with --hermes (e.g. --hermes 0.19.0)"
                )
            return Path(sys.executable)
        if self.kind == "release" and self.version is not None:
            return _host_envs.environment(self.version)
        raise ValueError(f"{self.id} is not a real host")


MEMORY: Final = HostChoice("memory")


def parse_hosts(text: str) -> list[HostChoice]:
    """The hosts of one ``--hermes`` value, in order, each once."""
    installed = installed_hermes()
    found: list[HostChoice] = []
    for raw in text.split(","):
        word = raw.strip()
        if not word:
            continue
        if word == "installed" or (installed is not None and word == installed):
            choice = HostChoice("installed", installed)
        elif word in MODELLED_NAMES:
            choice = HostChoice("modelled", "0.21")
        elif re.match(r"^\d+\.\d+\.\d+", word) and _host_envs.RELEASE.match(word):
            choice = HostChoice("release", word)
        else:
            raise ValueError(
                f"--hermes: {word!r} is not `installed`, a hermes-agent release"
                " (e.g. 0.17.0) or `0.21` (upstream, modelled in memory)"
            )
        if choice not in found:
            found.append(choice)
    return found
