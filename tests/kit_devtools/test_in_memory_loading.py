"""Loading into the in-memory host: directories, modules, entry points, and what fails.

The host imports a plugin as hermes' plugin manager does, keeps import and ``register``
errors on the result, and needs nothing but the standard library and the kit.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from kit_devtools.testing import InMemoryHost, PluginRefused, load_plugin

ROOT = Path(__file__).resolve().parents[2]


def write_plugin(
    root: Path, name: str, init: str, manifest: str | None = None, **files: str
) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(init), encoding="utf-8")
    if manifest is None:
        manifest = f"name: {name}\nversion: 1.0\nkind: standalone\n"
    (directory / "plugin.yaml").write_text(textwrap.dedent(manifest), encoding="utf-8")
    for file_name, text in files.items():
        (directory / f"{file_name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
    return directory


# -- loading ------------------------------------------------------------------------------------


def test_a_directory_is_imported_afresh_as_hermes_plugins_slug(tmp_path: Path) -> None:
    directory = write_plugin(
        tmp_path,
        "fresh-one",
        """
        from .state import COUNTER

        def register(ctx):
            COUNTER.append(1)
            ctx.register_tool("fresh_x", "fresh", {"parameters": {}}, lambda a, **k: "")
        """,
        state="COUNTER = []\n",
    )
    first, second = InMemoryHost().load(directory), InMemoryHost().load(str(directory))
    assert first.module is not None
    assert second.module is not None
    assert first.module.__name__ == "hermes_plugins.fresh_one"
    assert sys.modules["hermes_plugins.fresh_one"] is second.module
    assert first.module.COUNTER == second.module.COUNTER == [1]  # a new copy each time
    assert (second.key, second.name, second.source, second.path) == (
        "fresh-one",
        "fresh-one",
        "directory",
        directory,
    )
    assert second.manifest == {"name": "fresh-one", "version": 1.0, "kind": "standalone"}


def test_a_test_importing_the_package_by_its_own_name_gets_another_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What docs/testing.md says of the loaded module: the plugin's package imported by
    its own name is another module object; ``plugin.module``, its submodules under
    ``hermes_plugins.<name>`` and ``load_plugin`` reach the loaded copy."""
    directory = write_plugin(
        tmp_path,
        "copy_demo",
        """
        from . import state

        def register(ctx):
            state.SEEN.append("registered")
        """,
        state="SEEN = []\n",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "copy_demo", raising=False)
    monkeypatch.delitem(sys.modules, "copy_demo.state", raising=False)
    plugin = InMemoryHost(strict=True).load(directory)
    import copy_demo.state as own  # pyright: ignore[reportMissingImports]

    assert plugin.module is not None
    loaded = importlib.import_module(plugin.module.__name__ + ".state")
    assert loaded is sys.modules["hermes_plugins.copy_demo.state"] is plugin.module.state
    assert own is not loaded
    assert (own.SEEN, loaded.SEEN) == ([], ["registered"])
    assert load_plugin(directory) is plugin.module


def test_import_errors_and_register_errors_are_kept_on_the_result(tmp_path: Path) -> None:
    broken = write_plugin(tmp_path, "broken", "raise RuntimeError('import went wrong')\n")
    loaded = InMemoryHost().load(broken)
    assert (loaded.enabled, loaded.error, loaded.module) == (False, "import went wrong", None)
    assert "hermes_plugins.broken" not in sys.modules
    no_init = tmp_path / "no_init"
    no_init.mkdir()
    (no_init / "plugin.yaml").write_text("name: no_init\n", encoding="utf-8")
    assert InMemoryHost().load(no_init).error == f"No __init__.py in {no_init}"
    bare = InMemoryHost().load(ModuleType("bare"))
    assert (bare.enabled, bare.error) == (False, "no register() function")


