"""Each lint rule's severity, pinned against the real hermes (``kit_devtools/cli/rules.py``).

A rule is an **error** when hermes refuses, disables or breaks the thing (the plugin is not
enabled, the registration is refused, the tool never reaches the model or every call
fails, the callback never runs), a **warning** when hermes loads and runs it but the model
or the operator suffers, a **convention** when it is the kit's own advice. Every rule is in
exactly one table:

* ``RUNS``: a small plugin that triggers the rule, the kit's report of it, and what the
  installed hermes (every registry release, through ``scripts/host_matrix.py``) does with
  it. The plugins share one hermes worker (:class:`~kit_devtools.testing.RealHost`,
  started once); a rule whose trigger would disturb the others (terminal commands,
  entry points, memory providers) runs hermes on its own.
* ``MODELLED``: rules about upstream hermes only (catalogue admission, the upstream
  loader), with the upstream file, lines and commit each copies; the kit reports each on
  a trigger, and a registry release loads those plugins where it does (their errors are
  about upstream, not about the installed hermes).
* ``KIT_OWN``: the kit's reports about itself or about hermes' own commands, which
  mirror no refusal of hermes.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pytest
from tests.host.test_host_contract import as_sent
from tests.kit_devtools._memory_contract_providers import BROKEN
from tests.kit_devtools._provider_kinds import (
    engine_source,
    model_source,
    stt_source,
    tts_source,
)

from kit_core.hermes import (
    installed_distribution,
    installed_release,
    newest_registry_release,
    version_key,
)
from kit_devtools.cli import main
from kit_devtools.cli._real import NOT_DISCOVERED, real_verdict
from kit_devtools.cli._upstream import available as upstream_available
from kit_devtools.cli.findings import Severity
from kit_devtools.cli.rules import RULES
from kit_devtools.testing import RealHost, RealHostCallError, RealPlugin
from kit_devtools.testing._cron_provider import CRON_SINCE
from kit_devtools.testing._failure import PluginLoadError
from kit_devtools.testing._requires_hermes import enforces
from kit_devtools.testing.contracts import check_provider

HOST_DISTRIBUTION = (installed_distribution() or ("hermes-agent", ""))[0]
"""The distribution that installs the hermes under test."""

pytestmark = pytest.mark.host

RELEASE = installed_release() or newest_registry_release()
E, W, C = Severity.ERROR, Severity.WARNING, Severity.CONVENTION
HERMES = next(
    (Path(sys.executable).parent / n for n in ("hermes", "hermesx")
     if (Path(sys.executable).parent / n).exists()),
    Path(sys.executable).parent / "hermes",
)  # fmt: skip
"""hermes' own command line, in the environment of the release under test (axisrow's
0.20.1 packaging names it ``hermesx``)."""


def hermes_source(path: str) -> str:
    """A file of the installed hermes, read without importing hermes."""
    dist = importlib.metadata.distribution(HOST_DISTRIBUTION)
    file = Path(str(dist.locate_file(path)))
    return file.read_text(encoding="utf-8") if file.is_file() else ""


HAS_TOOL_SEARCH = bool(hermes_source("tools/tool_search.py"))
"""0.16.0 on: tool_search/tool_describe/tool_call are answered by hermes' own bridge."""
HAS_RESULT_CONTRACT = "tool_result_contract" in hermes_source("tools/registry.py")
"""0.19.0 on: dispatch refuses a handler result that is not a string."""
REFUSES_NON_DICT_SCHEMA = "schema must be a dict" in hermes_source("tools/registry.py")
"""0.21.3 on: ``registry.register`` refuses a schema that is not a dict, so the plugin's
``register()`` fails there (``tools/registry.py`` ``register``)."""

# -- the plugins --------------------------------------------------------------------------

STANDALONE = "name: {name}\nversion: 0.1.0\ndescription: d\nkind: standalone\n"
GOOD: dict[str, Any] = {
    "description": "Get an item.",
    "parameters": {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "Item id"}},
    },
}
OK = {"ok": True, "args": {"id": "a"}}
"""What every tool handler of these plugins answers to ``{"id": "a"}``."""

HANDLERS = """
import json
from pathlib import Path
MARKS = Path(__file__).parent / "marks"

def ok(args, **kwargs):
    return json.dumps({"ok": True, "args": args})

def narrow(args):
    return json.dumps({"ok": True, "args": args})

def named(args, *, task_id=None, session_id=None, user_task=None):
    return json.dumps({"ok": True, "args": args})

async def coro(args, **kwargs):
    return json.dumps({"ok": True, "args": args})

def raises(args, **kwargs):
    raise ValueError("no such item")

def as_dict(args, **kwargs):
    return {"ok": True, "args": args}

def as_dict_named(args, **kwargs):
    answer = {"ok": True, "args": args}  # a name, not a literal: only a call shows it
    return answer

def sync_coro(args, **kwargs):
    return coro(args)

async def forgot_await(args, **kwargs):
    return coro(args)

def mark(name):
    MARKS.mkdir(exist_ok=True)
    (MARKS / name).write_text("ran")

def good_callback(**kwargs):
    mark("good")
"""


def tool(
    name: str,
    schema: object = None,
    *,
    handler: str = "ok",
    toolset: str | None = None,
    is_async: bool = False,
    then: str = "",
) -> str:
    """A plugin registering one tool, then running ``then`` in register()."""
    schema = {"name": name, **GOOD} if schema is None else schema
    body = textwrap.indent(textwrap.dedent(then).strip(), "    ")
    return (
        HANDLERS
        + "\ndef register(ctx):\n"
        + f"    ctx.register_tool(name={name!r}, toolset={toolset or name.split('_')[0]!r},"
        + f" schema={schema!r}, handler={handler}, is_async={is_async!r})\n"
        + (body + "\n" if body else "")
    )


def hooked(name: str, hook: str, header: str) -> str:
    """A tool and two hook callbacks: ``good_callback`` on ``pre_tool_call`` marks ``good``
    when hermes calls the tool; ``callback`` (``header``) marks ``bad`` if it ever runs."""
    register = (
        f"ctx.register_hook('pre_tool_call', good_callback)\nctx.register_hook({hook!r}, callback)"
    )
    return tool(name, then=register) + f"\n{header}\n    mark('bad')\n"


def ran(seen: Seen, mark: str) -> bool:
    """Whether a callback of the plugin marked ``mark`` (in hermes' copy of the plugin)."""
    return (seen.host.hermes_home / "plugins" / seen.directory.name / "marks" / mark).exists()


# -- what hermes did ----------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """What the shared hermes worker made of one plugin (None: it did not discover it)."""

    plugin: RealPlugin | None
    host: RealHost
    directory: Path

    @property
    def loaded(self) -> RealPlugin:
        assert self.plugin is not None, f"hermes did not discover {self.directory}"
        return self.plugin

    def definition(self, name: str) -> dict[str, Any]:
        """The tool as the model receives it: its schema in the tool list, or, where the
        tool-search bridge replaces plugin schemas by default (``bridge_default``, 0.20.0
        on), the schema ``tool_describe`` answers (``tools/tool_search.py``), the only way
        the model sees it there."""
        if RELEASE.bridge_default:
            # 0.20.x takes one ``name`` and answers the tool itself; 0.21.3 on take
            # ``names`` and answer {"tools": {name: ...}} (dispatch_tool_describe)
            asked = {"name": name, "names": [name]}
            answer = json.loads(self.host.call_tool("tool_describe", asked))
            described = answer.get("tools", {name: answer} if answer.get("name") else {})
            assert name in described, f"tool_describe does not know {name!r}: {answer}"
            return {**described[name], "name": name}
        found = {d["function"]["name"]: d["function"] for d in self.host.definitions()}
        assert name in found, f"hermes does not send {name!r}; it sends {sorted(found)}"
        definition: dict[str, Any] = found[name]
        return definition

    def call(self, name: str) -> Any:
        return self.host.call_tool(name, {"id": "a"}, task_id="t", session_id="s")


