"""@middleware: kinds, synchronous callbacks, pass-through, single-use next_call, safe logs."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest

from kit_core import declaration_of
from kit_lifecycle import DeclarationError, MiddlewareKind, MiddlewareSpec, middleware

PAYLOAD_SECRET = "payload-value-5e1d-never-logged"
RESULT_SECRET = "result-value-8a2f-never-logged"
EXC_SECRET = "exception-message-c3b9-never-logged"
ELAPSED = r"elapsed_ms=\d+\.\d{2}"


def spec_of(fn: object) -> MiddlewareSpec:
    spec = declaration_of(fn, MiddlewareSpec)
    assert spec is not None, f"{fn!r} carries no MiddlewareSpec"
    return spec


def passthrough(**kwargs: Any) -> Any:
    return None


def ours(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == __name__]


def records_text(caplog: pytest.LogCaptureFixture) -> str:
    parts: list[str] = [caplog.text]
    for r in caplog.records:
        parts += [r.getMessage(), str(r.msg), repr(r.args)]
    return "\n".join(parts)


# --- kinds ---------------------------------------------------------------------------------


def test_the_kinds_are_the_hosts_strings() -> None:
    assert {k.name: k.value for k in MiddlewareKind} == {
        "TOOL_REQUEST": "tool_request",
        "TOOL_EXECUTION": "tool_execution",
        "LLM_REQUEST": "llm_request",
        "LLM_EXECUTION": "llm_execution",
    }
    assert MiddlewareKind.TOOL_REQUEST == "tool_request"


@pytest.mark.parametrize("kind", list(MiddlewareKind))
def test_an_enum_kind_is_registered_as_its_plain_string(kind: MiddlewareKind) -> None:
    spec = spec_of(middleware(kind)(passthrough))
    assert spec.kind == kind.value
    assert type(spec.kind) is str


@pytest.mark.parametrize(
    ("given_kind", "expected"),
    [
        ("tool_request", "tool_request"),
        ("llm_execution", "llm_execution"),
        ("tool_result", "tool_result"),
        (" llm_stream ", "llm_stream"),
        ("phase2", "phase2"),
    ],
)
def test_string_kinds_including_future_ones_are_accepted(given_kind: str, expected: str) -> None:
    # a future host's phase needs allow_unknown=True; a known one is accepted either way
    assert spec_of(middleware(given_kind, allow_unknown=True)(passthrough)).kind == expected


@pytest.mark.parametrize("blank", ["", "   ", None, 3])
def test_a_missing_kind_is_refused(blank: object) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        middleware(blank)  # type: ignore[arg-type]
    msg = str(excinfo.value)
    assert "middleware kind is required" in msg
    assert "MiddlewareKind.TOOL_REQUEST" in msg


@pytest.mark.parametrize(
    "bad", ["Tool_Request", "tool-request", "tool request", "1tool", "toolRequest"]
)
def test_non_snake_case_kinds_are_refused(bad: str) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        middleware(bad)
    assert str(excinfo.value) == (
        f"middleware kind {bad!r} must be lowercase snake_case like 'tool_request'"
    )


# --- callbacks --------------------------------------------------------------------------------


def test_async_callbacks_are_refused_with_the_reason() -> None:
    async def callback(**kwargs: Any) -> Any:
        return None

    with pytest.raises(DeclarationError) as excinfo:
        middleware(MiddlewareKind.TOOL_EXECUTION)(callback)
    msg = str(excinfo.value)
    assert msg.startswith("@middleware('tool_execution'): middleware callbacks must be synchronous")
    assert "does not await middleware callbacks" in msg
    assert "unawaited coroutine" in msg


def test_async_generator_callbacks_are_refused() -> None:
    async def callback(**kwargs: Any) -> Any:
        yield None

    with pytest.raises(DeclarationError, match="must be synchronous"):
        middleware("tool_request")(callback)


def test_callbacks_without_var_keyword_are_refused() -> None:
    def narrow(args: Any, next_call: Any) -> Any:
        return None

    with pytest.raises(DeclarationError) as excinfo:
        middleware("tool_execution")(narrow)
    msg = str(excinfo.value)
    assert "@middleware('tool_execution')" in msg
    assert "must accept **kwargs" in msg
    assert "telemetry_schema_version" in msg
    assert "silently never runs" in msg
    assert "`def narrow(**kwargs):`" in msg


def test_non_callables_are_refused() -> None:
    with pytest.raises(DeclarationError, match="expected a function, got int"):
        middleware("tool_request")(5)  # type: ignore[arg-type]


def test_the_spec_carries_the_wrapper() -> None:
    def rewrite(**kwargs: Any) -> Any:
        """Rewrite the arguments."""

    fn = middleware("tool_request")(rewrite)
    assert spec_of(fn).callback is fn
    assert fn.__name__ == "rewrite"
    assert fn.__doc__ == "Rewrite the arguments."
    assert declaration_of(rewrite) is None
    assert spec_of(fn).surface == "middleware"


def test_kwargs_and_return_pass_through_by_identity() -> None:
    seen: dict[str, Any] = {}
    result = {"args": {"q": "rewritten"}}

    def rewrite(**kwargs: Any) -> Any:
        seen.update(kwargs)
        return result

    args = {"q": "original"}
    original = {"q": "original"}
    trace = object()
    call = {
        "tool_name": "lc_fetch",
        "args": args,
        "original_args": original,
        "task_id": "t1",
        "session_id": "s1",
        "middleware_trace": trace,
        "telemetry_schema_version": "hermes.observer.v1",
        "middleware_schema_version": "hermes.middleware.v1",
    }
    assert middleware("tool_request")(rewrite)(**call) is result
    assert seen.keys() == call.keys()
    for key, value in call.items():
        assert seen[key] is value, key


def test_an_in_place_mutation_reaches_the_host_object() -> None:
    def mutate(**kwargs: Any) -> None:
        kwargs["args"]["added"] = True

    args: dict[str, Any] = {}
    middleware("tool_request")(mutate)(args=args)
    assert args == {"added": True}


def test_exceptions_propagate_unchanged() -> None:
    error = LookupError(EXC_SECRET)

    def fail(**kwargs: Any) -> Any:
        raise error

    with pytest.raises(LookupError) as excinfo:
        middleware("llm_request")(fail)(request={})
    assert excinfo.value is error


# --- next_call ------------------------------------------------------------------------------


class RealCall:
    """The host's next_call: counts its runs and returns a fixed result."""

    def __init__(self, result: Any = "tool-output") -> None:
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self.result = result

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append((args, kwargs))
        return self.result


