"""Hooks on upstream hermes (0.21.3), played by ``InMemoryHost(hermes="0.21")``, and the
same plugins on the default profile (hermes-agent 0.19.0), whose behaviour is unchanged.

Upstream behaviour pinned here, modelled from source:

* an ``async def`` hook callback is awaited: ``PluginDispatchMixin._invoke_hook_callback``
  -> ``resolve_plugin_command_result`` (``hermes_cli/plugins_dispatch.py`` L198-207 @
  ``006a5aebb4d134ba188ff60adf1a02f668312b5f``; ``hermes_cli/plugins.py`` L1996-2027 @
  ``00067189dfecf833d4d009c2dd977ae85cf800e0``);
* ``pre_tool_call`` fails closed: a callback that raises becomes a block directive naming
  it (``_policy_error_block_directive``, plugins_dispatch.py L59-65, L239-242), one that
  outlives ``plugins.hook_callback_timeout`` blocks with
  ``"pre_tool_call plugin callback timed out or is still running"`` (L56, L231-234);
  the registration warning words what is blocked per hook: the tool call for
  ``pre_tool_call``, the speech synthesis for ``pre_tts_synthesis`` (fail-closed with it,
  L48-49; its block directive makes ``enforce_pre_synthesis`` raise before any TTS
  provider is called: stored file id 69597642443, "One fail-closed policy boundary for
  sync and chunked-streaming speech", whose path and commit the store does not resolve);
* ``{"action": "modify", "args": {...}}`` is merged over the call's arguments
  (``_get_pre_tool_call_directive_details`` L1784-1827, merge at L1808-1816, and
  ``_dispatch_pre_tool_call_hooks`` L1887-1895, hermes_cli/plugins.py @00067189; PR #87482).
"""

from __future__ import annotations

import json
import logging
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_core._host_model import UPSTREAM_FAIL_CLOSED_HOOKS
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


# -- item 2: async hooks ------------------------------------------------------------------


@pytest.mark.upstream("hooks: async hooks awaited and logged")
def test_upstream_awaits_an_async_hook_and_the_kit_logs_the_awaited_result(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    host = InMemoryHost(hermes="0.21", strict=True)
    loaded = host.load(plugin(tmp_path, "up_async", ASYNC_HOOKS))
    assert set(loaded.hooks) == {"post_llm_call", "on_session_end"}
    with caplog.at_level(logging.INFO):
        assert host.invoke_hook("post_llm_call", session_id="s-1") == ["awaited:s-1"]
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("post_llm_call")]
    assert len(lines) == 1
    assert "post_llm_call: ok;" in lines[0]
    assert "result=str" in lines[0]
    assert "coroutine" not in lines[0]


@pytest.mark.upstream("hooks: async hooks awaited and logged")
def test_an_exception_inside_an_async_hook_gets_the_kits_failure_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    host = InMemoryHost(hermes="0.21", strict=True)
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


def test_the_default_profile_still_refuses_async_hooks(tmp_path: Path) -> None:
    loaded = InMemoryHost().load(plugin(tmp_path, "up_async", ASYNC_HOOKS))
    assert loaded.enabled is False
    assert loaded.error is not None
    assert "async def hooks never run on hermes-agent 0.19.0" in loaded.error


# -- item 4: pre_tool_call fails closed; modify ------------------------------------------


@pytest.mark.upstream("pre_tool_call: fails closed, the kit warns")
def test_a_raising_guard_blocks_every_tool_on_upstream(tmp_path: Path) -> None:
    host = guarded_host(tmp_path, "raise", "0.21")
    result = json.loads(host.call_tool("up_echo", {"text": "hi"}))
    assert result == {
        "error": "pre_tool_call plugin callback guard raised RuntimeError: guard crashed"
    }


def test_a_raising_guard_is_skipped_on_the_default_profile(tmp_path: Path) -> None:
    host = guarded_host(tmp_path, "raise", None)
    result = json.loads(host.call_tool("up_echo", {"text": "hi"}))
    assert result["success"] is True
    assert result["data"] == {"text": "hi"}


@pytest.mark.upstream("pre_tool_call: fails closed, the kit warns")
def test_a_guard_past_the_timeout_blocks_on_upstream(tmp_path: Path) -> None:
    host = guarded_host(tmp_path, "slow", "0.21", plugins={"hook_callback_timeout": 0.2})
    result = json.loads(host.call_tool("up_echo", {"text": "hi"}))
    assert result == {"error": "pre_tool_call plugin callback timed out or is still running"}


@pytest.mark.upstream("pre_tool_call: modify directive applied")
@pytest.mark.parametrize(("hermes", "text"), [("0.21", "rewritten"), (None, "hi")])
def test_a_modify_directive_changes_the_args_on_upstream_only(
    tmp_path: Path, hermes: str | None, text: str
) -> None:
    host = guarded_host(tmp_path, "modify", hermes)
    result = json.loads(host.call_tool("up_echo", {"text": "hi"}))
    assert result["data"] == {"text": text}


@pytest.mark.upstream("pre_tool_call: fails closed, the kit warns")
@pytest.mark.parametrize(("hermes", "warned"), [("0.21", True), (None, False)])
def test_a_guard_hook_is_warned_about_where_the_host_fails_closed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, hermes: str | None, warned: bool
) -> None:
    with caplog.at_level(logging.WARNING):
        guarded_host(tmp_path, "none", hermes)
    found = [r for r in caplog.records if "fails pre_tool_call closed" in r.getMessage()]
    assert len(found) == (1 if warned else 0)
    if warned:
        assert found[0].levelno == logging.WARNING
        assert "every tool of every plugin" in found[0].getMessage()


@pytest.mark.upstream("pre_tool_call: fails closed, the kit warns")
def test_the_fail_closed_warning_names_what_pre_tts_synthesis_blocks(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # pre_tts_synthesis is fail-closed too (_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS,
    # hermes_cli/plugins_dispatch.py L48-49 @006a5aeb; a raising or timed-out callback
    # becomes a block directive, L231-242), and what that directive stops is the speech:
    # enforce_pre_synthesis raises ValueError before any TTS provider runs (stored file id
    # 69597642443), not a tool call. 00067189's VALID_HOOKS (hermes_cli/plugins.py
    # L108-199) lacks the hook, so the modelled profile refuses it: the warning is checked
    # against the table upstream's dispatcher holds.
    monkeypatch.setattr(_fail_closed, "host_fail_closed_hooks", lambda: UPSTREAM_FAIL_CLOSED_HOOKS)
    with caplog.at_level(logging.WARNING):
        _fail_closed.warn_fail_closed(
            ["pre_tts_synthesis", "pre_tool_call"], "up_tts", logging.getLogger("up_tts")
        )
    by_hook = {
        hook: [r.getMessage() for r in caplog.records if f"fails {hook} closed" in r.getMessage()]
        for hook in ("pre_tts_synthesis", "pre_tool_call")
    }
    (tts,) = by_hook["pre_tts_synthesis"]
    assert "hermes blocks the speech synthesis" in tts
    assert "tool call" not in tts
    (tool,) = by_hook["pre_tool_call"]
    assert "hermes blocks the tool call, for every tool of every plugin" in tool
