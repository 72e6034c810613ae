"""@command: names, types, options, descriptions, handlers, replies and safe logs."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import inspect
import json
import logging
import re
import sys
import types
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit_core import declaration_of
from kit_lifecycle import CommandSpec, CommandType, DeclarationError, command

KEBAB = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
RAW_SECRET = "raw-text-7f3a-never-logged"
NS_SECRET = "namespace-value-91c2-never-logged"
EXC_SECRET = "exception-message-44d0-never-logged"
RESULT_SECRET = "reply-payload-0b5e-never-logged"


def spec_of(fn: object) -> CommandSpec:
    spec = declaration_of(fn, CommandSpec)
    assert spec is not None, f"{fn!r} carries no CommandSpec"
    return spec


def echo(raw: str) -> str:
    """Echo the text."""
    return raw


def ours(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    """(level, message) of the records of this module's logger (the handlers' logger)."""
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == __name__]


def records_text(caplog: pytest.LogCaptureFixture) -> str:
    """Everything the records carry: formatted messages, raw templates and arguments."""
    parts: list[str] = [caplog.text]
    for r in caplog.records:
        parts += [r.getMessage(), str(r.msg), repr(r.args)]
    return "\n".join(parts)


# --- names -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["x", "ping", "my-cmd", "a1-b2", "v2ray", "lc-x-9", "abc-1"])
@pytest.mark.parametrize("kind", [CommandType.SLASH, CommandType.CLI])
def test_kebab_case_names_are_accepted(name: str, kind: CommandType) -> None:
    fn = command(name, "Do it.", type=kind)(echo)
    assert spec_of(fn).name == name
    assert spec_of(fn).type is kind


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("/x", "'x'"),
        ("/lc-ping", "'lc-ping'"),
        ("my_cmd", "'my-cmd'"),
        ("My", "'my'"),
        ("1x", None),
        ("x-", "'x'"),
        ("a b", "'a-b'"),
        ("", None),
        ("-x", "'x'"),
        ("a--b", "'a-b'"),
        ("ping!", "'ping'"),
        ("é", None),
    ],
)
def test_non_kebab_names_are_refused_with_the_rule_and_a_fix(
    name: str, suggestion: str | None
) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        command(name, "Do it.")
    msg = str(excinfo.value)
    assert f"command name {name!r} must be a bare lowercase kebab-case name" in msg
    assert KEBAB.pattern in msg
    assert "no '/', '_', spaces or leading digit" in msg
    if suggestion is None:
        assert "for example" not in msg
    else:
        assert f"for example {suggestion}" in msg


@pytest.mark.parametrize("name", [None, 1, b"ping", ["ping"], 3.5])
def test_non_str_names_are_refused(name: object) -> None:
    with pytest.raises(DeclarationError, match="must be a bare lowercase kebab-case name"):
        command(name, "Do it.")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["help", "model", "status", "new", "tools", "q"])
def test_reserved_slash_names_are_refused_with_the_reason(name: str) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        command(name, "Do it.")
    msg = str(excinfo.value)
    assert f"/{name} is a built-in hermes command (or alias)" in msg
    assert "skip yours with only a warning" in msg
    assert f"'myplugin-{name}'" in msg


@pytest.mark.parametrize("name", ["chat", "plugins", "gateway", "doctor"])
def test_reserved_cli_names_are_refused_with_the_reason(name: str) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        command(name, "Do it.", type=CommandType.CLI)
    msg = str(excinfo.value)
    assert f"'hermes {name}' is a built-in subcommand" in msg
    assert "only looks for plugin commands when the first word is not one" in msg
    assert f"'myplugin-{name}'" in msg


def test_a_loaded_hosts_own_lookup_does_not_change_the_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The verdict comes from the host model, whatever hermes module is imported."""
    fake = types.ModuleType("hermes_cli.commands")
    fake.resolve_command = lambda name: object()  # type: ignore[attr-defined]  # claims all
    monkeypatch.setitem(sys.modules, "hermes_cli.commands", fake)
    assert spec_of(command("lc-free", "Do it.")(echo)).name == "lc-free"
    main = types.ModuleType("hermes_cli.main")
    main._BUILTIN_SUBCOMMANDS = {"lc-free-cli"}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli.main", main)
    assert spec_of(command("lc-free-cli", "Do it.", type="cli")(echo)).name == "lc-free-cli"