def test_next_call_forwards_its_arguments_and_result() -> None:
    real = RealCall(result=object())
    payload = {"q": "x"}

    def wrap(**kwargs: Any) -> Any:
        return kwargs["next_call"](payload)

    assert middleware(MiddlewareKind.TOOL_EXECUTION)(wrap)(args={}, next_call=real) is real.result
    assert len(real.calls) == 1
    assert real.calls[0][0][0] is payload


def test_next_call_without_a_payload() -> None:
    real = RealCall()

    def wrap(**kwargs: Any) -> Any:
        return kwargs["next_call"]()

    assert middleware("llm_execution")(wrap)(request={}, next_call=real) == "tool-output"
    assert real.calls == [((), {})]


def test_a_second_next_call_raises_a_clear_error_and_the_real_call_runs_once() -> None:
    real = RealCall()
    errors: list[RuntimeError] = []

    def twice(**kwargs: Any) -> Any:
        first = kwargs["next_call"](kwargs["args"])
        try:
            kwargs["next_call"](kwargs["args"])
        except RuntimeError as exc:
            errors.append(exc)
        return first

    fn = middleware(MiddlewareKind.TOOL_EXECUTION)(twice)
    assert fn(args={"q": 1}, next_call=real) == "tool-output"
    assert len(real.calls) == 1
    (error,) = errors
    msg = str(error)
    assert "tool_execution middleware twice called next_call() a second time" in msg
    assert "may be called at most once" in msg
    assert "keep its result and return that" in msg


