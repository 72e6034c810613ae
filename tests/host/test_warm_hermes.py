"""A worker forked from a warm process (``kit_devtools.testing._warm_hermes``) is what a
fresh hermes process would be, on every release: the same answers, and a warm process that
holds nothing fork would share badly. What the kit itself does with warm processes (the
home put back, the environment, late installs, a dead warm process) is pinned in
tests/kit_devtools/test_warm_hermes.py."""

from __future__ import annotations

import json
import os
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
