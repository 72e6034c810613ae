"""``hermes-plugin-kit``: check, compat, preflight, call, new and doctor, for hermes-agent plugin
authors.

Also ``python -m kit_devtools``. Exit status: 0 when all is well, 1 when ``check``
or ``compat`` found errors (or ``doctor`` a problem), 2 when the command itself could not run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
import threading
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from kit_core._host_model import HostRelease, installed_release
from kit_devtools.cli._chat_turn import delivered_lines, simulate_chat_turn
from kit_devtools.cli._cron_rules import cron_provider_of
from kit_devtools.cli._doctor import doctor
from kit_devtools.cli._isolated import MAX_TIMEOUT
from kit_devtools.cli._memory_contract import memory_contract_findings
from kit_devtools.cli._output import emit, reports_on_stdout
from kit_devtools.cli._preflight_command import add_parser as add_preflight
from kit_devtools.cli._report import as_json, as_text, counts, host_report, inventory
from kit_devtools.cli._scaffold import KINDS, scaffold
from kit_devtools.cli._target import Target, resolve_target
from kit_devtools.cli.findings import Finding, Severity
from kit_devtools.cli.lint import (
    lint_plugin,
    memory_provider_of,
    model_provider_of,
    probe_tools,
)
from kit_devtools.testing import InMemoryHost, LoadedPlugin, ModelProviderLoad
from kit_devtools.testing._cron_provider import CronProviderLoad
from kit_devtools.testing._manifest import has_manifest
from kit_devtools.testing._memory_provider import MemoryProviderLoad
from kit_devtools.testing.host_names import MODELLED, profile
from kit_devtools.testing.real import TIMEOUT as REAL_TIMEOUT

__all__ = ["Finding", "Severity", "main"]

RECEIPT_PREFIX = "hermes_plugin_kit: registered"
HERMES_HELP = (
    f"the release the in-memory host plays: {MODELLED.version} (the default: the installed"
    " one, else the newest), any release of the host model (0.13.0 ... 0.22.2), a series"
    " (0.21: its newest) or newest"
)


class _Receipts(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(RECEIPT_PREFIX):
            self.lines.append(message)


@contextlib.contextmanager
def _capture_receipts() -> Generator[list[str], None, None]:
    root = logging.getLogger()
    handler, level = _Receipts(), root.level
    root.addHandler(handler)
    root.setLevel(min(level, logging.INFO) if level else logging.INFO)
    try:
        yield handler.lines
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


@contextlib.contextmanager
def _quiet_logs() -> Generator[None, None, None]:
    root = logging.getLogger()
    handler = logging.NullHandler()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


def _load(target: Target, hermes: str | None) -> tuple[InMemoryHost, LoadedPlugin, list[str]]:
    if target.load is None:
        msg = "nothing to load"
        raise ValueError(msg)
    host = InMemoryHost(hermes=hermes)
    with _capture_receipts() as receipts:
        plugin = host.load(target.load, key=target.key)
    return host, plugin, receipts


def _fail(message: str) -> int:
    print(f"hermes-plugin-kit: {message}", file=sys.stderr)
    return 2


def _release(args: argparse.Namespace) -> HostRelease | str:
    """The release ``--hermes`` names, or why it cannot be played."""
    try:
        release = profile(args.hermes)
    except ValueError as exc:
        return str(exc)
    if getattr(args, "real", False) and args.hermes is not None:
        installed = installed_release()
        if installed is None or installed.version != release.version:
            here = installed.label if installed is not None else "no hermes"
            return (
                f"--real runs the hermes installed here ({here}), not {release.label}:"
                " drop --hermes, or install that release (pytest --hermes runs it)"
            )
    return release


def _check(args: argparse.Namespace) -> int:
    release = _release(args)
    if isinstance(release, str):
        return _fail(release)
    target = resolve_target(args.target, release)
    if target.problem is not None:
        return _fail(target.problem)
    findings = list(target.findings)
    data: dict[str, Any] = {"plugin": _unloaded(target, args.target),
                            "tools": [], "commands": [], "cli_commands": [], "middleware": [],
                            "hooks": [], "skills": [], "provisions": {},
                            "host": host_report(release)}  # fmt: skip
    receipts: list[str] = []
    if target.load is not None:
        try:
            host, plugin, receipts = _load(target, args.hermes)
        except Exception as exc:
            from kit_devtools.cli.rules import finding

            findings.append(
                finding("HPK003", f"plugin {args.target}", error=f"{type(exc).__name__}: {exc}")
            )
        else:
            memory = memory_provider_of(host, plugin)
            model = model_provider_of(host, plugin)
            cron = cron_provider_of(host, plugin)
            data = inventory(host, plugin, memory, model, cron)
            findings += lint_plugin(host, plugin, memory, model, cron)
            if args.probe:
                with _quiet_logs():  # the kit logs each refused probe call; the findings say it
                    findings += probe_tools(host, plugin)
                if memory is not None and memory.provider is not None:
                    # the contract drives everything HPK602 reads, and says it per member
                    findings = [f for f in findings if f.rule != "HPK602"]
                    findings += memory_contract_findings(host, plugin, memory.name or plugin.key)
                findings += _contract_findings(host, plugin, model)
            if args.real:
                findings += real_findings(target, plugin, args.timeout, memory, cron)
    render = as_json if args.format == "json" else as_text
    emit(render(data, receipts, findings))
    return 1 if counts(findings)[0] else 0


def _contract_findings(
    host: InMemoryHost, plugin: LoadedPlugin, model: ModelProviderLoad | None
) -> list[Finding]:
    """``--probe``: the contract suite of each provider the plugin registered."""
    from kit_devtools.cli._provider_contracts import provider_contract_findings

    return provider_contract_findings(host, plugin, model)


def _unloaded(target: Target, named: str) -> dict[str, Any]:
    """The report's ``plugin`` for a target the in-memory host could not load at all:
    what TARGET named, as far as it is known."""
    directory = target.load if isinstance(target.load, Path) else None
    source = "directory" if directory else "entrypoint" if target.entry_point else "module"
    key = target.key or named
    path = str(directory) if directory else None
    return {"key": key, "name": key, "source": source, "path": path, "enabled": False,
            "error": None}  # fmt: skip


def real_findings(
    target: Target,
    plugin: LoadedPlugin,
    timeout: float,
    memory: MemoryProviderLoad | None = None,
    cron: CronProviderLoad | None = None,
) -> list[Finding]:
    """``--real``: hermes' own verdict on a plugin directory or an installed entry point,
    against the in-memory one; for a memory-provider folder (``memory``: what the in-memory
    host's memory discovery got), hermes' memory discovery's too, plugin.yaml or not, and
    for a cron scheduler folder (``cron``) its cron discovery's. An
    entry point with a defect hermes does not load (HPK007, HPK008) was checked as if
    fixed: there hermes agrees when it does not load it. hermes that does not start or
    answer within ``timeout`` seconds is HPK011."""
    from kit_devtools.cli._real import cron_disagreements, memory_disagreements, real_verdicts
    from kit_devtools.cli.rules import finding

    where = f"plugin {plugin.key}"
    if target.entry_point is not None:
        real = real_verdicts(None, target.entry_point, timeout)
    elif isinstance(target.load, Path):
        real = real_verdicts(
            target.load, plugin.name, timeout, memory=memory is not None, cron=cron is not None
        )
    else:
        why = "--real loads plugin directories and entry points, not modules"
        return [finding("HPK011", where, why=why)]
    found, differences = _general_real(target, plugin, real.general)
    if memory is not None:
        differences += memory_disagreements(real.memory, memory)
    if cron is not None:
        differences += cron_disagreements(real.cron, cron)
    if differences:
        found.append(finding("HPK010", where, differences="; ".join(differences)))
    return found


def _general_real(
    target: Target, plugin: LoadedPlugin, real: dict[str, Any] | str
) -> tuple[list[Finding], list[str]]:
    """What ``--real`` finds of hermes' general loader's verdict: findings, and the
    differences from the in-memory host (HPK010's). A folder without a manifest hermes'
    general loader never discovers, as the in-memory host never loads it: only its memory
    or cron discovery reads such a folder."""
    from kit_devtools.cli._real import NOT_DISCOVERED, disagreements
    from kit_devtools.cli.rules import finding

    where = f"plugin {plugin.key}"
    unloadable = [f.rule for f in target.findings if f.severity is Severity.ERROR]
    if unloadable:
        if isinstance(real, str) and real != NOT_DISCOVERED:
            return [finding("HPK011", where, why=real)], []
        if isinstance(real, dict) and real.get("enabled"):
            return [], [f"enabled: hermes True, {'/'.join(unloadable)} says it never loads"]
        return [], []
    if real == NOT_DISCOVERED and isinstance(target.load, Path) and not has_manifest(target.load):
        return [], []
    if isinstance(real, str):
        return [finding("HPK011", where, why=real)], []
    return [], disagreements(real, plugin)


def _compat(args: argparse.Namespace) -> int:
    from kit_devtools.cli.compat import compat_report, render_json, render_text

    target = resolve_target(args.target)
    if target.problem is not None:
        return _fail(target.problem)
    try:
        data, findings = compat_report(target)
    except LookupError as exc:
        return _fail(str(exc))
    emit(render_json(data, findings) if args.json else render_text(data, findings))
    return 1 if counts(findings)[0] else 0


def _call(args: argparse.Namespace) -> int:
    target = resolve_target(args.target)
    if target.problem is not None or target.load is None or target.findings:
        problem = target.problem or "; ".join(f.line() for f in target.findings)
        return _fail(problem)
    try:
        tool_args = json.loads(args.args)
    except ValueError as exc:
        return _fail(f"--args is not JSON ({exc}); pass an object, e.g. --args '{{\"q\": 1}}'")
    release = _release(args)
    if isinstance(release, str):
        return _fail(release)
    host, plugin, _ = _load(target, args.hermes)
    if args.tool not in host.tools:
        listed = ", ".join(sorted(plugin.tools)) or "none"
        return _fail(f"{args.tool!r} is not a tool of {plugin.key} (its tools: {listed})")
    simulate_chat_turn(host, args.session_id)
    out = host.call_tool(args.tool, tool_args, task_id=args.task_id, session_id=args.session_id)
    from kit_devtools.cli._model_view import model_view

    shown, note = model_view(out)
    emit(shown)
    if note is not None:
        print(note, file=sys.stderr)
    for line in delivered_lines(host):  # beside the report: stdout stays the tool's result
        print(line, file=sys.stderr)
    return 0


def _new(args: argparse.Namespace) -> int:
    try:
        written = scaffold(args.name, Path(args.directory), args.kit_source, args.kind)
    except ValueError as exc:
        return _fail(str(exc))
    root = Path(args.directory) / args.name
    for path in written:
        emit(str(path.relative_to(root.parent)))
    package = args.name.replace("-", "_")
    emit(f"\nnext: cd {root} && uv run python -m pytest")
    emit(f"      uv run hermes-plugin-kit check src/{package}")
    return 0


def _doctor(_: argparse.Namespace) -> int:
    lines, ok = doctor()
    emit("\n".join(lines))
    return 0 if ok else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hermes-plugin-kit", description="Check, call and scaffold hermes-agent plugins."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="load a plugin into the in-memory host and lint it")
    check.add_argument("target", help="plugin directory, importable module, or entry-point name")
    check.add_argument(
        "--probe", action="store_true", help="also call each tool, with {} and built arguments"
    )
    check.add_argument(
        "--real",
        action="store_true",
        help="also load the plugin directory or entry point through hermes' own plugin"
        " manager (hermes-agent installed) and report where it disagrees with the in-memory"
        " host",
    )
    check.add_argument(
        "--timeout",
        type=_seconds,
        default=REAL_TIMEOUT,
        metavar="SECONDS",
        help=f"with --real: how long hermes may take to start, or to load the plugin, before"
        f" it is stopped and HPK011 says so (default {REAL_TIMEOUT:g})",
    )
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--hermes", default=None, help=HERMES_HELP)
    check.set_defaults(run=_check)
    compat = sub.add_parser(
        "compat",
        help="the oldest hermes release the plugin runs on, against its requires_hermes, and"
        " what stops it loading on some hermes",
    )
    compat.add_argument("target", help="plugin directory, importable module, or entry-point name")
    compat.add_argument("--json", action="store_true", help="print the report as JSON")
    compat.set_defaults(run=_compat)
    add_preflight(sub)
    call = sub.add_parser("call", help="run one tool through the in-memory host's pipeline")
    call.add_argument("target")
    call.add_argument("tool")
    call.add_argument("--args", default="{}", help="the tool's arguments as a JSON object")
    call.add_argument("--session-id", default="cli")
    call.add_argument("--task-id", default="cli")
    call.add_argument("--hermes", default=None, help=HERMES_HELP)
    call.set_defaults(run=_call)
    new = sub.add_parser("new", help="scaffold a plugin project")
    new.add_argument("name", help="lowercase kebab-case plugin name")
    new.add_argument("--directory", default=".", help="where to create it (default: here)")
    new.add_argument("--kit-source", choices=("auto", "git", "path"), default="auto")
    kinds = ", ".join(KINDS)
    new.add_argument("--kind", default="standalone", help=f"one of {kinds} (default standalone)")
    new.set_defaults(run=_new)
    sub.add_parser("doctor", help="kit and host versions, and what they mean").set_defaults(
        run=_doctor
    )
    return parser


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= MAX_TIMEOUT:
        msg = f"{text!r} is not a number of seconds above 0, at most {MAX_TIMEOUT:g}"
        raise argparse.ArgumentTypeError(msg)
    return value


def console() -> NoReturn:
    """The ``hermes-plugin-kit`` command. A command that runs plugin code runs it in a
    child process (:mod:`kit_devtools.cli._isolated`): ``--network`` lets that code open
    internet connections, ``--pass-env NAME`` gives it the variable's real value."""
    from kit_devtools.cli._isolated import ISOLATED, run_isolated

    argv, pass_env, network = _outer_options(sys.argv[1:])
    command = next((a for a in argv if not a.startswith("-")), None)
    if command in ISOLATED and os.environ.get("HPK_ISOLATED") != "1":
        _parser().parse_args(argv)  # a usage error is told here, not as a child that died
        finish(run_isolated(argv, pass_env=pass_env, network=network))
    finish(main(argv))


def _outer_options(argv: list[str]) -> tuple[list[str], list[str], bool]:
    """``argv`` without ``--network`` and ``--pass-env NAME``, and what they said."""
    rest: list[str] = []
    passed: list[str] = []
    network = False
    items = iter(argv)
    for item in items:
        if item == "--network":
            network = True
        elif item == "--pass-env":
            passed.append(next(items, ""))
        elif item.startswith("--pass-env="):
            passed.append(item.partition("=")[2])
        else:
            rest.append(item)
    return rest, [p for p in passed if p], network


def finish(status: int) -> NoReturn:
    """Exit with ``status``, also where plugin code left a thread running that is no
    daemon (Python would wait for it at exit, and the command would never end)."""
    sys.stdout.flush()
    sys.stderr.flush()
    main_thread = threading.main_thread()
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not main_thread):
        logging.shutdown()
        os._exit(status)
    sys.exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    with reports_on_stdout():
        return int(args.run(args))
