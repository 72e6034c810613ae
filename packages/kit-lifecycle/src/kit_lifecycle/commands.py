"""``@command``: slash commands inside a session and ``hermes <name>`` terminal commands.

Type checkers see a decorated handler's own parameters, and what the wrapper returns:
``str | None`` for a slash command (a coroutine resolving to one for ``async def``), the
handler's own result for a CLI command. Its :class:`CommandSpec` is read with
:func:`kit_core.declaration_of`.
"""

from __future__ import annotations

import enum
import functools
import inspect
import json
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Final,
    Literal,
    ParamSpec,
    Protocol,
    TypeVar,
    overload,
)

from kit_core import Declaration, declare, redact_text
from kit_core._annotations import signature_of
from kit_lifecycle._callbacks import is_async
from kit_lifecycle._observe import log_outcome
from kit_lifecycle._secrets import EnvSecrets, attach, check_env_names, scrub
from kit_lifecycle._spans import builtin_on, span
from kit_lifecycle.errors import DeclarationError

if TYPE_CHECKING:  # annotations only: argparse costs every plugin that imports the kit
    import argparse

__all__ = ["CommandSpec", "CommandType", "command"]

_KEBAB: Final = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_P = ParamSpec("_P")
_R = TypeVar("_R")


class CommandType(enum.StrEnum):
    """Where a command runs."""

    SLASH = "slash"
    """``/name args`` inside a session (CLI, TUI and the messaging gateway)."""
    CLI = "cli"
    """``hermes name ...`` in a terminal."""


@dataclass(frozen=True, slots=True)
class CommandSpec(Declaration):
    """A command declaration, with the fields the host's registrars take."""

    surface: ClassVar[str] = "command"
    name: str
    type: CommandType
    description: str
    args_hint: str
    help: str
    handler: Callable[..., Any] = field(repr=False)
    setup_fn: Callable[[argparse.ArgumentParser], Any] | None = field(repr=False)


class SlashCommandDecorator(Protocol):
    """What ``command(...)`` returns for a slash command: the handler keeps its
    parameters and answers ``str | None`` (awaitable for ``async def``)."""

    # A handler annotated `-> Any` matches both; annotate it with what it returns.
    @overload
    def __call__(  # pyright: ignore[reportOverlappingOverload]
        self, fn: Callable[_P, Coroutine[Any, Any, object]], /
    ) -> Callable[_P, Coroutine[Any, Any, str | None]]: ...
    @overload
    def __call__(self, fn: Callable[_P, object], /) -> Callable[_P, str | None]: ...


class CliCommandDecorator(Protocol):
    """What ``command(..., type=CommandType.CLI)`` returns: the handler as it is typed."""

    def __call__(self, fn: Callable[_P, _R], /) -> Callable[_P, _R]: ...


class CommandDecorator(Protocol):
    """What ``command(...)`` returns when the command type is known only at run time."""

    def __call__(self, fn: Callable[_P, object], /) -> Callable[_P, Any]: ...


def _type(value: object) -> CommandType:
    if isinstance(value, CommandType):
        return value
    if isinstance(value, str):
        try:
            return CommandType(value.strip().lower())
        except ValueError:
            pass
        msg = f"command type must be 'slash' or 'cli' (CommandType.SLASH/CLI), got {value!r}"
        raise DeclarationError(msg)
    msg = f"command type must be a CommandType or 'slash'/'cli', got {type(value).__name__}"
    raise DeclarationError(msg)


def _check_name(name: object, kind: CommandType) -> str:
    if not isinstance(name, str) or not _KEBAB.fullmatch(name):
        fixed = re.sub(r"[^a-z0-9]+", "-", str(name).strip().lstrip("/").lower()).strip("-")
        hint = f"; for example {fixed!r}" if fixed and _KEBAB.fullmatch(fixed) else ""
        msg = (
            f"command name {name!r} must be a bare lowercase kebab-case name matching"
            f" {_KEBAB.pattern} (no '/', '_', spaces or leading digit){hint}. Messaging"
            " platforms look commands up with '_' turned into '-'"
        )
        raise DeclarationError(msg)
    if kind is CommandType.SLASH and (on := builtin_on(lambda r: name in r.slash_commands)):
        msg = (
            f"/{name} is a built-in hermes command (or alias) on {span(on)}: the host would"
            f" skip yours with only a warning. Choose a plugin-specific name, e.g."
            f" 'myplugin-{name}'"
        )
        raise DeclarationError(msg)
    if kind is CommandType.CLI and (on := builtin_on(lambda r: name in r.cli_commands)):
        msg = (
            f"'hermes {name}' is a built-in subcommand on {span(on)}: the host only looks for"
            f" plugin commands when the first word is not one. Choose another name, e.g."
            f" 'myplugin-{name}'"
        )
        raise DeclarationError(msg)
    return name


