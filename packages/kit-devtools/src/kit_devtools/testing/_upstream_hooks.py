"""Hook dispatch as upstream hermes runs it from 0.20.1 on (the releases whose
``narrows_hook_kwargs`` holds), for an in-memory host playing such a release; modelled on
0.21.3, with what differs before it decided by the release's observed facts:

* 0.20.1 narrows the keywords but neither awaits a coroutine (``awaits_hooks``: the bare
  coroutine is the result) nor bounds a callback by time (no
  ``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``, so ``timeout_fail_closed_hooks`` is empty);
* 0.20.6 adds the bounded dispatch below.

* ``PluginDispatchMixin.invoke_hook``: every callback in registration order;
  ``telemetry_schema_version`` added (not for ``gateway_platform_event``); an exception is
  logged and the next callback runs, except that a *fail-closed* hook (``pre_tool_call``,
  ``pre_tts_synthesis``) turns it into
  ``{"action": "block", "message": "<hook> plugin callback <name> raised <Type>: <msg>"}``
  (``_policy_error_block_directive``, message cut at 200 characters).
* ``_invoke_hook_callback``: a callback gets only the keywords it declares unless it takes
  ``**kwargs`` (``_hook_callback_kwargs``), and a coroutine it returns is awaited with
  ``resolve_plugin_command_result`` (``asyncio.run``, or a helper thread when a loop is
  running).
* A raising callback blocks where the release's ``fail_closed_hooks`` has the hook (a
  raising ``pre_tool_call`` blocks from 0.21.5), a timed-out one where its
  ``timeout_fail_closed_hooks`` has it (``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``, from 0.20.6):
  both observed on the releases.
* Bounded hooks (``_HOOK_TIMEOUT_BOUNDED_HOOKS`` and the fail-closed ones) run on a daemon
  worker with a copied context for at most ``plugins.hook_callback_timeout`` seconds
  (default 30, at most 600). A worker still running is abandoned: the callback is
  skipped, and a fail-closed hook blocks with
  ``"pre_tool_call plugin callback timed out or is still running"``.

Not modelled: the 60 s suppression of a callback after a timeout and the cap of three
abandoned workers, lazy discovery, and the observability layer of ``hermes_cli.lifecycle``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, Final

from kit_devtools.testing._commands import TIMED_OUT, on_worker, resolve_command_result
from kit_devtools.testing._state import HostState

BOUNDED_HOOKS: Final = frozenset(
    {
        "post_tool_call", "transform_terminal_output", "transform_tool_result",
        "transform_llm_output", "pre_llm_call", "post_llm_call", "pre_api_request",
        "post_api_request", "api_request_error", "pre_auxiliary_call", "post_auxiliary_call",
        "pre_verify", "on_session_start", "on_session_end",
    }
)  # fmt: skip
"""``_HOOK_TIMEOUT_BOUNDED_HOOKS``."""

TIMEOUT_BLOCK_MESSAGE: Final = "pre_tool_call plugin callback timed out or is still running"
"""``_PRE_TOOL_CALL_TIMEOUT_BLOCK_MESSAGE``."""

DEFAULT_TIMEOUT_SECONDS: Final = 30.0
MAX_TIMEOUT_SECONDS: Final = 600.0


def callback_timeout(state: HostState) -> float:
    """``plugins.hook_callback_timeout`` of the host's config: 30 s by default, at most
    600 s; a value that is not a number gives the default."""
    plugins: Any = state.config.get("plugins") or {}
    raw: Any = plugins.get("hook_callback_timeout", DEFAULT_TIMEOUT_SECONDS)
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return DEFAULT_TIMEOUT_SECONDS
    return min(value, MAX_TIMEOUT_SECONDS)


def callback_kwargs(callback: Callable[..., Any], payload: dict[str, Any]) -> dict[str, Any]:
    """Everything for a ``**kwargs`` callback, else only the keywords it declares."""
    try:
        parameters = inspect.signature(callback).parameters
    except (TypeError, ValueError):
        return dict(payload)
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return dict(payload)
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {k: v for k, v in payload.items() if k in parameters and parameters[k].kind in kinds}


def _invoke(callback: Callable[..., Any], payload: dict[str, Any], awaits: bool) -> Any:
    """The callback with the keywords it takes; a coroutine it returns is awaited where the
    release awaits hooks, else it is the result (as 0.20.x appends it)."""
    result = callback(**callback_kwargs(callback, payload))
    return resolve_command_result(result) if awaits else result


def name_of(callback: object) -> str:
    return str(getattr(callback, "__name__", repr(callback)))


def invoke_hook(
    state: HostState, hook_name: str, entries: Sequence[Any], **kwargs: Any
) -> list[Any]:
    """Upstream's ``invoke_hook`` over ``entries`` (the hook's registered callbacks)."""
    if hook_name != "gateway_platform_event":
        kwargs.setdefault("telemetry_schema_version", state.release.observer_schema_version)
    release = state.release
    timeout = callback_timeout(state)
    # blocking on a raise (0.21.5 on) and on a timeout (0.20.6 on) are facts of their own;
    # a release with no timeout-fail-closed table (0.20.1) bounds no callback at all
    fail_closed = hook_name in release.fail_closed_hooks
    timeout_closed = hook_name in release.timeout_fail_closed_hooks
    bounds = bool(release.timeout_fail_closed_hooks)
    use_timeout = bounds and timeout > 0 and (hook_name in BOUNDED_HOOKS or timeout_closed)
    awaits = release.awaits_hooks
    results: list[Any] = []
    for entry in list(entries):
        callback = entry.callback
        try:
            if use_timeout:
                call = functools.partial(_invoke, callback, kwargs, awaits)
                result = on_worker(call, timeout, "hermes-hook", copy=True)
                if result is TIMED_OUT:
                    message = (
                        f"Hook '{hook_name}' callback {name_of(callback)} timed out after"
                        f" {timeout:g}s — skipping"
                    )
                    state.record("WARNING", entry.plugin, "hook_call", hook_name, message)
                    if timeout_closed:
                        results.append({"action": "block", "message": TIMEOUT_BLOCK_MESSAGE})
                    continue
            else:
                result = _invoke(callback, kwargs, awaits)
        except (Exception, SystemExit) as exc:
            message = f"Hook '{hook_name}' callback {name_of(callback)} raised: {exc}"
            state.record("WARNING", entry.plugin, "hook_call", hook_name, message, exc)
            if fail_closed:
                text = f"{type(exc).__name__}: {str(exc)[:200]}"
                block = f"{hook_name} plugin callback {name_of(callback)} raised {text}"
                results.append({"action": "block", "message": block})
            continue
        if result is not None:
            results.append(result)
    return results
