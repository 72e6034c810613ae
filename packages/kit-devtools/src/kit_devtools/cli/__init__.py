"""``hermes-plugin-kit``: check, compat, preflight, call, new and doctor, for hermes-agent plugin
authors.

Also ``python -m kit_devtools``. Exit status: 0 when all is well, 1 when ``check``
or ``compat`` found errors (or ``doctor`` a problem), 2 when the command itself could not run.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from kit_core.hermes import CATALOG_CATEGORIES, known_releases
from kit_devtools.cli._doctor import doctor
from kit_devtools.cli._isolated import MAX_TIMEOUT
from kit_devtools.cli._output import emit, refuse, reports_on_stdout
from kit_devtools.cli._scaffold import KINDS, scaffold
from kit_devtools.cli.findings import Finding, Severity
from kit_devtools.testing.host_names import MODELLED
from kit_devtools.testing.real import TIMEOUT as REAL_TIMEOUT

__all__ = ["Finding", "Severity", "main"]

HERMES_HELP = (
    f"the release the in-memory host plays: {MODELLED.version} (the default: the installed"
    f" one, else the newest), any release of the host model ({known_releases()[0].version}"
    f" ... {known_releases()[-1].version}), a series (0.21: its newest) or newest"
)


def _new(args: argparse.Namespace) -> int:
    try:
        written = scaffold(args.name, Path(args.directory), args.kit_source, args.kind)
    except ValueError as exc:
        return refuse(str(exc))
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


def _lazy(module: str, command: str) -> Callable[[argparse.Namespace], int]:
    """The function ``command`` of ``kit_devtools.cli.<module>``, imported when it runs:
    ``--help``, ``new`` and ``doctor`` never load the in-memory host (``check``,
    ``compat``, ``call`` and ``preflight`` do)."""

    def run(args: argparse.Namespace) -> int:
        found: Callable[[argparse.Namespace], int] = getattr(
            importlib.import_module(f"{__name__}.{module}"), command
        )
        return found(args)

    return run


def _add_preflight(sub: Any) -> None:
    """Register ``preflight`` on the command line's subparsers."""
    parser = sub.add_parser(
        "preflight",
        help="catalogue admission: hermes plugins validate's rules (upstream's own when"
        " the installed hermes has it)",
    )
    parser.add_argument("directory", help="the plugin directory (plugin.yaml, __init__.py)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--write",
        action="store_true",
        help="first set provides_tools/provides_hooks/provides_middleware in plugin.yaml to"
        " what the plugin registers (other lines and comments are kept)",
    )
    parser.add_argument(
        "--scan",
        action="store_true",
        help="also run hermes' own install scan on the plugin tree (the scanner of the"
        " installed hermes, else of the newest cached release that has one)",
    )
    parser.add_argument(
        "--scan-with",
        metavar="RELEASE",
        help="run the install scan with this hermes release's scanner, in its cached"
        " environment (made with uv if missing): a release, a series (its newest release)"
        " or newest",
    )
    parser.add_argument(
        "--catalog-entry",
        metavar="OUT",
        help="also write the plugin-catalog/<name>.yaml entry hermes' catalogue takes to OUT"
        " (a file, or a directory to write <name>.yaml in), read it back with hermes'"
        " catalogue loader and check its pin",
    )
    parser.add_argument("--repo", help="the entry's https:// repository (default: git origin)")
    parser.add_argument("--sha", help="the commit to pin (default: git HEAD)")
    parser.add_argument("--maintainer", help="the entry's maintainer (default: the repo owner)")
    parser.add_argument(
        "--category",
        choices=CATALOG_CATEGORIES,
        help="the catalogue shelf (default: from the manifest's kind, tools for most)",
    )
    parser.add_argument(
        "--every-release",
        action="store_true",
        help="also run preflight and check on each real hermes release requires_hermes"
        " admits, in its cached environment (made with uv if missing)",
    )
    parser.add_argument(
        "--ci-workflow",
        action="store_true",
        help="print a GitHub Actions workflow running check, the tests on the oldest and"
        " newest hermes, and preflight; check nothing",
    )
    parser.set_defaults(run=_lazy("_preflight_command", "run"))


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
    check.set_defaults(run=_lazy("_commands", "check"))
    compat = sub.add_parser(
        "compat",
        help="the oldest hermes release the plugin runs on, against its requires_hermes, and"
        " what stops it loading on some hermes",
    )
    compat.add_argument("target", help="plugin directory, importable module, or entry-point name")
    compat.add_argument("--json", action="store_true", help="print the report as JSON")
    compat.set_defaults(run=_lazy("_commands", "compat"))
    _add_preflight(sub)
    call = sub.add_parser("call", help="run one tool through the in-memory host's pipeline")
    call.add_argument("target")
    call.add_argument("tool")
    call.add_argument("--args", default="{}", help="the tool's arguments as a JSON object")
    call.add_argument("--session-id", default="cli")
    call.add_argument("--task-id", default="cli")
    call.add_argument("--hermes", default=None, help=HERMES_HELP)
    call.set_defaults(run=_lazy("_commands", "call"))
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
