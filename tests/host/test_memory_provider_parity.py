"""``InMemoryHost.load_memory_provider`` against hermes' own memory discovery (marked
``host``, so it runs on every registry release).

Each provider directory of tests/kit_devtools/_memory_providers.py is installed as an
operator installs one (``$HERMES_HOME/plugins/<name>``) and loaded by hermes' own
``plugins.memory.load_memory_provider(name)`` in a process of its own, the path
``memory.provider: <name>`` takes; its tools are what hermes' ``MemoryManager`` offers
after ``add_provider``. The in-memory host must find the same provider (or none), with
the same name and tools. hermes' general loader must skip the same directories as
exclusive, as ``check`` says it does.
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
from tests.kit_devtools._memory_providers import SOURCES, provider_dir

from kit_devtools.cli._real import real_verdict
from kit_devtools.testing import InMemoryHost

pytestmark = pytest.mark.host

LOADER = """
import json, sys
from agent import memory_manager
from agent.memory_manager import MemoryManager
from plugins.memory import load_memory_provider
found = {}
for name in sys.argv[1:]:
    provider = load_memory_provider(name)
    if provider is None:
        found[name] = None
        continue
    manager = MemoryManager()
    manager.add_provider(provider)
    tools = [s.get("name") for s in manager.get_all_tool_schemas()]
    found[name] = {"name": provider.name, "tools": tools}
found["__normalizes__"] = hasattr(memory_manager, "normalize_tool_schema")
print("HPK-MEMORY " + json.dumps(found))
"""

DEPENDS_ON_NORMALIZING = {"wrapped_schema", "nameless_tool"}
"""Before hermes-agent 0.18.0 the memory manager kept schemas as they came
(``normalize_tool_schema`` came with 0.18.0, ``agent/memory_manager.py`` 50-80): a wrapped
schema stayed wrapped and a nameless one was offered; the in-memory host plays 0.19.0."""


def hermes_memory(root: Path, names: list[str]) -> dict[str, Any]:
    home = root / "home"
    for name in names:
        shutil.copytree(root / "plugins" / name, home / "plugins" / name)
    scrubbed = ("HERMES_SAFE_MODE", "HERMES_ENABLE_PROJECT_PLUGINS", "HERMES_BUNDLED_PLUGINS")
    env = {k: v for k, v in os.environ.items() if k not in scrubbed}
    env["HERMES_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-c", LOADER, *names],
        capture_output=True, text=True, check=False, cwd=home, env=env, timeout=300,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("HPK-MEMORY ")]
    assert lines, done.stderr
    return json.loads(lines[-1].removeprefix("HPK-MEMORY "))


@pytest.fixture(scope="module")
def hermes_answers(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("memory")
    for name in SOURCES:
        provider_dir(root / "plugins", name)
    return root, hermes_memory(root, sorted(SOURCES))


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_in_memory_host_finds_the_provider_hermes_finds(
    name: str, hermes_answers: tuple[Path, dict[str, Any]]
) -> None:
    root, answers = hermes_answers
    real = answers[name]
    mine = InMemoryHost().load_memory_provider(root / "plugins" / name)
    assert (mine.provider is None) == (real is None), mine.how
    if real is None:
        return
    assert mine.name == real["name"]
    if name in DEPENDS_ON_NORMALIZING and not answers["__normalizes__"]:
        return
    assert [t["name"] for t in mine.tools] == real["tools"]


@pytest.mark.parametrize("name", ["by_register", "not_a_provider"])
def test_hermes_general_loader_skips_a_provider_directory_as_exclusive(
    name: str, hermes_answers: tuple[Path, dict[str, Any]]
) -> None:
    root, _ = hermes_answers
    directory = root / "plugins" / name
    real = real_verdict(directory, name)
    assert isinstance(real, dict)
    loaded = InMemoryHost().load(directory)
    assert (real["enabled"], real["error"]) == (loaded.enabled, loaded.error)
    assert loaded.kind == "exclusive"
