"""Where hermes-agent is installed, a plugin imports hermes' own modules while it loads,
as it does in hermes: what the in-memory host's stand-ins do not model comes from hermes.

Platform adapters published on PyPI (hermes-band 0.1.0, hermes-vk-community 1.1.4) import
``gateway.config``, ``gateway.platforms.base`` and ``hermes_cli.config.get_env_value``
while hermes registers them; hermes loads both, and the in-memory host refused both until
the stand-ins let hermes' own modules through (scripts/corpus.py).
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import pytest

from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._real_hermes import _hermes_packages, hermes_installed

# not imported here: tests/host requires hermes imported first under its own HERMES_HOME
pytestmark = pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed")

HERMES_PACKAGES = {"gateway", "hermes_cli", "tools"}

ADAPTER = """
from gateway.config import Platform, PlatformConfig
from gateway.platforms.base import BasePlatformAdapter
from hermes_cli.config import get_env_value, load_config


class EchoAdapter(BasePlatformAdapter):
    pass


def register(ctx):
    from gateway import platforms

    assert platforms.BasePlatformAdapter is BasePlatformAdapter
    assert Platform("telegram").value == "telegram"
    assert isinstance(load_config(), dict)  # the host's stand-in still answers
    ctx.register_tool(
        name="echo_status",
        toolset="echo",
        schema={
            "name": "echo_status",
            "description": "Whether the echo platform has a token.",
            "parameters": {"type": "object", "properties": {}},
        },
        handler=lambda args, **kw: str(get_env_value("ECHO_TOKEN") is not None),
    )
"""


@pytest.fixture
def without_hermes_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hide the hermes modules earlier tests imported: the stand-in packages are made."""
    for name in [n for n in sys.modules if n.split(".")[0] in HERMES_PACKAGES]:
        monkeypatch.delitem(sys.modules, name)


def adapter_plugin(root: Path) -> Path:
    directory = root / "echo_adapter"
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(ADAPTER), encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: echo-adapter\nkind: standalone\n")
    return directory


@pytest.mark.usefixtures("without_hermes_imported")
def test_a_plugin_importing_hermes_internals_loads_as_in_hermes(tmp_path: Path) -> None:
    before = set(sys.modules)
    host = InMemoryHost(strict=True)
    plugin = host.load(adapter_plugin(tmp_path))
    assert plugin.enabled
    assert plugin.tools == ("echo_status",)
    assert host.call_tool("echo_status", {}) == "False"
    left = {n for n in set(sys.modules) - before if n.split(".")[0] in _hermes_packages()}
    assert left == set()  # hermes' modules (all it imported) leave with the stand-ins


@pytest.mark.usefixtures("hermes_imported_for_the_test")
def test_a_plugin_importing_hermes_internals_loads_beside_hermes(tmp_path: Path) -> None:
    importlib.import_module("gateway.platforms.base")  # hermes already imported
    importlib.import_module("hermes_cli.config")
    plugin = InMemoryHost(strict=True).load(adapter_plugin(tmp_path))
    assert plugin.enabled


@pytest.mark.usefixtures("without_hermes_imported")
def test_hermes_own_tool_modules_import_under_the_stand_ins() -> None:
    host = InMemoryHost()
    with host.activate():
        web_tools = importlib.import_module("tools.web_tools")  # registers into hermes' registry
        assert callable(web_tools.web_search_tool)
        assert importlib.import_module("tools.registry").registry.get_all_tool_names() == []
    assert "tools.web_tools" not in sys.modules


@pytest.mark.usefixtures("without_hermes_imported")
def test_a_name_hermes_lacks_is_still_an_import_error() -> None:
    host = InMemoryHost()
    with host.activate():
        with pytest.raises(ImportError, match="no_such_helper"):
            exec("from hermes_cli.config import no_such_helper", {})
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("gateway.no_such_module")


@pytest.mark.usefixtures("without_hermes_imported")
def test_the_kit_asking_what_the_host_can_do_gets_the_in_memory_answer() -> None:
    probe = (
        "import gateway.platforms.base as base\nfound = getattr(base, 'BasePlatformAdapter', None)"
    )
    host = InMemoryHost()
    with host.activate():
        as_kit: dict[str, object] = {"__name__": "kit_media._media_tag"}
        exec(probe, as_kit)
        as_plugin: dict[str, object] = {"__name__": "hermes_plugins.echo"}
        exec(probe, as_plugin)
        registry = importlib.import_module("tools.registry").registry
        as_kit_registry: dict[str, object] = {
            "__name__": "kit_lifecycle.registration",
            "r": registry,
        }
        exec("found = getattr(r, 'deregister', None)", as_kit_registry)
    assert as_kit["found"] is None  # the stand-in models no adapter class
    assert isinstance(as_plugin["found"], type)  # a plugin gets hermes' own
    assert as_kit_registry["found"] is None