def test_the_second_next_call_error_propagates_when_not_caught() -> None:
    real = RealCall()

    def twice(**kwargs: Any) -> Any:
        kwargs["next_call"]()
        return kwargs["next_call"]()

    with pytest.raises(RuntimeError, match=r"called next_call\(\) a second time"):
        middleware("llm_execution")(twice)(request={}, next_call=real)
    assert len(real.calls) == 1


def test_next_call_stays_used_after_the_real_call_raised() -> None:
    attempts: list[int] = []

    def real(*args: Any) -> Any:
        attempts.append(1)
        raise TimeoutError("provider timed out")

    def retry(**kwargs: Any) -> Any:
        try:
            return kwargs["next_call"]()
        except TimeoutError:
            return kwargs["next_call"]()

    with pytest.raises(RuntimeError, match="a second time"):
        middleware("llm_execution")(retry)(request={}, next_call=real)
    assert attempts == [1]


def test_each_host_call_gets_its_own_single_use_next_call() -> None:
    real = RealCall()

    def once(**kwargs: Any) -> Any:
        return kwargs["next_call"]()

    fn = middleware("tool_execution")(once)
    assert fn(args={}, next_call=real) == "tool-output"
    assert fn(args={}, next_call=real) == "tool-output"
    assert len(real.calls) == 2