def _text(label: str, key: str, value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        msg = f"{label}: {key} must be a str, got {type(value).__name__}"
        raise DeclarationError(msg)
    return value


def _check_options(
    label: str, kind: CommandType, args_hint: str, help_: str | None, setup_fn: object
) -> None:
    if kind is CommandType.SLASH:
        if help_ is not None:
            msg = f"{label}: command help is only valid for CLI commands (type=CommandType.CLI)"
            raise DeclarationError(msg)
        if setup_fn is not None:
            msg = f"{label}: command setup_fn is only valid for CLI commands (type=CommandType.CLI)"
            raise DeclarationError(msg)
        return
    if args_hint.strip():
        msg = (
            f"{label}: command args_hint is only valid for slash commands; describe CLI"
            " arguments in setup_fn"
        )
        raise DeclarationError(msg)
    if setup_fn is not None and (not callable(setup_fn) or is_async(setup_fn)):
        msg = f"{label}: setup_fn must be a synchronous function taking the argparse subparser"
        raise DeclarationError(msg)


def _check_handler(label: str, kind: CommandType, fn: object) -> None:
    if not callable(fn):
        msg = f"{label}: @command must decorate a function, got {type(fn).__name__}"
        raise DeclarationError(msg)
    if kind is CommandType.CLI and is_async(fn):
        msg = (
            f"{label}: CLI command handlers must be synchronous: hermes calls"
            " args.func(args) and never awaits it"
        )
        raise DeclarationError(msg)
    try:
        signature_of(fn).bind("raw")
    except TypeError:
        what = "the raw text after the command" if kind is CommandType.SLASH else "the Namespace"
        msg = f"{label}: the handler must take one positional argument ({what})"
        raise DeclarationError(msg) from None
    except ValueError:
        pass


def _as_reply(result: Any) -> str | None:
    if result is None or isinstance(result, str):
        return result
    try:
        return json.dumps(result, ensure_ascii=False, default=str)
    except Exception:  # a reference cycle, non-str keys, an int too long, a broken __str__
        return f"<{type(result).__name__} that cannot be written as JSON text>"


@overload
def command(
    name: str,
    description: str | None = None,
    args_hint: str = "",
    *,
    type: Literal[CommandType.SLASH, "slash"] = CommandType.SLASH,
    help: None = None,
    setup_fn: None = None,
    requires_env: Sequence[str] | None = None,
) -> SlashCommandDecorator: ...
@overload
def command(
    name: str,
    description: str | None = None,
    args_hint: str = "",
    *,
    type: Literal[CommandType.CLI, "cli"],
    help: str | None = None,
    setup_fn: Callable[[argparse.ArgumentParser], Any] | None = None,
    requires_env: Sequence[str] | None = None,
) -> CliCommandDecorator: ...
@overload
def command(
    name: str,
    description: str | None = None,
    args_hint: str = "",
    *,
    type: CommandType | str,
    help: str | None = None,
    setup_fn: Callable[[argparse.ArgumentParser], Any] | None = None,
    requires_env: Sequence[str] | None = None,
) -> CommandDecorator: ...
def command(
    name: str,
    description: str | None = None,
    args_hint: str = "",
    *,
    type: CommandType | str = CommandType.SLASH,  # the spec's keyword
    help: str | None = None,  # argparse's word
    setup_fn: Callable[[argparse.ArgumentParser], Any] | None = None,
    requires_env: Sequence[str] | None = None,
) -> Any:
    """Declare a slash command (default) or a terminal command (``type=CommandType.CLI``).

    Slash handlers get the raw text after the command, may be ``async def``, and return
    ``str | None`` (anything else is sent as JSON text). CLI handlers are synchronous
    and get the parsed ``argparse.Namespace``; ``setup_fn`` configures their subparser
    and ``help`` defaults to the first line of the description. The description comes
    from ``description`` or the docstring. For type checkers the decorated handler
    keeps its parameters; a slash command answers ``str | None`` (see
    :class:`SlashCommandDecorator`), a CLI command what its handler returns.

    Logs: the name, elapsed time, result type and, for slash commands, the length of
    the argument text; never the text or the parsed values. An exception the handler
    raises propagates (the same object). Secret values never show in those lines nor in
    the message of that exception: secret-shaped text, and the current values of the
    environment variables named in ``requires_env`` and, once :func:`register_plugin`
    registered the command, in the ``requires_env`` of the plugin's tools.

    Raises:
        DeclarationError: naming the rule broken and the fix.
    """
    kind = _type(type)
    checked = _check_name(name, kind)
    label = f"@command({checked!r})"
    hint = _text(label, "args_hint", args_hint)
    help_text = None if help is None else _text(label, "help", help)
    _check_options(label, kind, hint, help_text, setup_fn)
    env_names = check_env_names(label, requires_env)

    def decorate(fn: Callable[..., Any]) -> Any:
        _check_handler(label, kind, fn)
        given = _text(label, "description", description).strip()
        text = given or (inspect.getdoc(fn) or "").strip()
        if not text:
            msg = f"@command {checked!r}: a description is required (docstring or description=)."
            raise DeclarationError(msg)
        first_line = next(line.strip() for line in text.splitlines() if line.strip())
        logger = logging.getLogger(getattr(fn, "__module__", None) or "hermes_plugin_kit")
        env = EnvSecrets(env_names)
        wrapper = (_slash_wrapper if kind is CommandType.SLASH else _cli_wrapper)(
            fn, checked, logger, env
        )
        attach(wrapper, env)
        spec = CommandSpec(
            name=checked,
            type=kind,
            description=text,
            args_hint=hint,
            help=(help_text or first_line) if kind is CommandType.CLI else "",
            handler=wrapper,
            setup_fn=setup_fn if kind is CommandType.CLI else None,
        )
        return declare(wrapper, spec)

    return decorate


def _finish(
    logger: logging.Logger,
    name: str,
    started: float,
    env: EnvSecrets,
    result: Any = None,
    exc: BaseException | None = None,
) -> None:
    """The outcome line of a command; an exception is cleaned of secrets before it goes on."""
    if exc is None and not logger.isEnabledFor(logging.INFO):
        return  # nothing to log, nothing to clean: no environment read on the quiet path
    secrets = env.values()
    if exc is not None:
        scrub(exc, secrets)
    log_outcome(logger, name, started, result, exc, secrets, what="handler")


def _slash_wrapper(
    fn: Callable[..., Any], name: str, logger: logging.Logger, env: EnvSecrets
) -> Any:
    def invoked(raw_args: Any) -> float:
        if logger.isEnabledFor(logging.DEBUG):
            chars = len(raw_args) if isinstance(raw_args, str) else 0
            label = redact_text(name, env.values())
            logger.debug("%s: invoked; args_chars=%d", label, chars)
        return perf_counter()

    if is_async(fn):

        @functools.wraps(fn)
        async def async_slash(raw_args: str = "") -> str | None:
            started = invoked(raw_args)
            try:
                result = await fn(raw_args)
            except BaseException as exc:
                _finish(logger, name, started, env, exc=exc)
                raise
            _finish(logger, name, started, env, result)
            return _as_reply(result)

        return async_slash

    @functools.wraps(fn)
    def slash(raw_args: str = "") -> str | None:
        started = invoked(raw_args)
        try:
            result = fn(raw_args)
        except BaseException as exc:
            _finish(logger, name, started, env, exc=exc)
            raise
        _finish(logger, name, started, env, result)
        return _as_reply(result)

    return slash


def _cli_wrapper(fn: Callable[..., Any], name: str, logger: logging.Logger, env: EnvSecrets) -> Any:
    @functools.wraps(fn)
    def cli(args: argparse.Namespace) -> Any:
        if logger.isEnabledFor(logging.INFO):
            logger.info("%s: invoked; type=cli", redact_text(name, env.values()))
        started = perf_counter()
        try:
            result = fn(args)
        except BaseException as exc:
            _finish(logger, name, started, env, exc=exc)
            raise
        _finish(logger, name, started, env, result)
        return result

    return cli
