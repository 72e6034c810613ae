"""``InMemoryHost.load_model_provider`` against hermes' own ``providers/`` discovery (marked
``host``: every registry release).

Each directory is installed where hermes looks for user model providers
(``$HERMES_HOME/plugins/model-providers/<name>``); hermes' ``providers.list_providers()``
then imports it as its discovery does (``providers/__init__.py`` 102-190 in 0.19.0), and
the profiles it registered are compared with the in-memory host's. hermes' general loader
records such a plugin as enabled without importing it, and so does the in-memory host.
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
from kit_devtools.testing import InMemoryHost

pytestmark = pytest.mark.host

SOURCES = {
    "acme_llm": (
        "from providers import register_provider\n"
        "from providers.base import ProviderProfile\n\n"
        "register_provider(ProviderProfile(name='acme-llm', aliases=('acme',)))\n"
    ),
    "two_profiles": (
        "from providers import register_provider\nfrom providers.base import ProviderProfile\n"
        "for name in ('acme-a', 'acme-b'):\n    register_provider(ProviderProfile(name=name))\n"
    ),
    "registers_none": "# will register_provider(ProviderProfile(...)) one day\n",
    "import_fails": "from providers import no_such_name  # register_provider ProviderProfile\n",
}
BUILTIN = """
import json, sys
import providers
print("HPK-PROVIDERS " + json.dumps(sorted(p.name for p in providers.list_providers())))
"""


def discovered(home: Path) -> set[str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env["HERMES_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-c", BUILTIN], capture_output=True, text=True, check=False,
        cwd=home, env=env, timeout=300,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("HPK-PROVIDERS ")]
    assert lines, done.stderr
    return set(json.loads(lines[-1].removeprefix("HPK-PROVIDERS ")))


@pytest.fixture(scope="module")
def hermes_profiles(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Per directory: the profiles hermes' discovery gained with it installed alone."""
    root = tmp_path_factory.mktemp("providers")
    (root / "empty").mkdir()
    builtin = discovered(root / "empty")
    found: dict[str, Any] = {}
    for name, source in SOURCES.items():
        directory = root / "plugins" / name
        directory.mkdir(parents=True)
        (directory / "__init__.py").write_text(source, encoding="utf-8")
        (directory / "plugin.yaml").write_text(f"name: {name}\nkind: model-provider\n")
        home = root / f"home-{name}"
        shutil.copytree(directory, home / "plugins" / "model-providers" / name)
        found[name] = sorted(discovered(home) - builtin)
    return root, found


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_in_memory_host_gets_the_profiles_hermes_gets(
    name: str, hermes_profiles: tuple[Path, dict[str, Any]]
) -> None:
    root, found = hermes_profiles
    mine = InMemoryHost().load_model_provider(root / "plugins" / name)
    assert list(mine.profiles) == found[name], mine.problem
    assert (mine.problem is None) == bool(found[name])


def test_hermes_general_loader_records_a_model_provider_as_enabled_unimported(
    hermes_profiles: tuple[Path, dict[str, Any]],
) -> None:
    from kit_devtools.cli._real import real_verdict

    root, _ = hermes_profiles
    directory = root / "plugins" / "registers_none"
    real = real_verdict(directory, "registers_none")
    assert isinstance(real, dict)
    loaded = InMemoryHost().load(directory)
    assert (real["enabled"], real["error"], real["tools"]) == (loaded.enabled, loaded.error, 0)
    assert loaded.module is None  # never imported by the general loader