def test_manifest_problems_become_events_or_refusals(tmp_path: Path) -> None:
    host = InMemoryHost()
    unmanifested = tmp_path / "unmanifested"
    unmanifested.mkdir()
    (unmanifested / "__init__.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    refused = host.load(unmanifested)
    assert (refused.enabled, refused.error) == (False, f"{unmanifested} has no plugin.yaml")
    assert isinstance(refused.exception, PluginRefused)
    assert "hermes discovers only plugin directories that hold one" in refused.exception.reason
    assert "kind: standalone" in refused.exception.fix
    assert "unmanifested" not in str(sorted(sys.modules))  # hermes never imports it
    odd = write_plugin(tmp_path, "odd", "def register(ctx): pass\n", "name: odd\nkind: weird\n")
    assert host.load(odd).enabled
    assert host.events[-1].message.startswith("Plugin odd: unknown kind 'weird'")
    memory = write_plugin(
        tmp_path, "mem", "class MemoryProvider: pass\ndef register(ctx): 1 / 0\n", "name: mem\n"
    )
    refused = host.load(memory)
    assert (refused.enabled, refused.module) == (False, None)
    assert refused.error == "exclusive plugin — activate via <category>.provider config"
    garbled = write_plugin(tmp_path, "garbled", "def register(ctx): pass\n", "name: [a\n  - b\n")
    assert str(InMemoryHost().load(garbled).error).startswith("Failed to parse ")


def test_a_module_name_and_an_entry_point_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "site" / "hpk_ep_plugin"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "def register(ctx):\n    ctx.register_command('ep-hello', lambda raw: 'hi ' + raw)\n",
        encoding="utf-8",
    )
    dist = tmp_path / "site" / "hpk_ep_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: hpk-ep-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[hermes_agent.plugins]\nep-good = hpk_ep_plugin\nep-function = hpk_ep_plugin:register\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    by_name = InMemoryHost()
    assert by_name.load("hpk_ep_plugin").enabled
    assert by_name.run_command("ep-hello", "you") == "hi you"
    host = InMemoryHost()
    good = host.load("ep-good")
    assert (good.enabled, good.source, good.key, good.commands) == (
        True,
        "entrypoint",
        "ep-good",
        ("ep-hello",),
    )
    function = InMemoryHost().load("ep-function")
    assert (function.enabled, function.error) == (False, "no register() function")


@pytest.mark.parametrize("target", ["./nowhere", "no_such_module_hpk", "a/b", ""])
def test_a_target_that_names_nothing_raises_lookup_error(target: str) -> None:
    with pytest.raises(LookupError):
        InMemoryHost().load(target)


# -- the package ----------------------------------------------------------------------------

STDLIB_ONLY = """
import sys
before = set(sys.modules)
from kit_devtools.testing import InMemoryHost
host = InMemoryHost()
host.load(sys.argv[1])
host.call_tool("units_convert_length", {"value": 1, "from_unit": "m", "to_unit": "cm"})
kit = {"hermes_plugin_kit", "kit_core", "kit_lifecycle", "kit_media", "kit_devtools"}
kit |= {"hermes_plugins"}
kit |= {"yaml", "_yaml", "cython_runtime"}  # PyYAML (and its C loader) reads plugin.yaml
new = {name.split(".")[0] for name in set(sys.modules) - before}
new = {name for name in new if not name.startswith("_cython_")}
print(sorted(new - set(sys.stdlib_module_names) - kit - {"_distutils_hack"}))
"""


def test_the_host_needs_only_the_standard_library_the_kit_and_pyyaml() -> None:
    example = ROOT / "examples" / "unit-convert"
    run = subprocess.run(
        [sys.executable, "-c", STDLIB_ONLY, str(example)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


def test_public_names_are_sorted_and_importable() -> None:
    import kit_devtools.testing as testing

    names = testing.__all__
    assert names == sorted(names, key=lambda n: (not n.isupper(), n[:1].islower(), n))
    for name in names:
        assert getattr(testing, name) is not None