@pytest.mark.parametrize(
    ("name", "kind", "releases"),
    [
        ("help", "slash", "every hermes-agent release"),
        ("billing", "slash", "hermes-agent 0.17.0 to 0.18.2"),  # gone again in 0.19.0
        ("provider", "slash", "hermes-agent 0.13.0 to 0.15.2"),  # only the oldest releases
        ("chat", "cli", "every hermes-agent release"),
        # from hermes-agent 0.18.1 to the newest packaging of upstream
        ("console", "cli", "hermes 0.18.1 to 0.22.2"),
    ],
)
def test_a_name_built_in_on_any_known_release_is_refused_naming_those_releases(
    name: str, kind: str, releases: str
) -> None:
    with pytest.raises(DeclarationError, match="built-in") as caught:
        command(name, "Do it.", type=kind)
    assert f" on {releases}: " in str(caught.value)


# --- type ------------------------------------------------------------------------------


def test_command_type_values() -> None:
    assert [t.value for t in CommandType] == ["slash", "cli"]
    assert CommandType.SLASH == "slash"
    assert CommandType.CLI == "cli"


@pytest.mark.parametrize(
    ("given_type", "expected"),
    [
        (CommandType.SLASH, CommandType.SLASH),
        (CommandType.CLI, CommandType.CLI),
        ("slash", CommandType.SLASH),
        ("SLASH", CommandType.SLASH),
        ("Slash", CommandType.SLASH),
        ("cli", CommandType.CLI),
        ("CLI", CommandType.CLI),
        (" Cli ", CommandType.CLI),
    ],
)
def test_command_types_as_enum_or_string_in_any_case(
    given_type: CommandType | str, expected: CommandType
) -> None:
    fn = command("lc-kind", "Do it.", type=given_type)(echo)
    assert spec_of(fn).type is expected


@pytest.mark.parametrize("bad", ["tool", "", "slash-command", "terminal"])
def test_other_type_strings_are_refused(bad: str) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        command("lc-kind", "Do it.", type=bad)
    msg = str(excinfo.value)
    assert "command type must be 'slash' or 'cli'" in msg
    assert "CommandType.SLASH/CLI" in msg
    assert repr(bad) in msg


@pytest.mark.parametrize("bad", [None, 1, True, object()])
def test_non_str_types_are_refused(bad: object) -> None:
    with pytest.raises(
        DeclarationError, match="command type must be a CommandType or 'slash'/'cli'"
    ):
        command("lc-kind", "Do it.", type=bad)  # type: ignore[arg-type]


# --- description and options -------------------------------------------------------------


def test_description_argument_wins_over_the_docstring() -> None:
    def handler(raw: str) -> None:
        """The docstring."""

    fn = command("lc-desc", "  Given description.  ")(handler)
    assert spec_of(fn).description == "Given description."


@pytest.mark.parametrize("given_description", [None, "", "   \n "])
def test_description_falls_back_to_the_docstring(given_description: str | None) -> None:
    def handler(raw: str) -> None:
        """
        Summarise the session.

        Longer text.
        """

    fn = command("lc-desc", given_description)(handler)
    assert spec_of(fn).description == "Summarise the session.\n\nLonger text."


@pytest.mark.parametrize("kind", [CommandType.SLASH, CommandType.CLI])
def test_a_missing_description_is_refused(kind: CommandType) -> None:
    def handler(raw: str) -> None:
        pass

    with pytest.raises(DeclarationError) as excinfo:
        command("lc-nodesc", type=kind)(handler)
    assert str(excinfo.value) == (
        "@command 'lc-nodesc': a description is required (docstring or description=)."
    )