def works(seen: Seen, name: str) -> None:
    """hermes loaded the plugin, sends the tool to the model and a call answers normally."""
    assert seen.loaded.enabled, seen.loaded.error
    seen.definition(name)
    assert json.loads(seen.call(name)) == OK


def refused(seen: Seen, *words: str) -> None:
    """hermes did not enable the plugin, and its recorded error says why."""
    assert seen.plugin is None or not seen.plugin.enabled, seen.plugin
    error = "" if seen.plugin is None else str(seen.plugin.error)
    assert all(w in error for w in words), error


def hermes_cli(
    directory: Path, *argv: str, installed: bool = True
) -> subprocess.CompletedProcess[str]:
    """``hermes <argv>`` in a fresh home, with the plugin installed and enabled there
    (``installed``) or not."""
    home = directory.parent / f"{directory.name}-home"
    home.mkdir()
    if installed:
        shutil.copytree(directory, home / "plugins" / directory.name)
        (home / "config.yaml").write_text(
            json.dumps({"plugins": {"enabled": [directory.name]}}), encoding="utf-8"
        )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    env["HERMES_HOME"] = str(home)
    return subprocess.run(
        [str(HERMES), *argv], capture_output=True, text=True, cwd=home, env=env, timeout=300,
        check=False,
    )  # fmt: skip


MEMORY_PROBE = """
import json, sys
from plugins.memory import load_memory_provider
provider = load_memory_provider(sys.argv[1])
found = {"provider": provider is not None}
if provider is not None:
    try:
        found["is_available"] = bool(provider.is_available())
    except Exception as exc:
        found["is_available"] = f"raised {type(exc).__name__}: {exc}"
print("HPK-MEMORY " + json.dumps(found))
"""


MEMORY_MANAGED = """
import json, sys, time
from agent.memory_manager import MemoryManager
from plugins.memory import load_memory_provider
manager = MemoryManager()
manager.add_provider(load_memory_provider(sys.argv[1]))
found = {"result": type(manager.handle_tool_call("recall_search", {"query": "tea"})).__name__}
started = time.monotonic()
manager.sync_all("I drink tea.", "Noted.", session_id="sev")
found["held"] = time.monotonic() - started >= 1.0
found["drained"] = manager.flush_pending(timeout=1.0) if hasattr(manager, "flush_pending") else True
print("HPK-MEMORY " + json.dumps(found))
"""
"""The provider as hermes' own MemoryManager runs it: the type of a tool result it hands
the model, whether ``sync_all`` held its caller a second, and whether the manager's worker
drained within a second (``flush_pending``, 0.17.0 on)."""