DETECTOR = """
import importlib.util


def register(ctx):
    import hermes_cli
    import hermes_cli.config

    # how plugins look for hermes before they turn themselves on
    assert importlib.util.find_spec("hermes_cli") is not None
    assert importlib.util.find_spec("gateway.platforms.base") is not None
    assert hermes_cli.__file__.endswith("hermes_cli/__init__.py"), hermes_cli.__file__
    assert hermes_cli.config.__file__.endswith("hermes_cli/config.py")
    ctx.register_hook("on_session_start", lambda **kw: None)
"""


@pytest.mark.usefixtures("without_hermes_imported")
def test_a_plugin_looking_for_hermes_finds_it_as_in_hermes(tmp_path: Path) -> None:
    """A stand-in carries the spec and file of hermes' own module: a plugin that checks
    for hermes with ``find_spec`` or ``__file__`` takes the path it takes in hermes
    (one registry plugin stayed inactive under the in-memory host before)."""
    directory = tmp_path / "detector"
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(DETECTOR), encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: detector\nkind: standalone\n")
    plugin = InMemoryHost(strict=True).load(directory)
    assert plugin.hooks == ("on_session_start",)


@pytest.mark.usefixtures("hermes_imported_for_the_test")
def test_ctx_manager_has_the_attributes_of_hermes_plugin_manager_and_no_more(
    tmp_path: Path,
) -> None:
    """hermes-kiokuko 0.1.25 reads ``ctx._manager.home_path`` (an upstream attribute):
    hermes-agent 0.19.0 disables it with AttributeError, and so must the in-memory host;
    a plugin reading one the manager has gets its value, as there."""
    from hermes_cli.plugins import PluginManager

    from kit_devtools.testing.context import PluginManager as StandIn

    directory = tmp_path / "manager_reader"
    directory.mkdir()
    source = "def register(ctx):\n    assert ctx._manager._discovered\n    ctx._manager.home_path\n"
    (directory / "__init__.py").write_text(source, encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: manager-reader\nkind: standalone\n")
    plugin = InMemoryHost().load(directory)
    assert plugin.error == "'PluginManager' object has no attribute 'home_path'"
    assert set(vars(StandIn())) == set(vars(PluginManager()))


@pytest.mark.usefixtures("without_hermes_imported")
def standalone(root: Path, name: str, source: str) -> Path:
    """A ``kind: standalone`` plugin directory ``name`` whose ``__init__.py`` is ``source``."""
    directory = root / name.replace("-", "_")
    directory.mkdir()
    (directory / "__init__.py").write_text(source, encoding="utf-8")
    (directory / "plugin.yaml").write_text(f"name: {name}\nkind: standalone\n")
    return directory


def test_a_plugin_reading_the_config_gets_hermes_defaults_under_the_hosts(
    tmp_path: Path,
) -> None:
    """hermes' ``load_config`` is ``DEFAULT_CONFIG`` merged with config.yaml: incontext
    0.0.5 refuses to load because ``model`` is hermes' default ``""``, not a mapping, and
    under the in-memory host it must refuse for that reason, not another."""
    source = (
        "from hermes_cli.config import load_config\n\n"
        "def register(ctx):\n"
        "    config = load_config()\n"
        "    assert config['model'] == '', config['model']\n"
        "    assert config['plugins']['entries']['x'] == {'on': True}\n"
        "    assert 'toolsets' in config\n"
    )
    directory = standalone(tmp_path, "model-reader", source)
    host = InMemoryHost(strict=True, config={"plugins": {"entries": {"x": {"on": True}}}})
    assert host.load(directory).enabled


@pytest.mark.parametrize(
    ("version", "has_it"), [("0.13.0", False), ("0.14.0", False), ("0.15.0", True)]
)
def test_load_config_readonly_is_there_on_the_releases_that_have_it(
    tmp_path: Path, version: str, has_it: bool
) -> None:
    """``hermes_cli.config.load_config_readonly`` arrived in 0.15.0 (the host model, read
    from each release): a plugin calling it straight loads under the host playing 0.15.0
    and fails, as on the real release, under 0.13.0 and 0.14.0; the kit's own
    ``load_plugin_config`` reads the settings on all three."""
    source = (
        "from hermes_plugin_kit import load_plugin_config\n\n"
        "def register(ctx):\n"
        "    from hermes_cli.config import load_config_readonly\n"
        "    assert load_plugin_config(ctx, 'readonly-reader') == {'on': True}\n"
        "    assert load_config_readonly()['plugins']['entries']\n"
    )
    directory = standalone(tmp_path, "readonly-reader", source)
    entries = {"plugins": {"entries": {"readonly-reader": {"settings": {"on": True}}}}}
    plugin = InMemoryHost(hermes=version, config=entries).load(directory)
    assert plugin.enabled is has_it, plugin.error
    if not has_it:
        assert "load_config_readonly" in str(plugin.error)