@pytest.mark.parametrize(("key", "value"), [("description", 5), ("args_hint", 1), ("help", 2)])
def test_text_options_must_be_str(key: str, value: object) -> None:
    kind = CommandType.CLI if key == "help" else CommandType.SLASH
    with pytest.raises(DeclarationError, match=f"{key} must be a str, got int"):
        command("lc-opts", type=kind, **{key: value})(echo)  # type: ignore[arg-type]


def test_help_is_only_for_cli_commands() -> None:
    with pytest.raises(DeclarationError) as excinfo:
        command("lc-opts", "Do it.", help="Short help.")  # pyright: ignore[reportArgumentType]
    msg = str(excinfo.value)
    assert "command help is only valid for CLI commands" in msg
    assert "type=CommandType.CLI" in msg


def test_setup_fn_is_only_for_cli_commands() -> None:
    def setup(parser: argparse.ArgumentParser) -> None:
        pass

    with pytest.raises(DeclarationError) as excinfo:
        command("lc-opts", "Do it.", setup_fn=setup)  # pyright: ignore[reportArgumentType]
    msg = str(excinfo.value)
    assert "command setup_fn is only valid for CLI commands" in msg
    assert "type=CommandType.CLI" in msg


def test_args_hint_is_only_for_slash_commands() -> None:
    with pytest.raises(DeclarationError) as excinfo:
        command("lc-opts", "Do it.", "<text>", type=CommandType.CLI)
    msg = str(excinfo.value)
    assert "command args_hint is only valid for slash commands" in msg
    assert "setup_fn" in msg


def test_a_blank_args_hint_is_fine_for_cli_commands() -> None:
    def handler(ns: argparse.Namespace) -> None:
        pass

    fn = command("lc-opts", "Do it.", "  ", type=CommandType.CLI)(handler)
    assert spec_of(fn).args_hint == "  "


@pytest.mark.parametrize("setup", ["not callable", 3])
def test_setup_fn_must_be_callable(setup: object) -> None:
    with pytest.raises(DeclarationError, match="setup_fn must be a synchronous function"):
        command("lc-opts", "Do it.", type="cli", setup_fn=setup)  # type: ignore[arg-type]


def test_setup_fn_must_be_synchronous() -> None:
    async def setup(parser: argparse.ArgumentParser) -> None:
        pass

    with pytest.raises(DeclarationError, match="setup_fn must be a synchronous function"):
        command("lc-opts", "Do it.", type="cli", setup_fn=setup)


def test_slash_spec_fields() -> None:
    fn = command("lc-find", "Find things.\nSecond line.", "<query>")(echo)
    spec = spec_of(fn)
    assert spec == CommandSpec(
        name="lc-find",
        type=CommandType.SLASH,
        description="Find things.\nSecond line.",
        args_hint="<query>",
        help="",
        handler=fn,
        setup_fn=None,
    )
    assert spec.handler is fn
    assert fn.__name__ == "echo"
    assert fn.__doc__ == "Echo the text."


def test_cli_help_defaults_to_the_first_non_blank_line() -> None:
    def handler(ns: argparse.Namespace) -> None:
        pass

    fn = command("lc-sync", "\n\n   Sync the cache.   \n\nMore text.", type="cli")(handler)
    spec = spec_of(fn)
    assert spec.help == "Sync the cache."
    assert spec.description == "Sync the cache.   \n\nMore text."
    assert spec.args_hint == ""
    assert spec.setup_fn is None


def test_cli_help_defaults_to_the_docstring_first_line() -> None:
    def handler(ns: argparse.Namespace) -> None:
        """
        Rebuild the index.

        Takes a while.
        """

    assert spec_of(command("lc-sync", type="cli")(handler)).help == "Rebuild the index."