def memory_discovery(directory: Path, script: str = MEMORY_PROBE) -> dict[str, Any]:
    """hermes' memory discovery (``plugins.memory.load_memory_provider``) on the plugin
    installed in a fresh home, then ``is_available()`` as agent start calls it (or
    ``script``, given the folder's name)."""
    home = directory.parent / f"{directory.name}-home"
    shutil.copytree(directory, home / "plugins" / directory.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    env["HERMES_HOME"] = str(home)
    run = subprocess.run(
        [sys.executable, "-c", script, directory.name], capture_output=True, text=True,
        cwd=home, env=env, timeout=300, check=False,
    )  # fmt: skip
    lines = [line for line in run.stdout.splitlines() if line.startswith("HPK-MEMORY ")]
    assert lines, run.stderr[-2000:]
    found: dict[str, Any] = json.loads(lines[-1].removeprefix("HPK-MEMORY "))
    return found


CRON_PROBE = """
import json, sys
try:
    from plugins.cron_providers import load_cron_scheduler
except ImportError:  # before 0.18.0
    print("HPK-CRON " + json.dumps({"discovery": False}))
    raise SystemExit
provider = load_cron_scheduler(sys.argv[1])
found = {"discovery": True, "provider": provider is not None}
if provider is not None:
    try:
        found["is_available"] = bool(provider.is_available())
    except Exception as exc:
        found["is_available"] = f"raised {type(exc).__name__}: {exc}"
print("HPK-CRON " + json.dumps(found))
"""


def cron_discovery(directory: Path) -> dict[str, Any]:
    """hermes' cron discovery (``plugins.cron_providers.load_cron_scheduler``) on the
    plugin installed in a fresh home, then ``is_available()`` as the cron resolver calls
    it (``cron.scheduler_provider.resolve_cron_scheduler``)."""
    home = directory.parent / f"{directory.name}-cron-home"
    shutil.copytree(directory, home / "plugins" / directory.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    env["HERMES_HOME"] = str(home)
    run = subprocess.run(
        [sys.executable, "-c", CRON_PROBE, directory.name], capture_output=True, text=True,
        cwd=home, env=env, timeout=300, check=False,
    )  # fmt: skip
    lines = [line for line in run.stdout.splitlines() if line.startswith("HPK-CRON ")]
    assert lines, run.stderr[-2000:]
    found: dict[str, Any] = json.loads(lines[-1].removeprefix("HPK-CRON "))
    return found


def has_cron() -> bool:
    """Whether the installed release has cron scheduler providers (0.18.0 on)."""
    return version_key(RELEASE.version) >= version_key(CRON_SINCE)


PROVIDERS_PROBE = """
import json
import providers
print("HPK-PROVIDERS " + json.dumps(sorted(p.name for p in providers.list_providers())))
"""


def provider_discovery(directory: Path) -> set[str]:
    """The profiles hermes' ``providers/`` discovery gains with the plugin installed where
    it looks (``$HERMES_HOME/plugins/model-providers/<name>``), against an empty home."""
    found: list[set[str]] = []
    for home, install in ((directory.parent / "providers-empty", False),
                          (directory.parent / f"{directory.name}-providers", True)):  # fmt: skip
        home.mkdir(exist_ok=True)
        if install:
            shutil.copytree(directory, home / "plugins" / "model-providers" / directory.name)
        env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
        env["HERMES_HOME"] = str(home)
        run = subprocess.run(
            [sys.executable, "-c", PROVIDERS_PROBE], capture_output=True, text=True,
            cwd=home, env=env, timeout=300, check=False,
        )  # fmt: skip
        lines = [line for line in run.stdout.splitlines() if line.startswith("HPK-PROVIDERS ")]
        assert lines, run.stderr[-2000:]
        found.append(set(json.loads(lines[-1].removeprefix("HPK-PROVIDERS "))))
    return found[1] - found[0]


# -- RUNS: what the installed hermes does -------------------------------------------------


def hpk001(seen: Seen) -> None:
    refused(seen, "boom in register")


def hpk002(seen: Seen) -> None:
    refused(seen, "no register() function")


def hpk003(seen: Seen) -> None:
    refused(seen, "sev_no_such_module")


def hpk004(seen: Seen) -> None:
    assert seen.loaded.listed.get("kind") in (None, "standalone")
    works(seen, "sev004_get")


def hpk005(seen: Seen) -> None:
    works(seen, "sev005_get")


def hpk006(seen: Seen) -> None:
    """hermes loads the plugin and registers the skill under the plugin's name, but its
    skill_view refuses that namespace: the skill can never be loaded."""
    works(seen, "sev006_get")
    answer = json.loads(seen.host.call_tool("skill_view", {"name": "sev 006:guide"}))
    assert answer["success"] is False
    assert "Invalid namespace 'sev 006'" in answer["error"]


INSTALLER_CHECK = """
import sys, yaml
try:
    from hermes_cli.plugins_cmd_install import _check_manifest_version
except ImportError:  # 0.21.3-0.21.5: the installer's module
    from hermes_cli.plugins_cmd import _check_manifest_version
manifest = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
try:
    _check_manifest_version(manifest, manifest["name"])
except Exception as exc:
    print("HPK-REFUSED " + str(exc))
"""
"""The installer's own manifest check, as ``_install_plugin_core`` calls it on the cloned
plugin's manifest (0.22.2 ``hermes_cli/plugins_cmd_install.py`` ``_check_manifest_version``,
via ``pm/plugin_declarations.py`` ``manifest_version_error``; 0.21.3-0.21.5
``hermes_cli/plugins_cmd.py`` ``_check_manifest_version``)."""


def installer_check(seen: Seen) -> str:
    """What the release's own installer check says of the plugin's manifest."""
    home = seen.directory.parent / "sev017-check-home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    env["HERMES_HOME"] = str(home)
    check = subprocess.run(
        [sys.executable, "-c", INSTALLER_CHECK, str(seen.directory / "plugin.yaml")],
        capture_output=True, text=True, cwd=home, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr[-2000:]
    return check.stdout


def hpk017(seen: Seen) -> None:
    """hermes' loader reads the file (the plugin copied in loads), but where the release's
    installer accepts manifest versions up to 1 (``installer_manifest_version``: through
    0.21.3), `hermes plugins install` (hermes_cli/plugins_cmd.py) refuses the plugin; from
    0.21.4 the installer's own check admits it. That check is called on the manifest
    itself there (0.22.2's installer first fetches a managed Python from the network,
    which this machine lacks)."""
    assert seen.loaded.enabled, seen.loaded.error
    if RELEASE.installer_manifest_version >= 2:
        said = installer_check(seen)
        assert "HPK-REFUSED" not in said, said
        return
    repo = seen.directory.parent / "sev017-repo"
    shutil.copytree(seen.directory, repo)
    git = ["git", "-C", str(repo), "-c", "user.name=kit", "-c", "user.email=kit@example.org"]
    for step in (["init", "-q"], ["add", "."], ["commit", "-qm", "plugin"]):
        subprocess.run([*git, *step], check=True, capture_output=True)
    run = hermes_cli(seen.directory, "plugins", "install", repo.as_uri(), installed=False)
    said = " ".join((run.stdout + run.stderr).split())
    assert "requires manifest_version 2, but this installer only supports up to 1" in said
    assert not (seen.directory.parent / "sev017-home" / "plugins" / "sev017").exists()


def hpk009(seen: Seen) -> None:
    refused(seen)


def hpk101(seen: Seen) -> None:
    """hermes registers a schema object that is no mapping, then fails building the tool
    list: no tool of any plugin reaches the model (a str schema is refused: HPK001)."""
    with RealHost() as host:
        if REFUSES_NON_DICT_SCHEMA:  # refused at registration: the plugin is not enabled
            with pytest.raises(PluginLoadError, match="schema must be a dict, got Odd"):
                host.load(seen.directory)
            return
        assert host.load(seen.directory).enabled
        with pytest.raises(RealHostCallError, match="not a mapping"):
            host.definitions()


def no_parameters(seen: Seen, name: str) -> None:
    """The model receives the tool with no parameters at all: an empty object schema, as
    the release sends it (from 0.21.4, ``sanitizer_adds_required``, with ``"required": []``
    added)."""
    empty = as_sent({"function": {"parameters": {"type": "object", "properties": {}}}}, RELEASE)
    assert seen.definition(name)["parameters"] == empty["function"]["parameters"]


def hpk102(seen: Seen) -> None:
    no_parameters(seen, "sev102_get")


def hpk103(seen: Seen) -> None:
    no_parameters(seen, "sev103_get")


def hpk104(seen: Seen) -> None:
    """A warning: the tool reaches the model with an empty description, and works."""
    works(seen, "sev104_get")
    assert not seen.definition("sev104_get").get("description")


def hpk105(seen: Seen) -> None:
    no_parameters(seen, "sev105_get")


def hpk106(seen: Seen) -> None:
    assert seen.definition("sev106_get")["parameters"].get("required") == ["id"]


def hpk107(seen: Seen) -> None:
    works(seen, "sev107_get")
    assert seen.definition("sev107_get")["parameters"]["properties"]["id"] == {"type": "string"}


def hpk108(seen: Seen) -> None:
    works(seen, "sev108_get")
    assert seen.definition("sev108_get")["parameters"]["properties"]["id"]["$ref"] == "#/$defs/X"


def hpk109(seen: Seen) -> None:
    works(seen, "sev109_get")
    tags = seen.definition("sev109_get")["parameters"]["properties"]["tags"]
    assert tags == {"type": "array", "description": "t"}


def hpk111(seen: Seen) -> None:
    """hermes sends the name as it is; providers accept only ^[A-Za-z0-9_-]{1,64}$ and
    refuse the whole request carrying it."""
    assert seen.definition("sev111 get!")["name"] == "sev111 get!"


def hpk112(seen: Seen) -> None:
    """tool_search: from 0.16.0 hermes' tool-search bridge answers the name, and the
    plugin's handler never runs. Before, the name was free (the kit's error is about the
    releases that have the bridge)."""
    assert seen.loaded.enabled
    answer = seen.call("tool_search")
    if HAS_TOOL_SEARCH:
        assert json.loads(answer) != OK, answer
    else:
        assert json.loads(answer) == OK


def hpk113(seen: Seen) -> None:
    works(seen, "Sev113Get")


def hpk114(seen: Seen) -> None:
    works(seen, "frobnicate")


def hpk115(seen: Seen) -> None:
    works(seen, "sev115_get")
    assert seen.host.tools["sev115_get"] == "file"
    if not RELEASE.bridge_default:  # under the bridge it is one of tool_search's lines
        assert "sev115_get" in {d["function"]["name"] for d in seen.host.definitions(["file"])}


def hpk116(seen: Seen) -> None:
    """The plugin loads, but the call is the built-in read_file's: the plugin's never runs."""
    assert seen.loaded.enabled
    answer = json.loads(seen.call("read_file"))
    assert answer != OK
    # the built-in's own refusal of a path it cannot read (0.21.3 on: "Cannot read ''...")
    assert "File not found" in answer["error"] or "Cannot read" in answer["error"]


def hpk117(seen: Seen) -> None:
    works(seen, "memory_sev117")


def hpk604(seen: Seen) -> None:
    """The plugin loads, but hermes' registry has no provider 'edge': a TTS provider of a
    built-in name (from 0.15.0, which brought the TTS registry), or before that a web
    provider that does not inherit hermes' base class, is ignored (the plugin's tool
    reports what the registry holds)."""
    assert seen.loaded.enabled, seen.loaded.error
    assert json.loads(seen.call("sev604_get")) == {"edge": None}


def broken_contract(kind: str, member: str, offered: str = "") -> Callable[[Seen], None]:
    """The contract suite's driver, run in hermes' worker on the provider hermes' own
    registry holds, with the release's own calls: ``member`` breaks its rule there (the
    release has no such kind where it does not offer ``offered``)."""

    def expect(seen: Seen) -> None:
        report = check_provider(seen.directory, kind=kind, host=seen.host)
        if offered and not RELEASE.offers(offered):
            assert report.absent, report
            return
        assert member in [v.member for v in report.violations], report.violations

    return expect


def failed_call(seen: Seen, name: str, *words: str) -> None:
    answer = seen.call(name)
    assert isinstance(answer, str), answer
    error = str(json.loads(answer).get("error", ""))
    assert all(w in error for w in words), answer


def hpk118(seen: Seen) -> None:
    """A convention: hermes sends the tool and it works; from 0.20.0 the model chooses it
    from the bridge's one line (the kit's advice is about that line)."""
    works(seen, "sev118_get")


def hpk121(seen: Seen) -> None:
    """Every call fails on the keywords hermes passes; where dispatch passes a handler only
    the keywords it names (``narrows_handler_kwargs``, 0.21.5 on: ``tools/registry.py``
    ``_kwargs_accepted_by``), ``def handler(args)`` works and the kit reports nothing."""
    if RELEASE.narrows_handler_kwargs:
        works(seen, "sev121_get")
    else:
        failed_call(seen, "sev121_get", "Tool execution failed", "unexpected keyword argument")


def coroutine_result(seen: Seen, name: str) -> None:
    """The coroutine's body never runs: 0.19.0 answers a contract error, older releases
    hand on the coroutine's repr."""
    answer = seen.call(name)
    assert isinstance(answer, str)
    if HAS_RESULT_CONTRACT:
        assert "unsupported result type: coroutine" in answer
    else:
        assert answer.startswith("<coroutine object"), answer


def hpk122(seen: Seen) -> None:
    coroutine_result(seen, "sev122_get")


def hpk134(seen: Seen) -> None:
    """A plain def returning an async function's coroutine: never awaited."""
    coroutine_result(seen, "sev134_get")


def hpk135(seen: Seen) -> None:
    """An is_async handler is awaited once; the coroutine it returned is not."""
    coroutine_result(seen, "sev135_get")


def hpk123(seen: Seen) -> None:
    failed_call(seen, "sev123_get", "Tool execution failed", "awaitable is required")


def hpk124(seen: Seen) -> None:
    """Every registry release passes a subset of the keywords the handler names
    (task_id and user_task; session_id from 0.17.0): the call works."""
    works(seen, "sev124_get")


def hpk131(seen: Seen) -> None:
    failed_call(seen, "sev131_get", "Tool execution failed", "ValueError: no such item")


def dict_result(seen: Seen, name: str) -> None:
    """Never the JSON string the agent loop hands the model: 0.19.0 answers a contract
    error, older releases pass the dict itself on as the tool message's content."""
    answer = seen.call(name)
    if HAS_RESULT_CONTRACT:
        assert "unsupported result type: dict" in answer
    else:
        assert answer == OK  # a dict, not a str


def hpk125(seen: Seen) -> None:
    dict_result(seen, "sev125_get")


def hpk132(seen: Seen) -> None:
    dict_result(seen, "sev132_get")


def hpk133(seen: Seen) -> None:
    answer = json.loads(seen.call("sev133_get_item"))
    assert answer["success"] is False
    assert answer["error"] == "sev133_get_item failed: no such item"


def hpk201(seen: Seen) -> None:
    """hermes stores /sev_cmd, but the gateway asks for the name with '_' turned into
    '-' (gateway/run.py: get_plugin_command_handler(command.replace("_", "-")))."""
    assert seen.host.run_command("sev_cmd", "x") == "ran x"
    with pytest.raises(KeyError):
        seen.host.run_command("sev-cmd", "x")


def hpk202(seen: Seen) -> None:
    assert seen.loaded.enabled
    assert "help" not in seen.host.commands


def hpk203(seen: Seen) -> None:
    with pytest.raises(Exception, match="takes 0 positional arguments"):
        seen.host.run_command("sev203", "x")


def cli_broken(seen: Seen) -> None:
    """hermes' CLI adds every plugin's terminal command in one loop and gives up at the
    first failure (hermes_cli/main.py, 'Plugin CLI discovery failed'): the plugin's own
    good command registered after the bad one is gone too."""
    ok = hermes_cli(seen.directory, f"{seen.directory.name}ok")
    assert ok.returncode != 0
    assert "SEV-CLI-RAN" not in ok.stdout
    # argparse's refusal; 0.22.2's parser words it itself (hermes_cli/_parser.py _check_value)
    name = f"{seen.directory.name}ok"
    assert "invalid choice" in ok.stderr or f"'{name}' is not a `hermes` command" in ok.stderr


def callback_never_runs(seen: Seen) -> None:
    """hermes' call of the tool runs the plugin's good hook callback, never the bad one."""
    assert json.loads(seen.call(f"{seen.directory.name}_get")) == OK
    assert ran(seen, "good")
    assert not ran(seen, "bad")


def narrow_callback(seen: Seen) -> None:
    """Where the release passes a hook callback only the keywords it declares
    (``narrows_hook_kwargs``, 0.20.1 on: ``_invoke_hook_callback``, ``hermes_cli/plugins.py``
    0.20.1, ``hermes_cli/plugins_dispatch.py`` 0.21.3 on), ``callback(tool_name, args)``
    runs and the kit reports nothing; before, every keyword is passed and it never runs."""
    if RELEASE.narrows_hook_kwargs:
        assert json.loads(seen.call(f"{seen.directory.name}_get")) == OK
        assert ran(seen, "good")
        assert ran(seen, "bad")
    else:
        callback_never_runs(seen)


def async_callback(seen: Seen) -> None:
    """Where the release awaits an ``async def`` hook callback (``awaits_hooks``, 0.21.3 on:
    ``_invoke_hook_callback`` resolves the coroutine, ``hermes_cli/plugins_dispatch.py``),
    its body runs and the kit reports nothing; before, the body never runs."""
    if RELEASE.awaits_hooks:
        assert json.loads(seen.call(f"{seen.directory.name}_get")) == OK
        assert ran(seen, "good")
        assert ran(seen, "bad")
    else:
        callback_never_runs(seen)


def hpk401(seen: Seen) -> None:
    refused(seen, "SKILL.md not found")


def hpk502(seen: Seen) -> None:
    """Re-kinded a model provider: hermes never runs register(), the tool is not there."""
    assert seen.plugin is None or not seen.plugin.tools
    assert "sev502_get" not in seen.host.tools


SECTION: Final = "register_system_prompt_section"
"""A member that came with 0.20.1, called guarded as a registry plugin calls it."""


def hpk507(seen: Seen) -> None:
    """hermes loads the plugin either way; where the release lacks the member, the guarded
    call does nothing (its branch never ran) and hermes says nothing."""
    assert seen.loaded.enabled
    assert json.loads(seen.call("sev507_get")) == OK
    assert ran(seen, "section") is RELEASE.offers(SECTION)


def hpk503(seen: Seen) -> None:
    """hermes disables the plugin: register_skill calls path.exists() on the str. Where it
    takes ``Path(path)`` first (``skill_path_str``, 0.21.5 on: ``hermes_cli/plugins.py``
    0.21.5, ``hermes_cli/plugins_content.py`` 0.22.2 ``register_skill``) the plugin loads with
    its skill, and compat counts the str path in the floor instead of reporting it."""
    if RELEASE.skill_path_str:
        works(seen, "sev503_get")
        answer = json.loads(seen.host.call_tool("skill_view", {"name": "sev503:guide"}))
        assert answer["success"] is True, answer
    else:
        refused(seen, "'str' object has no attribute 'exists'")


def hpk504(seen: Seen) -> None:
    refused(seen, "No module named 'sev504'")


def hpk601(seen: Seen) -> None:
    """The general loader skips it as exclusive, and memory discovery finds no provider."""
    refused(seen, "exclusive")
    assert memory_discovery(seen.directory) == {"provider": False}


def hpk603(seen: Seen) -> None:
    """hermes records the plugin without importing it, and its providers/ discovery
    gains no profile from it: no model provider."""
    assert seen.plugin is None or seen.plugin.tools == ()
    assert provider_discovery(seen.directory) == set()


def hpk602(seen: Seen) -> None:
    """Memory discovery loads the provider; agent start's is_available() raises."""
    found = memory_discovery(seen.directory)
    assert found["provider"] is True
    assert str(found["is_available"]).startswith("raised RuntimeError: no backend")


def hpk605(seen: Seen) -> None:
    """hermes' MemoryManager hands the model the dict the provider's tool returned."""
    assert memory_discovery(seen.directory, MEMORY_MANAGED)["result"] == "dict"


def hpk606(seen: Seen) -> None:
    """hermes runs the sleeping sync_turn: before 0.17.0 ``sync_all`` holds the turn's
    thread; from 0.17.0 it returns, and the manager's one worker stays held."""
    found = memory_discovery(seen.directory, MEMORY_MANAGED)
    assert found["held"] or not found["drained"], found


def hpk608(seen: Seen) -> None:
    """cron discovery finds no scheduler (hermes keeps its built-in ticker); before 0.18.0
    there is no cron discovery at all."""
    expected = {"discovery": True, "provider": False} if has_cron() else {"discovery": False}
    assert cron_discovery(seen.directory) == expected


def hpk609(seen: Seen) -> None:
    """cron discovery loads the scheduler; the resolver's is_available() raises, so hermes
    falls back to its built-in ticker."""
    found = cron_discovery(seen.directory)
    if not has_cron():
        assert found == {"discovery": False}
        return
    assert found["provider"] is True
    assert str(found["is_available"]).startswith("raised RuntimeError: no endpoint")


def entry_point(seen: Seen) -> None:
    """hermes' own list_plugins() for the entry point, with the dist on PYTHONPATH."""
    verdict = real_verdict(None, seen.directory.name)
    if seen.directory.name == "sevep007" and RELEASE.entry_point_callable:
        # module:register works: the loader calls what ep.load() returned (0.21.5 on)
        assert isinstance(verdict, dict), verdict
        assert verdict["enabled"], verdict
        assert not verdict["error"], verdict
    elif seen.directory.name == "sevep007":  # the entry point names a function
        assert isinstance(verdict, dict)
        assert not verdict["enabled"]
        assert "no register() function" in str(verdict["error"])
    else:  # the wrong group: never scanned
        assert verdict == NOT_DISCOVERED


def shadowed(seen: Seen) -> None:
    """Through 0.21.3 hermes lists the entry point under the name, not the directory: the
    directory's tool is never registered. From 0.21.4 (``directory_beats_entry_point``)
    the directory keeps its name and hermes loads it, with its one tool."""
    verdict = real_verdict(seen.directory, seen.directory.name)
    if RELEASE.directory_beats_entry_point:
        assert isinstance(verdict, dict), verdict
        assert (verdict["source"], verdict["tools"]) == ("user", 1), verdict
    else:
        assert verdict == NOT_DISCOVERED  # hermes lists no directory of that name
        holder = real_verdict(None, seen.directory.name)
        assert isinstance(holder, dict), holder
        assert (holder["source"], holder["tools"]) == ("entrypoint", 0), holder


@dataclass(frozen=True)
class Run:
    """A plugin triggering the rule, how the kit is asked, and what hermes does."""

    init: str
    expect: Callable[[Seen], None]
    manifest: str = STANDALONE
    command: tuple[str, ...] = ("check",)
    alone: bool = False
    """True: the expectation runs hermes itself (the plugin would disturb the others)."""
    files: Mapping[str, str] = field(default_factory=dict[str, str])
    reported: Callable[[], bool] = lambda: True
    """Whether the kit reports the rule on the installed release (False: this release does
    not do what the rule is about, and the expectation shows what it does instead)."""


SKILL = "---\nname: guide\ndescription: g\n---\nbody\n"
MEMORY_PROVIDER = """
from agent.memory_provider import MemoryProvider

class Sev602(MemoryProvider):
    @property
    def name(self):
        return "sev602"
    def is_available(self):
        raise RuntimeError("no backend")
    def initialize(self, session_id, **kwargs):
        pass
    def get_tool_schemas(self):
        return []

def register(ctx):
    ctx.register_memory_provider(Sev602())
"""
CRON_SCHEDULER = """
from cron.scheduler_provider import CronScheduler

class Sev606(CronScheduler):
    @property
    def name(self):
        return "sev606"
    def is_available(self):
        raise RuntimeError("no endpoint")
    def start(self, stop_event, *, adapters=None, loop=None, interval=60):
        pass

def register(ctx):
    pass
"""
EDGE_SPEAKER = """
from agent.tts_provider import TTSProvider

class Edge(TTSProvider):
    @property
    def name(self):
        return "edge"
    def synthesize(self, text, output_path, **extra):
        return output_path

def edge_seen(args, **kwargs):
    from agent.tts_registry import get_provider
    found = get_provider("edge")
    return json.dumps({"edge": None if found is None else type(found).__name__})
"""
UNTYPED_SEARCH = """
class Edge:
    name = "edge"

def edge_seen(args, **kwargs):
    from agent.web_search_registry import get_provider
    found = get_provider("edge")
    return json.dumps({"edge": None if found is None else type(found).__name__})
"""
IGNORED_PROVIDER = (
    (EDGE_SPEAKER, "ctx.register_tts_provider(Edge())")
    if RELEASE.offers("register_tts_provider")
    else (UNTYPED_SEARCH, "ctx.register_web_search_provider(Edge())")
)
"""A provider hermes ignores with a WARNING on the installed release."""
ID = {"id": {"type": "string", "description": "Item id"}}
KIT_TOOL = '''
import sys
from kit_core import register_all, str_arg, tool

@tool(toolset="sev133", namespace="sev133", name="sev133_get_item",
      params={"id": str_arg("Item id", required=True, example="a")})
def get_item(args, **kwargs):
    """Get an item."""
    raise ValueError("no such item")

def register(ctx):
    register_all(ctx, sys.modules[__name__])
'''
ODD_SCHEMA = """
class Odd:  # answers get() as hermes' register_tool reads it, but is no mapping
    def get(self, key, default=None):
        return {"name": "sev101_get", "description": "d"}.get(key, default)

def register(ctx):
    ctx.register_tool(name="sev101_get", toolset="sev101", schema=Odd(), handler=ok)
"""


def _command(name: str, handler: str) -> str:
    return f"ctx.register_command({name!r}, handler={handler}, description='d')"


def _cli(name: str, setup: str = "lambda p: None") -> str:
    """A bad terminal command, then the plugin's good one (``<folder>ok``) after it."""
    return (
        f"ctx.register_cli_command({name!r}, help='h', setup_fn={setup}, handler_fn=print)\n"
        "ctx.register_cli_command(__name__.rsplit('.', 1)[-1] + 'ok', help='ok',"
        " setup_fn=lambda p: None, handler_fn=lambda a: print('SEV-CLI-RAN'))"
    )


def _schema(name: str, parameters: object = None, **more: object) -> dict[str, Any]:
    found: dict[str, Any] = {"name": name, "description": "d", **more}
    if parameters is not None:
        found["parameters"] = {"type": "object", "properties": parameters}
    return found


SKILL_AT = 'ctx.register_skill("guide", {})'
NO_KIND = "name: {name}\nversion: 0.1.0\n"
HERE = "Path(__file__).parent"
PROBE = ("check", "--probe")
COMPAT = ("compat",)
TTS_OFFERED, STT_OFFERED = "register_tts_provider", "register_transcription_provider"
RUNS: dict[str, Run] = {
    "HPK001": Run(tool("sev001_get", then="raise RuntimeError('boom in register')"), hpk001),
    "HPK002": Run("X = 1\n", hpk002),
    "HPK003": Run("import sev_no_such_module\ndef register(ctx):\n    pass\n", hpk003),
    "HPK004": Run(tool("sev004_get"), hpk004, manifest=NO_KIND),
    "HPK005": Run(tool("sev005_get"), hpk005, manifest=STANDALONE + "settings: {{a: 1}}\n"),
    "HPK006": Run(tool("sev006_get", then=SKILL_AT.format(f"{HERE} / 'SKILL.md'")), hpk006,
                  manifest=STANDALONE.replace("{name}", "sev 006"), files={"SKILL.md": SKILL}),
    "HPK007": Run("", entry_point, alone=True,
                  reported=lambda: not RELEASE.entry_point_callable),
    "HPK008": Run("", entry_point, alone=True),
    "HPK009": Run("def register(ctx):\n    pass\n", hpk009, manifest="name: [sev009\n"),
    "HPK017": Run(tool("sev017_get"), hpk017, manifest=STANDALONE + "manifest_version: 2\n",
                  reported=lambda: RELEASE.installer_manifest_version < 2),
    "HPK019": Run(tool("sev019_get"), shadowed, alone=True,
                  reported=lambda: not RELEASE.directory_beats_entry_point),
    "HPK101": Run(HANDLERS + ODD_SCHEMA, hpk101, alone=True),
    "HPK102": Run(tool("sev102_get", {"type": "function", "function": _schema("sev102_get")}),
                  hpk102),
    "HPK103": Run(tool("sev103_get", _schema("sev103_get", type="object",
                                              properties={"q": {"type": "string"}})), hpk103),
    "HPK104": Run(tool("sev104_get", {**_schema("sev104_get", ID), "description": ""}), hpk104),
    "HPK105": Run(tool("sev105_get", _schema("sev105_get")), hpk105),
    "HPK106": Run(tool("sev106_get", {**_schema("sev106_get"), "parameters": {
        "type": "object", "properties": ID, "required": ["id", "ghost"]}}), hpk106),
    "HPK107": Run(tool("sev107_get", _schema("sev107_get", {"id": {"type": "string"}})),
                  hpk107),
    "HPK108": Run(tool("sev108_get", _schema("sev108_get", {"id": {
        "$ref": "#/$defs/X", "description": "i"}})), hpk108),
    "HPK109": Run(tool("sev109_get", _schema("sev109_get", {"tags": {
        "type": "array", "description": "t"}})), hpk109),
    "HPK111": Run(tool("sev111 get!", toolset="sev111"), hpk111),
    "HPK112": Run(tool("tool_search", toolset="sev112"), hpk112, reported=lambda: HAS_TOOL_SEARCH),
    "HPK113": Run(tool("Sev113Get", toolset="sev113"), hpk113),
    "HPK114": Run(tool("frobnicate", toolset="sev114"), hpk114),
    "HPK115": Run(tool("sev115_get", toolset="file"), hpk115),
    "HPK116": Run(tool("read_file", toolset="sev116"), hpk116),
    "HPK117": Run(tool("memory_sev117", toolset="sev117"), hpk117),
    "HPK118": Run(tool("sev118_get", {**_schema("sev118_get", ID),
                                      "description": "This tool gets it. It reads an item."}),
                  hpk118, reported=lambda: RELEASE.bridge_default),
    "HPK121": Run(tool("sev121_get", handler="narrow"), hpk121,
                  reported=lambda: not RELEASE.narrows_handler_kwargs),
    "HPK122": Run(tool("sev122_get", handler="coro"), hpk122),
    "HPK123": Run(tool("sev123_get", is_async=True), hpk123),
    "HPK124": Run(tool("sev124_get", handler="named"), hpk124,
                  reported=lambda: not RELEASE.narrows_handler_kwargs),
    "HPK125": Run(tool("sev125_get", handler="as_dict"), hpk125),
    "HPK131": Run(tool("sev131_get", handler="raises"), hpk131, command=PROBE),
    "HPK132": Run(tool("sev132_get", handler="as_dict_named"), hpk132, command=PROBE),
    "HPK133": Run(KIT_TOOL, hpk133, command=PROBE),
    "HPK134": Run(tool("sev134_get", handler="sync_coro"), hpk134, command=PROBE),
    "HPK135": Run(tool("sev135_get", handler="forgot_await", is_async=True), hpk135,
                  command=PROBE),
    "HPK201": Run(tool("sev201_get", then=_command("sev_cmd", "lambda raw: 'ran ' + raw")),
                  hpk201),
    "HPK202": Run(tool("sev202_get", then=_command("help", "lambda raw: 'mine'")), hpk202),
    "HPK203": Run(tool("sev203_get", then=_command("sev203", "lambda: 'ran'")), hpk203),
    "HPK204": Run(tool("sev204_get", then=_cli("chat")), cli_broken, alone=True),
    "HPK205": Run(tool("sev205_get", then=_cli("sev205", "None")), cli_broken, alone=True),
    "HPK301": Run(hooked("sev301_get", "pre_tool_call", "def callback(tool_name, args):"),
                  narrow_callback, reported=lambda: not RELEASE.narrows_hook_kwargs),
    "HPK302": Run(hooked("sev302_get", "pre_tool_call", "async def callback(**kwargs):"),
                  async_callback, reported=lambda: not RELEASE.awaits_hooks),
    "HPK303": Run(hooked("sev303_get", "post_tool_use", "def callback(**kwargs):"),
                  callback_never_runs),
    "HPK401": Run(tool("sev401_get", then=SKILL_AT.format(f"{HERE} / 'no' / 'SKILL.md'")),
                  hpk401),
    "HPK502": Run(tool("sev502_get", then="# register_provider(ProviderProfile(...)) one day"),
                  hpk502, manifest=NO_KIND, command=COMPAT),
    "HPK503": Run(tool("sev503_get", then=SKILL_AT.format(f"str({HERE} / 'SKILL.md')")),
                  hpk503, command=COMPAT, files={"SKILL.md": SKILL},
                  reported=lambda: not RELEASE.skill_path_str),
    "HPK504": Run("import sev504.helpers\ndef register(ctx):\n    pass\n", hpk504,
                  command=COMPAT, files={"helpers.py": "X = 1\n"}),
    "HPK507": Run(tool("sev507_get", then=f"if hasattr(ctx, {SECTION!r}):\n"
                       f"    ctx.{SECTION}('sev507', 'Be brief.')\n    mark('section')"),
                  hpk507, reported=lambda: not RELEASE.offers(SECTION)),
    "HPK506": Run(hooked("sev506_get", "pre_llm_cal", "def callback(**kwargs):"),
                  callback_never_runs, command=COMPAT),
    "HPK604": Run(IGNORED_PROVIDER[0] + tool("sev604_get", handler="edge_seen",
                                             then=IGNORED_PROVIDER[1]), hpk604),
    "HPK601": Run("# a register_memory_provider plugin\ndef register(ctx):\n    pass\n", hpk601,
                  manifest=NO_KIND),
    "HPK602": Run(MEMORY_PROVIDER, hpk602, manifest=NO_KIND),
    "HPK605": Run(BROKEN["dict_result"], hpk605, manifest=NO_KIND, command=PROBE),
    "HPK606": Run(BROKEN["blocking_sync"], hpk606, manifest=NO_KIND, command=PROBE),
    "HPK603": Run("# will register_provider(ProviderProfile(...)) one day\n", hpk603,
                  manifest="kind: model-provider\n"),
    "HPK621": Run(engine_source("summary_engine"), broken_contract("context-engine", "compress"),
                  command=PROBE),
    "HPK622": Run(tts_source("bytes_tts"), broken_contract("tts", "synthesize", TTS_OFFERED),
                  command=PROBE, reported=lambda: RELEASE.offers(TTS_OFFERED)),
    "HPK623": Run(stt_source("text_stt"), broken_contract("transcription", "transcribe",
                                                          STT_OFFERED),
                  command=PROBE, reported=lambda: RELEASE.offers(STT_OFFERED)),
    "HPK624": Run(model_source("flat_llm"), broken_contract("model-provider",
                                                            "build_api_kwargs_extras"),
                  manifest="kind: model-provider\n", command=PROBE),
    "HPK608": Run("# a register_cron_scheduler plugin\ndef register(ctx):\n    pass\n", hpk608,
                  reported=has_cron),
    "HPK609": Run(CRON_SCHEDULER, hpk609, reported=has_cron),
}  # fmt: skip

ENTRY_POINTS = {
    "HPK007": "[hermes_agent.plugins]\nsevep007 = sevep007_mod:register\n",
    "HPK008": "[hermes.plugins]\nsevep008 = sevep008_mod\n",
    "HPK019": "[hermes_agent.plugins]\nsev019 = sevep019_mod\n",
}
SHADOWING = {"HPK019"}
"""Entry points that take a plugin directory's name: the directory is checked."""

# -- MODELLED: upstream hermes only -------------------------------------------------------


@dataclass(frozen=True)
class Modelled:
    """Where upstream does it, a plugin that triggers it, and whether a registry release
    loads that plugin (None: not asserted; a str: where the release offers that member)."""

    upstream: str
    init: str
    manifest: str = STANDALONE
    command: tuple[str, ...] = ("check",)
    loads: bool | str | None = True
    reported: Callable[[], bool] = lambda: True
    """Whether the kit reports the rule on the installed release (see ``Run.reported``)."""


def _upstream(
    file: str, where: str, commit: str = "00067189dfecf833d4d009c2dd977ae85cf800e0"
) -> str:
    return f"{file} {where} @{commit}"


_VALIDATE = "hermes_cli/plugin_validate.py"
_MANIFEST = "hermes_cli/plugins_manifest.py"
_DOCTOR = "hermes_cli/plugin_dev.py"
_DOCTOR_COMMIT = "2a7b56dd70106b8c2982c508d6f6f48312e26d8d"
MIDDLEWARE = "def register(ctx):\n    ctx.register_middleware('tool_request', lambda **k: None)\n"
PREFLIGHT = ("preflight",)

MODELLED: dict[str, Modelled] = {
    "HPK012": Modelled(_upstream(_VALIDATE, "L74-121 _check_requires_hermes"),
                       tool("sev012_get"), STANDALONE + "requires_hermes: banana\n"),
    "HPK013": Modelled(_upstream(_MANIFEST, "requires_hermes read with str()"),
                       tool("sev013_get"), STANDALONE + "requires_hermes: 0.19\n"),
    "HPK014": Modelled(_upstream(_MANIFEST, "only upstream enforces requires_hermes"),
                       tool("sev014_get"), STANDALONE + 'requires_hermes: ">=0.21.3"\n',
                       reported=lambda: not enforces(RELEASE)),  # 0.21.3 on reads it
    "HPK015": Modelled(_upstream(_VALIDATE, "L124-154 _check_config_spec"),
                       tool("sev015_get"), STANDALONE + "config_schema: nope\n"),
    "HPK016": Modelled(_upstream(_DOCTOR, "_check_manifest_v2 (loader types: plugins_manifest.py"
                                 " L44-48)", _DOCTOR_COMMIT),
                       tool("sev016_get"), STANDALONE + "config_schema: {{a: {{type: map}}}}\n"),
    "HPK050": Modelled(_upstream(_VALIDATE, "L407-455 validate_plugin_dir"),
                       tool("sev050_get"), "- not a mapping\n", PREFLIGHT, loads=None),
    "HPK051": Modelled(_upstream(_VALIDATE, "L94-105 _check_manifest_fields"),
                       tool("sev051_get"), "name: {name}\nkind: standalone\n", PREFLIGHT),
    "HPK052": Modelled(_upstream(_VALIDATE, "L157-178 _check_requires_env"),
                       tool("sev052_get"), STANDALONE + "requires_env: [lower]\n", PREFLIGHT),
    "HPK053": Modelled(_upstream(_VALIDATE, "L319-363 _check_capabilities"),
                       tool("sev053_get", then="raise RuntimeError('boom')"),
                       command=PREFLIGHT, loads=None),  # hermes disables it: HPK001
    "HPK054": Modelled(_upstream(_VALIDATE, "L319-363 _check_capabilities"),
                       tool("sev054_get"), command=PREFLIGHT),
    "HPK055": Modelled(_upstream(_VALIDATE, "L319-363 _check_capabilities"),
                       tool("sev055_get"), STANDALONE + "provides_tools: [sev055_get, ghost]\n",
                       PREFLIGHT),
    "HPK056": Modelled(_upstream(_VALIDATE, "L382-401 _check_builtin_collisions"),
                       tool("read_file", toolset="sev056"),
                       STANDALONE + "provides_tools: [read_file]\n", PREFLIGHT),
    "HPK057": Modelled(_upstream(_DOCTOR, "doctor_plugin", _DOCTOR_COMMIT),
                       tool("sev057_get"), STANDALONE + "provides_tools: sev057_get\n",
                       PREFLIGHT),
    "HPK501": Modelled(_upstream("hermes_cli/plugin_compat.py", "scan_source"),
                       tool("sev501_get", then='SEEN = "gateway.response_filters.'
                             'SILENT_REPLY_TOKEN"'), command=COMPAT),
    # compat measures a floor only where the plugin loads: a release without middleware
    # refuses this one (HPK001 there, as hermes refuses it), so it has no floor to compare
    "HPK510": Modelled(_upstream(_MANIFEST, "requires_hermes enforced only where written"),
                       MIDDLEWARE, command=COMPAT, loads="register_middleware",
                       reported=lambda: RELEASE.offers("register_middleware")),
    "HPK511": Modelled(_upstream(_MANIFEST, "admits releases below the floor"),
                       MIDDLEWARE, STANDALONE + 'requires_hermes: ">=0.15"\n', COMPAT,
                       loads="register_middleware",
                       reported=lambda: RELEASE.offers("register_middleware")),
}  # fmt: skip


# -- KIT_OWN: the kit's reports -----------------------------------------------------------

KIT_OWN: dict[str, str] = {
    "HPK060": "preflight --scan relays hermes' own install scan: a critical finding is what"
    " should_allow_plugin_install refuses (tests/host/test_install_scan.py runs it)",
    "HPK061": "preflight --scan relays hermes' own install scan: a high finding is what the"
    " installer asks about (tests/host/test_install_scan.py)",
    "HPK063": "preflight --catalog-entry relays hermes' catalogue loader: an entry"
    " entry_from_mapping refuses is dropped from the catalogue (tests/host/test_catalog_entry.py"
    " reads every example's entry with the loader of each release that has it)",
    "HPK064": "preflight --catalog-entry relays git: a pin the repository lacks, or no remote"
    " branch holds, is a commit hermes' installer cannot check out"
    " (tests/kit_devtools/test_catalog_pin.py)",
    "HPK065": "the catalogue's pin-maturity rule is a reviewer's (plugin-catalog/README.md"
    " rule 3), not the loader's: a warning",
    "HPK066": "the entry's capabilities come from the working tree, which differs from the"
    " pin: admission compares them at the pin, so a warning to pin what was checked",
    "HPK067": "hermes' catalogue loader keeps the entry and drops the field it logs: a"
    " warning, as the entry is listed",
    "HPK068": "preflight --every-release could not run on a claimed release (its environment"
    " could not be made, or holds another release): a warning, since no verdict of that"
    " release is given",
    "HPK062": "preflight --scan could not run hermes' install scanner, or ran the pattern"
    " engine as an approximation: a warning, since no verdict of hermes' is given",
    "HPK010": "check --real: hermes' loader and the kit's in-memory host disagree; a defect of"
    " the kit's model, reported against the kit, not a refusal of hermes",
    "HPK011": "check --real could not ask hermes (not installed, or hermes itself failed); the"
    " in-memory verdict stands alone",
    "HPK018": "the plugin needs a hermes module that is not installed where the kit runs: in"
    " hermes the module is there, the check could not be made here",
    "HPK020": "the kit refuses to read a manifest past its own bounds (size, YAML aliases):"
    " hermes reads it unbounded, so there is no verdict of hermes' to pin; an error, so that"
    " no gate passes a plugin the kit could not read",
    "HPK058": "relays an error of hermes' own command (validate, doctor) run on the plugin:"
    " hermes' verdict, not a rule of the kit's",
    "HPK059": "relays a warning of hermes' own command run on the plugin",
    "HPK607": "the contract suite could not drive the memory provider where check runs"
    " (is_available() is not True there): a report about the check, not about hermes",
}

# -- the plugins on disk, and the shared hermes -------------------------------------------


def folder(rule: str) -> str:
    return rule.lower().replace("hpk", "sev")


def write_plugin(root: Path, rule: str, init: str, manifest: str, files: Mapping[str, str]) -> Path:
    directory = root / folder(rule)
    directory.mkdir(parents=True)
    (directory / "__init__.py").write_text(init, encoding="utf-8")
    (directory / "plugin.yaml").write_text(manifest.format(name=directory.name), encoding="utf-8")
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


@dataclass(frozen=True)
class Shared:
    host: RealHost
    plugins: Mapping[Path, RealPlugin]
    directories: Mapping[str, Path]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    """Every RUNS and MODELLED plugin that does not disturb the others, in one hermes."""
    root = tmp_path_factory.mktemp("severity")
    directories: dict[str, Path] = {}
    for rule, run in RUNS.items():
        directories[rule] = write_plugin(root, rule, run.init, run.manifest, run.files)
    for rule, modelled in MODELLED.items():
        directories[rule] = write_plugin(root, rule, modelled.init, modelled.manifest, {})
    together = [
        d for r, d in directories.items() if not (r in RUNS and RUNS[r].alone) and r != "HPK050"
    ]
    with RealHost() as host:
        plugins = host.load_all(together)
        yield Shared(host, plugins, directories)


def reported(
    command: tuple[str, ...], target: str, capsys: pytest.CaptureFixture[str]
) -> dict[str, str]:
    """Rule -> severity of what the kit reports on ``target``."""
    capsys.readouterr()
    verb, *extra = command
    if verb == "check":
        main(["check", target, "--format", "json", *extra])
    else:
        main([verb, target, "--json", *extra])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return {f["rule"]: f["severity"] for f in report["findings"]}


def entry_point_dist(root: Path, rule: str) -> Path:
    """A site folder with an installed distribution declaring the rule's entry point."""
    name = folder(rule).replace("sev", "sevep")
    site = root / f"{name}-site"
    info = site / f"{name}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS[rule], encoding="utf-8")
    (site / f"{name}_mod.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    return site


@pytest.mark.parametrize("rule", sorted(RUNS))
def test_the_installed_hermes_does_what_the_severity_says(
    rule: str,
    shared: Shared,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = RUNS[rule]
    directory = shared.directories[rule]
    target = str(directory)
    if rule in ENTRY_POINTS:
        site = entry_point_dist(tmp_path, rule)
        monkeypatch.syspath_prepend(str(site))
        monkeypatch.setenv("PYTHONPATH", str(site))
        if rule not in SHADOWING:
            directory = tmp_path / folder(rule).replace("sev", "sevep")
            target = directory.name
    found = reported(run.command, target, capsys)
    if run.reported():
        assert found.get(rule) == RULES[rule].severity.value, found
    else:
        assert rule not in found, found
    run.expect(Seen(shared.plugins.get(directory.resolve()), shared.host, directory))


def relaying(upstream: str) -> str:
    """The hermes command whose rule a MODELLED entry cites (``validate`` or ``doctor``)."""
    return "hermes plugins doctor" if upstream.startswith(_DOCTOR) else "hermes plugins validate"


@pytest.mark.parametrize("rule", sorted(MODELLED))
def test_upstream_rules_are_reported_with_their_severity(
    rule: str, shared: Shared, capsys: pytest.CaptureFixture[str]
) -> None:
    modelled = MODELLED[rule]
    assert "@" in modelled.upstream, modelled.upstream
    found = reported(modelled.command, str(shared.directories[rule]), capsys)
    if modelled.command == PREFLIGHT and relaying(modelled.upstream) in upstream_available():
        # the release has the hermes command whose rule this is (validate from 0.21.3,
        # doctor from 0.20.1): preflight relays its verdict, an error as HPK058 and a
        # warning as HPK059, which must be what the rule says
        relayed = "HPK058" if RULES[rule].severity is E else "HPK059"
        assert found.get(relayed) == RULES[relayed].severity.value, found
        if RULES[rule].severity is not E:
            assert "HPK058" not in found, found
    # the kit's own rules stand on every release, beside what hermes' commands say
    if modelled.reported():
        assert found.get(rule) == RULES[rule].severity.value, found
    else:
        assert rule not in found, found
    loads = modelled.loads
    if isinstance(loads, str):
        loads = RELEASE.offers(loads)
    if loads:  # the error is upstream's (its catalogue or loader): this hermes loads it
        plugin = shared.plugins.get(shared.directories[rule].resolve())
        assert plugin is not None
        assert plugin.enabled, plugin.error


def test_every_rule_is_in_exactly_one_table() -> None:
    tables = [set(RUNS), set(MODELLED), set(KIT_OWN)]
    assert set().union(*tables) == set(RULES)
    assert sum(len(t) for t in tables) == len(RULES)


RELAYED = frozenset({"HPK010", "HPK058", "HPK060", "HPK063", "HPK064"})
"""The kit's own errors that carry hermes' verdict itself (its loader's, its command's,
its catalogue loader's) or git's on a pin: pinned by the run that produced them, not by a
plugin of this file."""
UNREAD = frozenset({"HPK020"})
"""The kit's own error for input it does not read at all (past its bounds): no verdict of
hermes' exists to pin it to, and a warning would let a gate pass unread."""


def test_every_error_is_pinned_against_hermes_or_upstream() -> None:
    errors = {rule for rule, r in RULES.items() if r.severity is E}
    assert set(KIT_OWN) >= RELAYED | UNREAD
    unpinned = errors - set(RUNS) - set(MODELLED) - RELAYED - UNREAD
    assert not unpinned, sorted(unpinned)