def test_concurrent_second_calls_still_run_the_real_call_once() -> None:
    real = RealCall()
    outcomes: list[str] = []
    lock = threading.Lock()

    def racing(**kwargs: Any) -> Any:
        next_call: Callable[..., Any] = kwargs["next_call"]
        barrier = threading.Barrier(8)

        def attempt() -> None:
            barrier.wait()
            try:
                next_call()
                outcome = "ran"
            except RuntimeError:
                outcome = "refused"
            with lock:
                outcomes.append(outcome)

        threads = [threading.Thread(target=attempt) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return None

    middleware("tool_execution")(racing)(args={}, next_call=real)
    assert sorted(outcomes) == ["ran"] + ["refused"] * 7
    assert len(real.calls) == 1


def test_a_request_callback_gets_no_next_call() -> None:
    seen: dict[str, Any] = {}

    def rewrite(**kwargs: Any) -> None:
        seen.update(kwargs)

    middleware("tool_request")(rewrite)(args={})
    assert "next_call" not in seen


def test_a_non_callable_next_call_is_passed_through() -> None:
    seen: dict[str, Any] = {}

    def rewrite(**kwargs: Any) -> None:
        seen.update(kwargs)

    middleware("tool_execution")(rewrite)(args={}, next_call=None)
    assert seen["next_call"] is None


# --- logs ----------------------------------------------------------------------------------


def test_middleware_logs_its_call_and_outcome_without_secrets(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    real = RealCall(result=f"output {RESULT_SECRET}")

    def wrap(**kwargs: Any) -> Any:
        return kwargs["next_call"](kwargs["args"])

    middleware(MiddlewareKind.TOOL_EXECUTION)(wrap)(
        tool_name="lc_fetch",
        args={"q": PAYLOAD_SECRET},
        original_args={"q": PAYLOAD_SECRET},
        next_call=real,
        session_id="s-1",
        task_id="t-1",
        turn_id=PAYLOAD_SECRET,
    )
    context = re.escape('{"session_id": "s-1", "task_id": "t-1"}')
    (debug, invoked), (info, ok) = ours(caplog)
    assert debug == logging.DEBUG
    assert re.fullmatch(rf"tool_execution middleware: invoked; context={context}", invoked)
    assert info == logging.INFO
    assert re.fullmatch(
        rf"tool_execution middleware: ok; {ELAPSED}; result=str; context={context}", ok
    )
    logged = records_text(caplog)
    assert PAYLOAD_SECRET not in logged
    assert RESULT_SECRET not in logged


def test_request_payloads_are_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    def rewrite(**kwargs: Any) -> Any:
        return {"request": {"messages": [RESULT_SECRET]}}

    middleware("llm_request")(rewrite)(
        request={"messages": [{"role": "user", "content": PAYLOAD_SECRET}]},
        original_request={"model": PAYLOAD_SECRET},
        session_id="s-2",
        model=PAYLOAD_SECRET,
    )
    messages = [m for _, m in ours(caplog)]
    assert messages[0] == 'llm_request middleware: invoked; context={"session_id": "s-2"}'
    assert re.fullmatch(
        rf'llm_request middleware: ok; {ELAPSED}; result=dict; context=\{{"session_id": "s-2"\}}',
        messages[1],
    )
    logged = records_text(caplog)
    assert PAYLOAD_SECRET not in logged
    assert RESULT_SECRET not in logged


def test_failure_logs_the_type_only(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    def fail(**kwargs: Any) -> Any:
        raise ValueError(f"{EXC_SECRET} {kwargs['args']}")

    with pytest.raises(ValueError, match=EXC_SECRET):
        middleware("tool_request")(fail)(args={"q": PAYLOAD_SECRET}, task_id="t-9")
    (_, invoked), (level, raised) = ours(caplog)
    assert invoked == 'tool_request middleware: invoked; context={"task_id": "t-9"}'
    assert level == logging.WARNING
    assert re.fullmatch(
        rf"tool_request middleware: callback raised; {ELAPSED}; error_type=ValueError;"
        r' context=\{"task_id": "t-9"\}',
        raised,
    )
    assert all(r.exc_info is None for r in caplog.records)
    logged = records_text(caplog)
    assert EXC_SECRET not in logged
    assert PAYLOAD_SECRET not in logged


def test_no_ids_give_an_empty_context(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    middleware("future_phase", allow_unknown=True)(passthrough)(args={}, session_id=None)
    ((_, ok),) = ours(caplog)
    assert re.fullmatch(
        rf"future_phase middleware: ok; {ELAPSED}; result=NoneType; context=\{{\}}", ok
    )


def test_a_second_next_call_is_logged_as_a_runtime_error(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)

    def twice(**kwargs: Any) -> Any:
        kwargs["next_call"]()
        return kwargs["next_call"]()

    with pytest.raises(RuntimeError):
        middleware("tool_execution")(twice)(args={}, next_call=RealCall())
    ((level, raised),) = ours(caplog)
    assert level == logging.WARNING
    assert "error_type=RuntimeError" in raised


# --- misspelt kinds ----------------------------------------------------------------------


def test_a_misspelt_kind_is_refused_with_a_did_you_mean() -> None:
    with pytest.raises(DeclarationError) as caught:
        middleware("tool_reqest")
    text = str(caught.value)
    assert "did you mean 'tool_request'?" in text
    for kind in MiddlewareKind:
        assert kind.value in text  # every known kind is listed
    assert "allow_unknown=True" in text


def test_an_unknown_kind_far_from_any_has_no_did_you_mean() -> None:
    with pytest.raises(DeclarationError, match="is not a middleware phase") as caught:
        middleware("banana")
    assert "did you mean" not in str(caught.value)


@pytest.mark.parametrize("kind", [*MiddlewareKind, *(k.value for k in MiddlewareKind)])
def test_every_known_kind_is_accepted(kind: MiddlewareKind | str) -> None:
    spec = declaration_of(middleware(kind)(passthrough), MiddlewareSpec)
    assert spec is not None
    assert spec.kind == str(kind)


def test_allow_unknown_keeps_a_newer_hosts_kind() -> None:
    spec = declaration_of(
        middleware("future_phase", allow_unknown=True)(passthrough), MiddlewareSpec
    )
    assert spec is not None
    assert spec.kind == "future_phase"