def test_explicit_cli_help_and_setup_fn_are_kept() -> None:
    def setup(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--target")

    def handler(ns: argparse.Namespace) -> None:
        pass

    fn = command("lc-sync", "Sync.", type="cli", help="Short.", setup_fn=setup)(handler)
    spec = spec_of(fn)
    assert spec.help == "Short."
    assert spec.setup_fn is setup
    assert spec.type is CommandType.CLI


# --- handlers ------------------------------------------------------------------------------


def test_async_cli_handlers_are_refused() -> None:
    async def handler(ns: argparse.Namespace) -> None:
        pass

    with pytest.raises(DeclarationError) as excinfo:
        command("lc-sync", "Sync.", type="cli")(handler)
    msg = str(excinfo.value)
    assert "CLI command handlers must be synchronous" in msg
    assert "never awaits" in msg


def test_an_async_slash_handler_stays_async_and_gets_the_raw_text() -> None:
    seen: list[str] = []

    async def handler(raw: str) -> str:
        seen.append(raw)
        return f"got {len(raw)}"

    fn = command("lc-async", "Async.")(handler)
    assert inspect.iscoroutinefunction(fn)
    raw = "  two  words --flag 'quoted'  "
    assert asyncio.run(fn(raw)) == f"got {len(raw)}"
    assert seen == [raw]


def test_an_async_slash_handler_result_becomes_json_text() -> None:
    async def handler(raw: str) -> object:
        return {"n": 1, "text": "é"}

    fn = command("lc-async", "Async.")(handler)
    assert asyncio.run(fn("x")) == '{"n": 1, "text": "é"}'


def test_a_sync_slash_handler_gets_the_raw_text() -> None:
    seen: list[str] = []

    def handler(raw: str) -> None:
        seen.append(raw)

    fn = command("lc-sync-slash", "Sync.")(handler)
    assert not inspect.iscoroutinefunction(fn)
    raw = " a\tb  c "
    assert fn(raw) is None
    assert seen == [raw]


def test_a_slash_handler_called_without_text_gets_an_empty_string() -> None:
    seen: list[str] = []

    def handler(raw: str) -> None:
        seen.append(raw)

    # typed as the handler, which takes the text; the wrapper also takes no text at all
    command("lc-empty", "Empty.")(handler)()  # pyright: ignore[reportCallIssue]
    assert seen == [""]


def no_args() -> None:
    pass


def two_args(a: str, b: str) -> None:
    pass


def keyword_only(*, raw: str) -> None:
    pass


@pytest.mark.parametrize("handler", [no_args, two_args, keyword_only])
@pytest.mark.parametrize(
    ("kind", "what"),
    [("slash", "the raw text after the command"), ("cli", "the Namespace")],
)
def test_the_handler_must_take_one_positional_argument(handler: Any, kind: str, what: str) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        command("lc-arity", "Arity.", type=kind)(handler)
    assert str(excinfo.value) == (
        f"@command('lc-arity'): the handler must take one positional argument ({what})"
    )


def test_extra_defaulted_or_variadic_parameters_are_fine() -> None:
    def defaulted(raw: str, extra: int = 1) -> None:
        pass

    def variadic(*args: Any) -> None:
        pass

    command("lc-arity", "Arity.")(defaulted)
    command("lc-arity", "Arity.")(variadic)


@pytest.mark.parametrize("not_a_function", [None, 3, "handler"])
def test_only_callables_can_be_decorated(not_a_function: object) -> None:
    with pytest.raises(DeclarationError, match="@command must decorate a function"):
        command("lc-x", "X.")(not_a_function)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("result", "reply"),
    [
        ("plain text", "plain text"),
        ("", ""),
        (None, None),
        ({"a": 1, "b": [1, 2]}, '{"a": 1, "b": [1, 2]}'),
        (["x", "ü"], '["x", "ü"]'),
        (5, "5"),
        (True, "true"),
        (dt.date(2024, 1, 2), '"2024-01-02"'),
    ],
)
def test_slash_replies_are_str_or_none(result: object, reply: str | None) -> None:
    def handler(raw: str) -> object:
        return result

    assert command("lc-reply", "Reply.")(handler)("x") == reply


