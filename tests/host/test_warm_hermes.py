"""A worker forked from a warm process (``kit_devtools.testing._warm_hermes``) is what a
fresh hermes process would be: the same answers on every release, nothing left from the
host before, the host's environment, and a cold start when the warm process is gone."""

from __future__ import annotations

import json
import os
import site
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import RealHost
from kit_devtools.testing import _warm_hermes as warm_hermes

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [ROOT / "examples" / name for name in ("unit-convert", "team-notes", "media-postcard")]


def answers(host: RealHost) -> dict[str, Any]:
    """What hermes made of the examples, with the home written as HOME (it differs)."""
    loaded = host.load_all(EXAMPLES)
    seen = {
        "plugins": {str(path): plugin for path, plugin in loaded.items()},
        "registered": host.registered(),
        "definitions": host.definitions(),
        "call": host.call_tool(
            "units_convert_length",
            {"value": 3, "from_unit": "mi", "to_unit": "km"},
            task_id="t",
            session_id="s",
        ),
        "hooks": host.invoke_hook("on_session_start", session_id="s"),
    }
    return json.loads(json.dumps(seen, default=repr).replace(str(host.hermes_home), "HOME"))


def test_a_forked_worker_answers_as_a_fresh_process_does() -> None:
    with RealHost(warm=False) as cold:
        expected = answers(cold)
    with RealHost() as warm:
        assert warm._warm is not None
        found = answers(warm)
        assert isinstance(warm._process, warm_hermes.Forked)
    assert found == expected
    assert len(found["plugins"]) == len(EXAMPLES)
    assert "4.828" in found["call"]  # 3 mi in km: the tool ran


def test_the_warm_process_runs_one_thread_and_holds_no_file_of_the_home() -> None:
    """``fork`` copies only the calling thread, and a file it held open would be shared by
    every worker (and point at a deleted file once the home is put back)."""
    with RealHost() as host:
        host.load(EXAMPLES[0])
        warm = host._warm
        assert warm is not None
        pid = warm.process.pid
        assert len(os.listdir(f"/proc/{pid}/task")) == 1
        held = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        assert not [path for path in held if path.startswith(str(warm.home))], held


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


LATE_TOOL = """
import hpk_late_module
schema = {
    "name": "late_value",
    "description": "The late module's value.",
    "parameters": {"type": "object", "properties": {}},
}
ctx.register_tool(
    name="late_value",
    toolset="late",
    schema=schema,
    handler=lambda args, **kw: hpk_late_module.VALUE,
)
"""


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
        host.load(EXAMPLES[0])
        warm = host._warm
        assert warm is not None
        warm.process.kill()
        warm.process.wait()
        assert host.load(plugin).enabled
        assert not isinstance(host._process, warm_hermes.Forked)
