"""What :class:`~kit_devtools.testing.RealHost` does with its warm processes
(``kit_devtools.testing._warm_hermes``), on the installed hermes: the next host gets the home
as hermes left it at import, each worker the host's environment and what was installed
since, and a host whose warm process died starts hermes cold. That a forked worker answers
as a fresh one does is pinned on every release in tests/host/test_warm_hermes.py."""

from __future__ import annotations

import site
import textwrap
from pathlib import Path

import pytest

from kit_devtools.testing import RealHost
from kit_devtools.testing import _warm_hermes as warm_hermes

ROOT = Path(__file__).resolve().parents[2]
UNIT_CONVERT = ROOT / "examples" / "unit-convert"

# processes, pipes and forks: RealHost's parent and worker are standard-library process
# plumbing, the same on every Python (3.11 here; the worker on 3.13 in the 0.22.2-py3.13 leg)
pytestmark = pytest.mark.python_independent


def _plugin(directory: Path, register: str) -> Path:
    directory.mkdir()
    (directory / "plugin.yaml").write_text(
        f"name: {directory.name}\nversion: 0.1.0\ndescription: d\nkind: standalone\n",
        encoding="utf-8",
    )
    body = textwrap.indent(textwrap.dedent(register).strip(), "    ")
    (directory / "__init__.py").write_text(
        f"import os\nfrom pathlib import Path\n\ndef register(ctx):\n{body}\n", encoding="utf-8"
    )
    return directory


def test_the_next_host_gets_the_home_as_hermes_left_it_at_import(tmp_path: Path) -> None:
    trace = _plugin(
        tmp_path / "trace", "Path(os.environ['HERMES_HOME'], 'left-behind').write_text('x')"
    )
    quiet = _plugin(tmp_path / "quiet", "pass")
    with RealHost() as first:
        first.load(trace)
        home = first.hermes_home
        assert (home / "left-behind").exists()
    with RealHost() as second:
        assert second.hermes_home == home  # the same warm process, reused
        second.load(quiet)
        assert not (home / "left-behind").exists()
        assert not (home / "plugins" / "trace").exists()
        assert second.plugins["quiet"].enabled


def test_each_worker_gets_the_hosts_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = tmp_path / "seen.json"
    plugin = _plugin(
        tmp_path / "env_probe",
        f"Path({str(seen)!r}).write_text(os.environ.get('HPK_WARM_PROBE', '-'))",
    )
    with RealHost() as host:
        monkeypatch.setenv("HPK_WARM_PROBE", "set after the host")
        host.load(plugin)
        assert seen.read_text() == "set after the host"


def value_tool(module: str, name: str) -> str:
    """A ``register`` body: the tool ``name`` answers ``module.VALUE`` (the module imported
    at registration, where hermes' worker looks it up)."""
    return f"""
import {module}
schema = {{
    "name": "{name}",
    "description": "The value of {module}.",
    "parameters": {{"type": "object", "properties": {{}}}},
}}
ctx.register_tool(
    name="{name}",
    toolset="{name}",
    schema=schema,
    handler=lambda args, **kw: {module}.VALUE,
)
"""


LATE_TOOL = value_tool("hpk_late_module", "late_value")


def test_a_module_installed_after_the_warm_process_started_is_importable(
    tmp_path: Path,
) -> None:
    """An editable install writes a ``.pth`` file; a fresh process reads it at start."""
    (tmp_path / "late").mkdir()
    (tmp_path / "late" / "hpk_late_module.py").write_text("VALUE = 'late'\n", encoding="utf-8")
    plugin = _plugin(tmp_path / "late_user", LATE_TOOL)
    with RealHost() as host:
        host.load(_plugin(tmp_path / "first", "pass"))  # the warm process has started
        pth = Path(site.getsitepackages()[0]) / "zz_hpk_warm_test.pth"
        pth.write_text(str(tmp_path / "late") + "\n", encoding="utf-8")
        try:
            assert host.load(plugin).enabled, host.stderr_tail()
            assert host.call_tool("late_value", {}, task_id="t") == "late"
        finally:
            pth.unlink()


def test_a_host_whose_warm_process_died_starts_hermes_cold(tmp_path: Path) -> None:
    plugin = _plugin(tmp_path / "after_death", "pass")
    with RealHost() as host:
        host.load(UNIT_CONVERT)
        warm = host._warm
        assert warm is not None
        warm.process.kill()
        warm.process.wait()
        assert host.load(plugin).enabled
        assert not isinstance(host._process, warm_hermes.Forked)


PATH_TOOL = value_tool("hpk_path_module", "path_value")


def test_a_host_with_another_pythonpath_is_served_by_the_same_warm_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh process puts PYTHONPATH's entries first on sys.path; a worker forked for a
    host whose PYTHONPATH differs does the same, so the warm process serves it."""
    (tmp_path / "extra").mkdir()
    (tmp_path / "extra" / "hpk_path_module.py").write_text("VALUE = 'on the path'\n", "utf-8")
    with RealHost() as host:
        host.load(_plugin(tmp_path / "first", "pass"))
        home = host.hermes_home
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "extra"))
    with RealHost() as host:
        assert host.hermes_home == home  # the same warm process
        assert host.load(_plugin(tmp_path / "path_user", PATH_TOOL)).enabled, host.stderr_tail()
        assert isinstance(host._process, warm_hermes.Forked)
        assert host.call_tool("path_value", {}, task_id="t") == "on the path"


def test_an_entry_holding_a_module_the_warm_process_imported_gets_its_own_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PYTHONPATH entry with a module of a name the warm process has imported would be
    imported from there by a fresh process, not by a fork: such a host's worker starts
    afresh."""
    (tmp_path / "shadow").mkdir()
    (tmp_path / "shadow" / "colorsys.py").write_text("SHADOW = True\n", "utf-8")
    with RealHost() as host:
        host.load(_plugin(tmp_path / "first", "pass"))
        warm = host._warm
        assert warm is not None
        warm.imported = warm.imported | {"colorsys"}  # as if hermes had imported it
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "shadow"))
    with RealHost() as host:
        code = "import colorsys\nassert colorsys.SHADOW"
        assert host.load(_plugin(tmp_path / "shadow_user", code)).enabled, host.stderr_tail()
        assert not isinstance(host._process, warm_hermes.Forked)  # a fresh start


def test_which_pythonpath_changes_shadow_an_imported_module(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "json.py").write_text("", "utf-8")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "hpk_only_here.py").write_text("", "utf-8")
    (tmp_path / "b" / "pkg").mkdir()
    imported = frozenset({"json", "sys", "pkg"})
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    assert warm_hermes.shadows(None, a, imported)  # json would come from a
    assert warm_hermes.shadows(a, None, imported)  # and no longer from a
    assert warm_hermes.shadows(None, b, imported)  # a package folder counts too
    assert not warm_hermes.shadows(None, b, frozenset({"json", "sys"}))
    assert not warm_hermes.shadows(a, a, imported)
    assert not warm_hermes.shadows(None, str(tmp_path / "missing"), imported)
