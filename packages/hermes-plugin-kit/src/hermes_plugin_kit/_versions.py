"""The installed kit packages, and the check that they are one version from one revision.

Several plugins share one hermes environment and each brings the kit, so the packages
found at run time may come from different installs. They must be one version (the
dist-info directory name says which) and one revision: every kit package carries the
same version between releases, so only the source an installer recorded tells two
commits apart. That record is the dist-info's ``direct_url.json`` (PEP 610), written
for every install that did not come from a package index:

- a Git (or other VCS) install records the commit, ``vcs_info.commit_id``;
- a local directory install (``uv sync`` of the workspace, ``pip install -e``) records
  the member's directory: its revision is the folder holding the members, so packages
  from two checkouts, or from a checkout and a Git install, do not mix;
- an install from an index or a wheel file records no commit: such a package is held to
  the version alone (an unreadable record counts as no record, never as a failure).

The check runs at every import of the façade, so it first looks only where the expected
packages would be: for each ``sys.path`` entry in order, one ``stat`` of
``<name>-<VERSION>.dist-info`` (and of the import package, which would shadow a later
one), then the few small ``direct_url.json`` files. Only when something is missing,
shadowed or mismatched does it list every ``sys.path`` entry, as ``importlib.metadata``
would (the first ``<name>-<any version>.dist-info`` wins), to decide and to name each
package's version and revision in the error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from stat import S_ISDIR
from typing import Final, cast

__all__ = [
    "FIX",
    "KIT_DISTRIBUTIONS",
    "OPTIONAL_DISTRIBUTIONS",
    "SHORT_SHA",
    "VERSION",
    "Install",
    "check_core",
    "check_versions",
    "describe_revision",
    "find_installs",
    "fix_for",
    "install_problem",
    "read_source",
]

VERSION: Final = "0.1.0"
"""The kit's version; a test holds it to every package's pyproject.toml."""

KIT_DISTRIBUTIONS: Final = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit")
"""The runtime distributions: all of them are always installed with the façade."""

OPTIONAL_DISTRIBUTIONS: Final = ("kit-devtools",)
"""Released with the kit but installed only in an author's dev environment (the [dev] extra):
checked when present."""

SHORT_SHA: Final = 12
"""Characters of a commit id shown in the error (git's short form is a prefix of them)."""

FIX: Final = (
    'Install every kit package from one commit: `uv add "hermes-plugin-kit @'
    ' git+<repo-url>@<sha>#subdirectory=packages/hermes-plugin-kit"` (uv resolves the siblings'
    " from the same commit; in an environment without a uv project, `uv pip install"
    " --reinstall` that requirement), and keep every plugin of the profile on that commit;"
    " never let an installer take a kit package from a package index (pip does for every"
    " sibling it is not given: docs/install.md)."
)
"""The fix. ``--reinstall``, because a plain ``uv pip install`` keeps a sibling already
installed at the version, whatever its commit."""

_MAX_RECORD: Final = 1 << 16  # a direct_url.json is a few hundred bytes; never read more


class Install:
    """One installed kit distribution: its version and the revision it was installed from."""

    __slots__ = ("revision", "url", "version")

    def __init__(self, version: str, revision: str | None = None, url: str | None = None):
        self.version = version
        """The version in the dist-info directory name."""
        self.revision = revision
        """What identifies the source: ``"git <commit id>"``, ``"dir <folder URL>"``, or
        None when the installer recorded none (an index or a wheel file)."""
        self.url = url
        """The URL the installer recorded for a VCS or directory install."""

    def __repr__(self) -> str:
        return f"Install({self.version!r}, {self.revision!r}, {self.url!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Install):
            return NotImplemented
        return (self.version, self.revision, self.url) == (other.version, other.revision, other.url)


def read_source(dist_info: str) -> tuple[str, str] | None:
    """The revision and URL a dist-info's ``direct_url.json`` records, or None.

    None when there is no record, it cannot be read or parsed, or it names no revision
    (an archive, an unknown shape): the package is then held to its version alone.
    """
    try:
        with open(os.path.join(dist_info, "direct_url.json"), "rb") as record_file:
            raw = record_file.read(_MAX_RECORD)
    except OSError:
        return None
    import json  # loaded by kit_core and by hermes anyway; only needed when a record exists

    try:
        record: object = json.loads(raw)
    except (ValueError, RecursionError):  # ValueError covers bad UTF-8 and bad JSON
        return None
    if not isinstance(record, dict):
        return None
    fields = cast("dict[str, object]", record)
    url = fields.get("url")
    if not isinstance(url, str) or not url:
        return None
    vcs_info = fields.get("vcs_info")
    if isinstance(vcs_info, dict):
        vcs = cast("dict[str, object]", vcs_info)
        commit, kind = vcs.get("commit_id"), vcs.get("vcs")
        if isinstance(commit, str) and commit.strip():
            return f"{kind if isinstance(kind, str) and kind else 'vcs'} {commit.strip()}", url
        return None
    if isinstance(fields.get("dir_info"), dict):
        folder = url.rstrip("/").rpartition("/")[0]  # the folder holding the members
        return (f"dir {folder}", url) if folder.partition(":")[2].strip("/") else None
    return None


# (distribution, import package, its dist-info at VERSION, whether it must be installed)
_LOOKUPS: Final = tuple(
    (dist, dist.replace("-", "_"), f"{dist.replace('-', '_')}-{VERSION}.dist-info", required)
    for dists, required in ((KIT_DISTRIBUTIONS, True), (OPTIONAL_DISTRIBUTIONS, False))
    for dist in dists
)


def _expected_dist_infos(path: Sequence[str]) -> dict[str, str] | None:
    """Each installed kit distribution's ``<name>-<VERSION>.dist-info``, found by ``stat`` alone.

    One pass over the path. None when that cannot decide what a full listing would: a
    runtime distribution has no dist-info at VERSION, or an entry before its dist-info
    holds its import package (an install that shadows it, or one at another version).
    """
    found: dict[str, str] = {}
    pending = _LOOKUPS
    for entry in path:
        base = os.path.join(entry, "")
        unresolved: list[tuple[str, str, str, bool]] = []
        for lookup in pending:
            dist, package, dist_info, _ = lookup
            try:
                if S_ISDIR(os.stat(base + dist_info).st_mode):
                    found[dist] = base + dist_info
                    continue
            except OSError:
                pass
            try:
                os.stat(base + package)
            except OSError:
                unresolved.append(lookup)
            else:
                return None
        if not unresolved:
            return found
        pending = unresolved
    return None if any(required for *_, required in pending) else found


def find_installs(path: Sequence[str] | None = None) -> dict[str, Install]:
    """Every installed kit distribution, from a listing of each ``sys.path`` entry.

    As for ``importlib.metadata``, the first ``<name>-<version>.dist-info`` on the path
    wins (names compared case-insensitively). A distribution that is not installed is
    absent from the result.
    """
    entries = sys.path if path is None else path
    prefixes = {dist.replace("-", "_") + "-": dist for dist in KIT_DISTRIBUTIONS}
    prefixes |= {dist.replace("-", "_") + "-": dist for dist in OPTIONAL_DISTRIBUTIONS}
    found: dict[str, Install] = {}
    for entry in entries:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            folded = name.lower()
            if not folded.endswith(".dist-info"):
                continue
            for prefix, dist in prefixes.items():
                if dist not in found and folded.startswith(prefix):
                    version = name[len(prefix) : -len(".dist-info")]
                    source = read_source(os.path.join(entry, name))
                    found[dist] = Install(version, *(source or (None, None)))
        if len(found) == len(prefixes):
            break
    return {dist: found[dist] for dist in prefixes.values() if dist in found}


def describe_revision(install: Install) -> str:
    """A revision as a reader knows it: ``git 1a2b3c4d5e6f``, ``checkout /path``, or unknown."""
    if install.revision is None:
        return "revision unknown"
    kind, _, ident = install.revision.partition(" ")
    if kind != "dir":
        return f"{kind} {ident[:SHORT_SHA]}"
    from urllib.parse import unquote, urlsplit  # only when an error is being worded

    folder = unquote(urlsplit(ident).path) or ident
    if os.path.basename(folder) == "packages":  # a workspace: name its root
        folder = os.path.dirname(folder)
    return f"checkout {folder}"


def install_problem(installs: dict[str, Install]) -> str | None:
    """Why these installed kit packages cannot work together, or None when they can.

    All runtime distributions must be installed; all installed ones must carry one
    version; those whose revision is known must share it.
    """
    listing = ", ".join(
        f"{dist} {install.version} ({describe_revision(install)})"
        for dist, install in installs.items()
    )
    missing = [dist for dist in KIT_DISTRIBUTIONS if dist not in installs]
    if missing:
        found = f" (installed: {listing})" if installs else ""
        return f"kit packages missing: {', '.join(missing)}{found}"
    if len({install.version for install in installs.values()}) > 1:
        return f"the kit packages are at different versions: {listing}"
    known = {install.revision for install in installs.values()} - {None}
    if len(known) > 1:
        return f"the kit packages were installed from different revisions: {listing}"
    return None


def fix_for(installs: dict[str, Install]) -> str:
    """The fix, naming the repository when a Git install recorded its URL (without credentials)."""
    for dist in ("hermes-plugin-kit", *installs):
        install = installs.get(dist)
        if install is None or install.url is None or install.revision is None:
            continue
        if install.revision.startswith("git ") and "@" not in install.url:
            return FIX.replace("<repo-url>", install.url)
    return FIX


def check_core() -> None:
    """Refuse a ``kit_core`` that is not this kit's before it is imported (another
    project's package of that name, from a package index, say): this kit's holds
    ``_build.py``, the check of the builds it runs at its import (``kit_core._build``).

    Raises:
        ImportError: naming the folder and the fix.
    """
    from importlib.util import find_spec  # importlib.util: loaded by the import system

    spec = find_spec("kit_core")
    folder = os.path.dirname(spec.origin) if spec is not None and spec.origin else None
    if folder is not None and os.path.isfile(os.path.join(folder, "_build.py")):
        return
    where = f"the kit_core at {folder}" if folder else "no kit_core"
    msg = (
        f"hermes_plugin_kit cannot start: {where} is not hermes-plugin-kit's kit-core (it"
        f" has no _build.py: another project's package of that name, from a package index?)."
        f" {FIX}"
    )
    raise ImportError(msg)


def check_versions(path: Sequence[str] | None = None) -> None:
    """Refuse to run on a mix of kit versions or revisions (plugins share one environment).

    Args:
        path: where to look; ``sys.path`` by default.

    Raises:
        ImportError: naming each kit package's version and revision, and the fix.
    """
    entries = sys.path if path is None else path
    expected = _expected_dist_infos(entries)
    if expected is not None:
        revisions = {read_source(dist_info) for dist_info in expected.values()}
        if len({source[0] for source in revisions if source is not None}) <= 1:
            return
    installs = find_installs(entries)
    problem = install_problem(installs)
    if problem is not None:
        msg = f"hermes_plugin_kit cannot start: {problem}. {fix_for(installs)}"
        raise ImportError(msg)
