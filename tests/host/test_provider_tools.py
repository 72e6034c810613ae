"""A memory provider's ``@tool``s through hermes' own memory manager (marked ``host``, so
it runs on every registry release).

tests/host/plugins/kit_memory_tools is installed as an operator installs a provider
(``$HERMES_HOME/plugins/<name>``) and loaded in one process of its own by hermes' memory
discovery (``plugins.memory.load_memory_provider``, the path ``memory.provider: <name>``
takes). hermes' ``MemoryManager`` then does what the agent does with it:
``add_provider``, ``get_all_tool_schemas`` (sent to the model wrapped as
``{"type": "function", "function": schema}``: ``run_agent.py`` before 0.17.0,
``inject_memory_provider_tools`` from 0.17.0) and ``handle_tool_call``. The model must
get each tool as a registered kit tool is sent (``ToolSpec.definition()``), and each
call the kit's envelope.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.cli._real import SCRUBBED

pytestmark = pytest.mark.host

PROVIDER = Path(__file__).resolve().parent / "plugins" / "kit_memory_tools"

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("kit_notes_search", {"query": "milk"}),
    ("kit_notes_search", {"query": "milk", "limit": 5}),
    ("kit_notes_search", {}),
    ("kit_notes_search", {"query": "milk", "limit": "many"}),
    ("kit_notes_echo", {"text": "hello"}),
]

LOADER = """
import json, sys
from types import SimpleNamespace
from agent import memory_manager
from agent.memory_manager import MemoryManager
from plugins.memory import load_memory_provider
from kit_core import ToolSpec, declaration_of
calls = json.loads(sys.argv[1])
provider = load_memory_provider("kit_memory_tools")
manager = MemoryManager()
manager.add_provider(provider)
schemas = manager.get_all_tool_schemas()
inject = getattr(memory_manager, "inject_memory_provider_tools", None)
if inject is None:  # run_agent.py before 0.17.0 wraps each schema itself
    sent = [{"type": "function", "function": s} for s in schemas]
else:
    agent = SimpleNamespace(_memory_manager=manager, tools=[], enabled_toolsets=None)
    inject(agent)
    sent = agent.tools
kit = [declaration_of(t, ToolSpec).definition() for t in (
    type(provider).kit_notes_search, sys.modules[type(provider).__module__].kit_notes_echo)]
found = {
    "routed": sorted(manager.get_all_tool_names()),
    "sent": sent,
    "kit": kit,
    "answers": [manager.handle_tool_call(name, args) for name, args in calls],
    "unknown": provider.handle_tool_call("kit_notes_nope", {}),
}
print("HPK-PROVIDER-TOOLS " + json.dumps(found))
"""


@pytest.fixture(scope="module")
def hermes_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    home = tmp_path_factory.mktemp("provider-tools") / "home"
    shutil.copytree(PROVIDER, home / "plugins" / PROVIDER.name)
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env["HERMES_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-c", LOADER, json.dumps(CALLS)],
        capture_output=True, text=True, check=False, cwd=home, env=env, timeout=300,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("HPK-PROVIDER-TOOLS ")]
    assert lines, done.stderr
    return json.loads(lines[-1].removeprefix("HPK-PROVIDER-TOOLS "))


def test_the_model_gets_each_tool_as_a_registered_kit_tool(hermes_answers: dict[str, Any]) -> None:
    assert hermes_answers["routed"] == ["kit_notes_echo", "kit_notes_search"]
    assert hermes_answers["sent"] == hermes_answers["kit"]
    search = hermes_answers["sent"][0]["function"]
    assert search["parameters"]["required"] == ["query"]
    assert search["parameters"]["properties"]["limit"]["default"] == 1


def test_each_call_gets_the_kit_envelope(hermes_answers: dict[str, Any]) -> None:
    found, more, missing, wrong, echoed = map(json.loads, hermes_answers["answers"])
    assert found == {"success": True, "data": ["buy milk"]}  # the default limit, 1
    assert more == {"success": True, "data": ["buy milk", "milk the cow"]}
    assert (missing["success"], missing["error_code"]) == (False, "missing_argument")
    assert "query" in missing["error"]
    assert (wrong["success"], wrong["error_code"]) == (False, "invalid_argument")
    assert echoed == {"success": True, "data": {"echo": "hello"}}


def test_a_name_the_provider_does_not_have_gets_an_unknown_tool_envelope(
    hermes_answers: dict[str, Any],
) -> None:
    unknown = json.loads(hermes_answers["unknown"])
    assert (unknown["success"], unknown["error_code"]) == (False, "unknown_tool")
    assert unknown["error"] == (
        "unknown tool 'kit_notes_nope': this provider's tools are kit_notes_search, kit_notes_echo"
    )
