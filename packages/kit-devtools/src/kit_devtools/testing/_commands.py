"""Slash and terminal commands as hermes runs them (``resolve_plugin_command_result``; the
plugin subparsers of ``hermes`` and its final ``args.func(args)``), and :func:`on_worker`,
the bounded worker thread awaiting a command and running a bounded hook share."""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import inspect
import threading
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import Any, Final, cast

from kit_devtools.testing.entries import CliCommandEntry

COMMAND_AWAIT_TIMEOUT_SECONDS: Final = 30.0


def resolve_command_result(result: Any) -> Any:
    """Await an async command handler's result (in a helper thread, for at most 30 s,
    when a loop is already running); any other value comes back as it is."""
    if not inspect.isawaitable(result):
        return result
    coroutine = cast("Coroutine[Any, Any, Any]", result)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    name, timeout = "hermes-plugin-command-await", COMMAND_AWAIT_TIMEOUT_SECONDS
    outcome = on_worker(lambda: asyncio.run(coroutine), timeout, name)
    if outcome is TIMED_OUT:
        msg = f"Plugin command async handler did not complete within {timeout:.0f}s"
        raise TimeoutError(msg)
    return outcome


TIMED_OUT: Final = object()


def on_worker(call: Callable[[], Any], timeout: float, name: str, *, copy: bool = False) -> Any:
    """``call()`` on a daemon thread ``name`` (in a copy of this context if ``copy``): what
    it returns or raises, or :data:`TIMED_OUT` when it still runs after ``timeout`` seconds
    (the thread is abandoned, never joined)."""
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:
            outcome["exc"] = exc
        finally:
            done.set()

    target = contextvars.copy_context().run if copy else run
    threading.Thread(target=target, args=(run,) if copy else (), daemon=True, name=name).start()
    if not done.wait(timeout):
        return TIMED_OUT
    if "exc" in outcome:
        raise outcome["exc"]
    return outcome.get("value")


def unknown_command(name: str, known: Iterable[str], builtin: bool) -> KeyError:
    """The KeyError ``run_command`` raises for a name no plugin registered."""
    registered = ", ".join(f"/{n}" for n in sorted(known)) or "none"
    why = " (a built-in hermes command: plugins cannot register it)" if builtin else ""
    return KeyError(f"no plugin command /{name}{why}; registered: {registered}")


def build_parser(commands: Mapping[str, CliCommandEntry]) -> argparse.ArgumentParser:
    """``hermes``'s parser with one subparser per plugin terminal command."""
    parser = argparse.ArgumentParser(prog="hermes")
    subparsers = parser.add_subparsers(dest="command", help="Command to run")
    for entry in commands.values():
        sub = subparsers.add_parser(
            entry.name,
            help=entry.help,
            description=entry.description,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        entry.setup_fn(sub)
        if entry.handler_fn is not None:
            sub.set_defaults(func=entry.handler_fn)
    return parser


def run_cli(commands: Mapping[str, CliCommandEntry], argv: list[str]) -> Any:
    """Parse ``argv`` as ``hermes <argv>`` and call ``args.func(args)``, as ``main()`` does.

    Without a handler (or a command) the help is printed, as ``main()`` does, and None
    returned; argparse errors exit with ``SystemExit`` as they do in the real CLI.
    """
    parser = build_parser(commands)
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return None
    return func(args)
