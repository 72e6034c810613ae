"""``InMemoryHost.load_cron_provider`` against hermes' own cron scheduler discovery
(marked ``host``, so it runs on every registry release).

Each folder of tests/kit_devtools/_cron_providers.py is installed as an operator installs
one (``$HERMES_HOME/plugins/<name>``, no plugin.yaml: cron discovery reads the folder by
its text) and loaded by hermes' own ``plugins.cron_providers.load_cron_scheduler(name)``,
the path ``cron.provider: <name>`` takes, in one process of its own. The in-memory host
must find the same scheduler (or none) with the same name. Releases before 0.18.0 have no
cron providers (``CRON_SINCE``): there hermes has no such discovery.
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
from tests.kit_devtools._cron_providers import SOURCES, provider_dir

from kit_core.hermes import installed_release, version_key
from kit_devtools.cli._real import SCRUBBED
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._cron_provider import CRON_SINCE

pytestmark = pytest.mark.host

LOADER = """
import json, sys
try:
    from plugins.cron_providers import load_cron_scheduler
except ImportError:
    print("HPK-CRON " + json.dumps(None))
    raise SystemExit
found = {}
for name in sys.argv[1:]:
    provider = load_cron_scheduler(name)
    found[name] = None if provider is None else provider.name
print("HPK-CRON " + json.dumps(found))
"""


@pytest.fixture(scope="module")
def hermes_answers(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any] | None]:
    root = tmp_path_factory.mktemp("cron")
    home = root / "home"
    for name in SOURCES:
        shutil.copytree(provider_dir(root / "plugins", name), home / "plugins" / name)
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env["HERMES_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-c", LOADER, *sorted(SOURCES)],
        capture_output=True, text=True, check=False, cwd=home, env=env, timeout=300,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("HPK-CRON ")]
    assert lines, done.stderr
    return root, json.loads(lines[-1].removeprefix("HPK-CRON "))


def test_cron_providers_come_with_the_release_the_kit_says(
    hermes_answers: tuple[Path, dict[str, Any] | None],
) -> None:
    release = installed_release()
    assert release is not None
    has_cron = version_key(release.version) >= version_key(CRON_SINCE)
    assert (hermes_answers[1] is not None) == has_cron


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_in_memory_host_finds_the_scheduler_hermes_finds(
    name: str, hermes_answers: tuple[Path, dict[str, Any] | None]
) -> None:
    root, answers = hermes_answers
    mine = InMemoryHost().load_cron_provider(root / "plugins" / name)
    if answers is None:  # no cron discovery on this release, nor in the host playing it
        assert mine.provider is None
        assert mine.how.endswith(f"has no cron scheduler providers (they came with {CRON_SINCE})")
        return
    assert mine.name == answers[name], mine.how