def test_a_cli_handler_result_is_returned_unchanged() -> None:
    marker = object()

    def handler(ns: argparse.Namespace) -> object:
        return marker

    assert command("lc-cli", "Run.", type="cli")(handler)(argparse.Namespace()) is marker


def test_a_cli_handler_gets_the_namespace() -> None:
    seen: list[argparse.Namespace] = []

    def handler(ns: argparse.Namespace) -> int:
        seen.append(ns)
        return 0

    fn = command("lc-cli", "Run.", type="cli")(handler)
    ns = argparse.Namespace(target="x")
    assert fn(ns) == 0
    assert seen[0] is ns


class Boom(ValueError):
    pass


def test_exceptions_propagate_unchanged() -> None:
    error = Boom(EXC_SECRET)

    def slash(raw: str) -> None:
        raise error

    async def async_slash(raw: str) -> None:
        raise error

    def cli(ns: argparse.Namespace) -> None:
        raise error

    with pytest.raises(Boom) as excinfo:
        command("lc-a", "A.")(slash)("x")
    assert excinfo.value is error
    with pytest.raises(Boom) as excinfo:
        asyncio.run(command("lc-b", "B.")(async_slash)("x"))
    assert excinfo.value is error
    with pytest.raises(Boom) as excinfo:
        command("lc-c", "C.", type="cli")(cli)(argparse.Namespace())
    assert excinfo.value is error


# --- logs ----------------------------------------------------------------------------------

ELAPSED = r"elapsed_ms=\d+\.\d{2}"


def test_a_slash_command_logs_its_call_and_outcome_without_secrets(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)

    def handler(raw: str) -> str:
        return f"{RESULT_SECRET} {raw}"

    fn = command("lc-log", "Log.")(handler)
    raw = f"please {RAW_SECRET}"
    fn(raw)
    records = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    assert len(records) == 2
    (name1, level1, invoked), (name2, level2, ok) = records
    assert name1 == name2 == __name__  # the handler module's logger
    assert (level1, invoked) == (logging.DEBUG, f"lc-log: invoked; args_chars={len(raw)}")
    assert level2 == logging.INFO
    assert re.fullmatch(rf"lc-log: ok; {ELAPSED}; result=str", ok)
    text = records_text(caplog)
    assert RAW_SECRET not in text
    assert RESULT_SECRET not in text


def test_slash_result_type_is_the_handlers(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)

    def handler(raw: str) -> object:
        return {"k": RESULT_SECRET}

    command("lc-log", "Log.")(handler)("x")
    (ok,) = [r.getMessage() for r in caplog.records]
    assert re.fullmatch(rf"lc-log: ok; {ELAPSED}; result=dict", ok)
    assert RESULT_SECRET not in records_text(caplog)


def test_an_async_slash_command_logs_its_call_and_outcome_without_secrets(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)

    async def handler(raw: str) -> None:
        return None

    asyncio.run(command("lc-log", "Log.")(handler)(RAW_SECRET))
    messages = ours(caplog)
    assert messages[0] == (logging.DEBUG, f"lc-log: invoked; args_chars={len(RAW_SECRET)}")
    assert messages[1][0] == logging.INFO
    assert re.fullmatch(rf"lc-log: ok; {ELAPSED}; result=NoneType", messages[1][1])
    assert len(messages) == 2
    assert RAW_SECRET not in records_text(caplog)


