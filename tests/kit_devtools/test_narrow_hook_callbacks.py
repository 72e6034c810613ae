"""A hook callback without ``**kwargs``, as each release calls it: before 0.20.1 hermes
passes every keyword (the callback raises TypeError and never runs: HPK301); from 0.20.1
(``narrows_hook_kwargs``: ``_invoke_hook_callback``, ``hermes_cli/plugins.py`` 0.20.1,
``_hook_callback_kwargs``, ``hermes_cli/plugins_dispatch.py`` 0.22.2) it passes only the
keywords the callback declares, so the callback runs unless it requires one the hook never
sends or takes it positionally only. The in-memory host and ``check`` both follow the
release."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kit_core.hermes import first_release, registry_releases
from kit_devtools.cli.lint import lint_plugin
from kit_devtools.testing import InMemoryHost

PLUGIN = """
SEEN = []


def register(ctx):
    ctx.register_hook("pre_tool_call", callback)
    if hasattr(ctx, "register_middleware"):  # 0.17.0 on
        ctx.register_middleware("tool_request", middleware)


{callback}
    SEEN.append(sorted(locals()))


def middleware(args, original_args):
    return None
"""

NARROWING = tuple(r.version for r in registry_releases() if r.narrows_hook_kwargs)
PASSING_ALL = tuple(r.version for r in registry_releases() if not r.narrows_hook_kwargs)


def load(tmp_path: Path, version: str, header: str) -> tuple[InMemoryHost, object, list[str]]:
    directory = tmp_path / "narrow_hooks"
    directory.mkdir()
    code = textwrap.dedent(PLUGIN).replace("{callback}", header)
    (directory / "__init__.py").write_text(code, encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: narrow_hooks\nkind: standalone\n")
    host = InMemoryHost(hermes=version)
    plugin = host.load(directory)
    assert plugin.enabled, plugin.error
    found = [f"{f.rule} {f.where}" for f in lint_plugin(host, plugin)]
    return host, plugin, found


def test_the_first_release_that_narrows_hook_keywords_is_0_20_1() -> None:
    first = first_release(lambda r: r.narrows_hook_kwargs)
    assert first is not None
    assert first.version == "0.20.1"
    assert PASSING_ALL[-1] == "0.20.0"


@pytest.mark.parametrize("version", NARROWING)
def test_a_narrow_callback_runs_where_the_release_narrows(tmp_path: Path, version: str) -> None:
    host, plugin, found = load(tmp_path, version, "def callback(tool_name, args):")
    host.invoke_hook("pre_tool_call", tool_name="x_tool", args={"a": 1}, task_id="t")
    assert plugin.module.SEEN == [["args", "tool_name"]]  # type: ignore[attr-defined]
    # hermes still calls middleware with every keyword: its HPK301 stands
    assert found.count("HPK301 hook pre_tool_call") == 0
    assert "HPK301 middleware tool_request" in found


@pytest.mark.parametrize("version", PASSING_ALL)
def test_a_narrow_callback_never_runs_before(tmp_path: Path, version: str) -> None:
    host, plugin, found = load(tmp_path, version, "def callback(tool_name, args):")
    host.invoke_hook("pre_tool_call", tool_name="x_tool", args={"a": 1}, task_id="t")
    assert plugin.module.SEEN == []  # type: ignore[attr-defined]
    assert "HPK301 hook pre_tool_call" in found


@pytest.mark.parametrize(
    "header",
    ["def callback(tool_name, verdict):", "def callback(tool_name, /):"],
    ids=["a keyword never sent", "positional only"],
)
@pytest.mark.parametrize("version", [NARROWING[0], NARROWING[-1]])
def test_a_callback_the_narrowed_call_cannot_satisfy_is_reported(
    tmp_path: Path, version: str, header: str
) -> None:
    host, plugin, found = load(tmp_path, version, header)
    host.invoke_hook("pre_tool_call", tool_name="x_tool", args={"a": 1}, task_id="t")
    assert plugin.module.SEEN == []  # type: ignore[attr-defined]
    assert "HPK301 hook pre_tool_call" in found