@pytest.mark.parametrize("is_async", [False, True])
def test_slash_failure_logs_the_type_only(caplog: pytest.LogCaptureFixture, is_async: bool) -> None:
    caplog.set_level(logging.DEBUG)

    def sync_handler(raw: str) -> None:
        raise ValueError(EXC_SECRET)

    async def async_handler(raw: str) -> None:
        raise ValueError(EXC_SECRET)

    fn = command("lc-fail", "Fail.")(async_handler if is_async else sync_handler)

    def run() -> object:
        result = fn(RAW_SECRET)
        return asyncio.run(result) if asyncio.iscoroutine(result) else result

    with pytest.raises(ValueError, match=EXC_SECRET):
        run()
    messages = ours(caplog)
    assert len(messages) == 2
    assert messages[0] == (logging.DEBUG, f"lc-fail: invoked; args_chars={len(RAW_SECRET)}")
    level, text = messages[1]
    assert level == logging.WARNING
    assert re.fullmatch(rf"lc-fail: handler raised; {ELAPSED}; error_type=ValueError", text)
    assert all(r.exc_info is None for r in caplog.records)
    logged = records_text(caplog)
    assert EXC_SECRET not in logged
    assert RAW_SECRET not in logged


def test_a_cli_command_logs_its_call_and_outcome_without_secrets(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)

    def setup(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--target")

    def handler(ns: argparse.Namespace) -> str:
        return f"{RESULT_SECRET} {ns.target}"

    fn = command("lc-cli-log", "Log.", type="cli", setup_fn=setup)(handler)
    parser = argparse.ArgumentParser()
    setup(parser)
    fn(parser.parse_args(["--target", NS_SECRET]))
    messages = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert len(messages) == 2
    assert messages[0] == (logging.INFO, "lc-cli-log: invoked; type=cli")
    assert messages[1][0] == logging.INFO
    assert re.fullmatch(rf"lc-cli-log: ok; {ELAPSED}; result=str", messages[1][1])
    logged = records_text(caplog)
    assert NS_SECRET not in logged
    assert RESULT_SECRET not in logged


def test_cli_failure_logs_the_type_only(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    def handler(ns: argparse.Namespace) -> None:
        raise KeyError(f"{EXC_SECRET} {ns.target}")

    fn = command("lc-cli-fail", "Fail.", type="cli")(handler)
    with pytest.raises(KeyError):
        fn(argparse.Namespace(target=NS_SECRET))
    messages = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert messages[0] == (logging.INFO, "lc-cli-fail: invoked; type=cli")
    assert messages[1][0] == logging.WARNING
    assert re.fullmatch(
        rf"lc-cli-fail: handler raised; {ELAPSED}; error_type=KeyError", messages[1][1]
    )
    logged = records_text(caplog)
    assert EXC_SECRET not in logged
    assert NS_SECRET not in logged


def test_nothing_is_logged_below_the_loggers_level(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    command("lc-quiet", "Quiet.")(echo)("x")
    assert caplog.records == []


# --- properties ------------------------------------------------------------------------------


@given(st.one_of(st.text(max_size=12), st.none(), st.integers(), st.binary(max_size=4)))
def test_a_name_is_either_accepted_as_kebab_case_or_refused(name: object) -> None:
    try:
        fn = command(name, "Property.")(echo)  # type: ignore[arg-type]
    except DeclarationError:
        return
    assert isinstance(name, str)
    assert KEBAB.fullmatch(name)
    assert spec_of(fn).name == name


@given(st.from_regex(r"zz[a-z0-9]{0,5}(-[a-z0-9]{1,4}){0,3}", fullmatch=True))
def test_every_unreserved_kebab_name_is_accepted(name: str) -> None:
    for kind in CommandType:
        assert spec_of(command(name, "Property.", type=kind)(echo)).name == name


@given(st.text(min_size=1, max_size=40).filter(lambda s: s.strip() != ""))
def test_the_logs_never_contain_the_text(raw: str) -> None:
    # a handler for the property: record what the logger receives
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger(__name__)
    keep = Keep(logging.DEBUG)
    previous = logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.DEBUG)
    try:
        marker = f"\x00{raw}\x00"
        command("lc-prop", "Prop.")(echo)(marker)
    finally:
        logger.removeHandler(keep)
        logger.setLevel(previous)
    assert records[0].getMessage() == f"lc-prop: invoked; args_chars={len(marker)}"
    assert all(marker not in r.getMessage() for r in records)
    assert json.dumps(marker) not in "".join(r.getMessage() for r in records)
