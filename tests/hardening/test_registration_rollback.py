"""A registration that fails midway is rolled back, and reported in one error.

The host here is a model of hermes-agent 0.19.0's ``PluginContext``, ``PluginManager``
tables and tool registry (``hermes_cli/plugins.py`` 391-1241, ``tools/registry.py``
365-524), with a failure planted at one registrar call: before the host stored anything,
or after it stored the registration. Whatever step fails, the host's tables end exactly as
they were before ``register_plugin`` (other plugins' entries included), and the one
``PartialRegistrationError`` names the failed surface and what was rolled back. Hosts that
hand out handles (newer hermes) dispose them; hosts that offer no undo get a report of
what is left.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core import RegistrationError, str_arg, tool
from kit_lifecycle import (
    CommandType,
    MiddlewareKind,
    PartialRegistrationError,
    PluginSkill,
    command,
    hook,
    middleware,
    plugin_skill,
    register_plugin,
)

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))
PLUGIN = "rollback-demo"
ENV_NAME = "HPK_ROLLBACK_SERVICE_KEY"

# -- a model of hermes-agent 0.19.0 ----------------------------------------------------------


@dataclass
class ToolEntry:
    name: str
    toolset: str
    handler: Any


class Registry:
    """``tools.registry.registry`` as the kit uses it: get_entry, register, deregister."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolEntry] = {}

    def get_entry(self, name: str) -> ToolEntry | None:
        return self._tools.get(name)

    def register(self, name: str, toolset: str, handler: Any, **rest: Any) -> None:
        existing = self._tools.get(name)
        if existing is not None and existing.toolset != toolset:
            return  # 0.19.0 logs "Tool registration REJECTED" at ERROR and returns
        self._tools[name] = ToolEntry(name, toolset, handler)

    def deregister(self, name: str) -> None:
        self._tools.pop(name, None)


class Manager:
    """The ``PluginManager`` tables ``PluginContext`` writes to."""

    def __init__(self) -> None:
        self._hooks: dict[str, list[Any]] = {}
        self._middleware: dict[str, list[Any]] = {}
        self._plugin_tool_names: set[str] = set()
        self._cli_commands: dict[str, dict[str, Any]] = {}
        self._plugin_commands: dict[str, dict[str, Any]] = {}
        self._plugin_skills: dict[str, dict[str, Any]] = {}

    def remove_plugin_skill(self, qualified_name: str) -> None:
        self._plugin_skills.pop(qualified_name, None)


class Planted(RuntimeError):
    """The failure planted at one registrar call."""


class Context:
    """``PluginContext`` of 0.19.0, raising at ``fail_at`` before (or after) storing it."""

    def __init__(
        self, manager: Manager, registry: Registry, fail_at: str = "", after: bool = False
    ) -> None:
        self.manifest = SimpleNamespace(name=PLUGIN, key=PLUGIN)
        self._manager = manager
        self.registry = registry
        self.fail_at = fail_at
        self.after = after

    def _gate(self, label: str, stored: bool) -> None:
        if label == self.fail_at and stored == self.after:
            raise Planted(f"{label} refused ({'after' if stored else 'before'} storing)")

    def register_command(
        self, name: str, handler: Any, description: str = "", args_hint: str = ""
    ) -> None:
        self._gate(f"command {name!r}", False)
        self._manager._plugin_commands[name] = {"handler": handler, "plugin": PLUGIN}
        self._gate(f"command {name!r}", True)

    def register_cli_command(
        self, name: str, help: str, setup_fn: Any, handler_fn: Any = None, description: str = ""
    ) -> None:
        self._gate(f"CLI command {name!r}", False)
        self._manager._cli_commands[name] = {"name": name, "handler_fn": handler_fn}
        self._gate(f"CLI command {name!r}", True)

    def register_tool(
        self, name: str, toolset: str, schema: Any, handler: Any, **rest: Any
    ) -> None:
        self._gate(f"tool {name!r}", False)
        self.registry.register(name=name, toolset=toolset, handler=handler)
        self._manager._plugin_tool_names.add(name)
        self._gate(f"tool {name!r}", True)

    def register_middleware(self, kind: str, callback: Any) -> None:
        self._gate(f"middleware {kind!r}", False)
        self._manager._middleware.setdefault(kind, []).append(callback)
        self._gate(f"middleware {kind!r}", True)

    def register_hook(self, hook_name: str, callback: Any) -> None:
        self._gate(f"hook {hook_name!r}", False)
        self._manager._hooks.setdefault(hook_name, []).append(callback)
        self._gate(f"hook {hook_name!r}", True)

    def register_skill(self, name: str, path: Path, description: str = "") -> None:
        self._gate(f"skill {name!r}", False)
        if not path.exists():
            raise FileNotFoundError(f"SKILL.md not found at {path}")
        self._manager._plugin_skills[f"{PLUGIN}:{name}"] = {"path": path, "bare_name": name}
        self._gate(f"skill {name!r}", True)


def state(manager: Manager, registry: Registry) -> dict[str, Any]:
    """Everything the host holds, by identity (an equal copy is not the same entry)."""
    return {
        "hooks": {k: [id(cb) for cb in v] for k, v in manager._hooks.items()},
        "middleware": {k: [id(cb) for cb in v] for k, v in manager._middleware.items()},
        "tool_names": sorted(manager._plugin_tool_names),
        "cli": {k: id(v) for k, v in manager._cli_commands.items()},
        "commands": {k: id(v) for k, v in manager._plugin_commands.items()},
        "skills": {k: id(v) for k, v in manager._plugin_skills.items()},
        "tools": {k: id(v) for k, v in registry._tools.items()},
    }


@contextmanager
def installed(made: Registry) -> Generator[Registry, None, None]:
    """``made`` as hermes' ``tools.registry.registry`` (the conftest hides the real one)."""
    module = ModuleType("tools.registry")
    module.registry = made  # type: ignore[attr-defined]
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "tools.registry", module)
        yield made


@pytest.fixture
def registry() -> Iterator[Registry]:
    with installed(Registry()) as made:
        yield made


# -- the plugin: two of every surface ----------------------------------------------------------


@tool(toolset="rollback", name="rb_one", requires_env=[ENV_NAME], params={"q": str_arg("Q")})
def rb_one(args: dict[str, Any], **kwargs: Any) -> object:
    """First tool."""
    return args


@tool(toolset="rollback", name="rb_two", params={"q": str_arg("Q")})
def rb_two(args: dict[str, Any], **kwargs: Any) -> object:
    """Second tool."""
    return args


@command("rb-alpha", "Alpha.")
def rb_alpha(raw: str) -> str:
    return raw


@command("rb-beta", "Beta.")
def rb_beta(raw: str) -> str:
    return raw


@command("rb-admin", "Administer.", type=CommandType.CLI)
def rb_admin(ns: Any) -> int:
    return 0


@command("rb-report", "Report.", type=CommandType.CLI)
def rb_report(ns: Any) -> int:
    return 0


@middleware(MiddlewareKind.TOOL_REQUEST)
def rb_request(**kwargs: Any) -> None:
    return None


@middleware(MiddlewareKind.TOOL_EXECUTION)
def rb_execution(**kwargs: Any) -> Any:
    return kwargs["next_call"]()


@hook("pre_tool_call")
def rb_guard(**kwargs: Any) -> None:
    return None


@hook("post_tool_call")
def rb_observe(**kwargs: Any) -> None:
    return None


DECLARATIONS: dict[str, Any] = {
    "command 'rb-alpha'": rb_alpha,
    "command 'rb-beta'": rb_beta,
    "CLI command 'rb-admin'": rb_admin,
    "CLI command 'rb-report'": rb_report,
    "tool 'rb_one'": rb_one,
    "tool 'rb_two'": rb_two,
    "middleware 'tool_execution'": rb_execution,
    "middleware 'tool_request'": rb_request,
    "hook 'post_tool_call'": rb_observe,
    "hook 'pre_tool_call'": rb_guard,
}
"""Label -> declaration, in the order register_plugin hands them to the host."""
SKILL_NAMES = ("rb-guide", "rb-howto")
STEPS = (*DECLARATIONS, *(f"skill {name!r}" for name in SKILL_NAMES))


@pytest.fixture(scope="module")
def skills(tmp_path_factory: pytest.TempPathFactory) -> tuple[PluginSkill, ...]:
    made: list[PluginSkill] = []
    for name in SKILL_NAMES:
        path = tmp_path_factory.mktemp(name) / "SKILL.md"
        path.write_text(f"---\nname: {name}\n---\n")
        made.append(plugin_skill(name, path, f"The {name} skill."))
    return tuple(made)


def foreign(manager: Manager, registry: Registry) -> None:
    """Another plugin's registrations, under the same names: they must survive untouched."""
    manager._hooks["pre_tool_call"] = [lambda **kw: None]
    manager._middleware["tool_request"] = [lambda **kw: None, rb_request]  # ours, once before
    manager._plugin_commands["rb-beta"] = {"handler": print, "plugin": "other"}
    manager._cli_commands["unrelated"] = {"name": "unrelated"}
    registry.register(name="other_tool", toolset="other", handler=print)
    manager._plugin_tool_names.add("other_tool")


QUIET = logging.getLogger("hpk.hardening.rollback")


class RaisingLogger(logging.Logger):
    """A receipt logger whose handler fails (a full disk, a closed stream)."""

    def info(self, msg: object, *args: object, **kwargs: Any) -> None:
        raise OSError("the log disk is full")


# -- every step, before and after the host stored it ------------------------------------------


@pytest.mark.parametrize("after", [False, True], ids=["before-storing", "after-storing"])
@pytest.mark.parametrize("step", STEPS)
def test_a_failure_at_any_step_leaves_the_host_as_it_was(
    step: str, after: bool, registry: Registry, skills: tuple[PluginSkill, ...]
) -> None:
    manager = Manager()
    foreign(manager, registry)
    before = state(manager, registry)
    ctx = Context(manager, registry, fail_at=step, after=after)
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(ctx, list(DECLARATIONS.values()), skills, logger=QUIET)
    error = caught.value
    assert state(manager, registry) == before
    assert manager._plugin_commands["rb-beta"]["plugin"] == "other"  # the earlier entry is back
    assert error.failed == step
    earlier = list(STEPS[: STEPS.index(step) + (1 if after else 0)])
    assert error.rolled_back == tuple(reversed(earlier))
    assert error.left_registered == ()
    assert isinstance(error.__cause__, Planted)
    assert isinstance(error, RegistrationError)
    text = str(error)
    assert text.startswith(f"plugin {PLUGIN!r}: registering {step} failed with Planted: ")
    assert "Nothing is left registered: fix the cause and load the plugin again." in text


def test_a_skill_file_removed_after_the_checks(
    registry: Registry, tmp_path: Path, skills: tuple[PluginSkill, ...]
) -> None:
    doomed = tmp_path / "doomed" / "SKILL.md"
    doomed.parent.mkdir()
    doomed.write_text("---\nname: doomed\n---\n")
    manager = Manager()
    before = state(manager, registry)

    class Deleting(Context):
        def register_hook(self, hook_name: str, callback: Any) -> None:
            super().register_hook(hook_name, callback)
            doomed.unlink(missing_ok=True)  # gone between the checks and register_skill

    declared = [*skills, plugin_skill("doomed", doomed, "Gone too soon.")]
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(Deleting(manager, registry), list(DECLARATIONS.values()), declared)
    assert state(manager, registry) == before
    assert caught.value.failed == "skill 'doomed'"
    assert f"FileNotFoundError: SKILL.md not found at {doomed}" in str(caught.value)
    # "doomed" sorts first: the skills after it were never registered
    assert caught.value.rolled_back[:2] == ("hook 'pre_tool_call'", "hook 'post_tool_call'")


def test_a_receipt_logger_that_raises(registry: Registry, skills: tuple[PluginSkill, ...]) -> None:
    manager = Manager()
    foreign(manager, registry)
    before = state(manager, registry)
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(
            Context(manager, registry),
            list(DECLARATIONS.values()),
            skills,
            logger=RaisingLogger("hpk.raising"),
        )
    assert state(manager, registry) == before
    error = caught.value
    assert error.failed == "the registration receipt"
    assert error.rolled_back == tuple(reversed(STEPS))
    assert str(error).startswith(
        f"plugin {PLUGIN!r}: logging the registration receipt failed with OSError:"
        " the log disk is full. Rolled back: skill 'rb-howto', skill 'rb-guide', hook"
    )


def test_an_interrupt_is_rolled_back_and_stays_an_interrupt(registry: Registry) -> None:
    manager = Manager()

    class Interrupted(Context):
        def register_hook(self, hook_name: str, callback: Any) -> None:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as caught:
        register_plugin(Interrupted(manager, registry), list(DECLARATIONS.values()), logger=QUIET)
    assert state(manager, registry) == state(Manager(), Registry())
    (note,) = caught.value.__notes__
    assert note.startswith(f"plugin {PLUGIN!r}: registering hook 'post_tool_call' failed with")


def test_an_undo_the_host_refuses_is_reported_and_the_rest_still_undone(
    registry: Registry,
) -> None:
    manager = Manager()

    def refuse(name: str) -> None:
        raise PermissionError(f"cannot deregister {name}")

    registry.deregister = refuse
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(
            Context(manager, registry, fail_at="hook 'pre_tool_call'"),
            list(DECLARATIONS.values()),
            logger=QUIET,
        )
    error = caught.value
    assert error.left_registered == (
        "tool 'rb_two' (undoing it raised PermissionError)",
        "tool 'rb_one' (undoing it raised PermissionError)",
    )
    assert "tool 'rb_one'" not in error.rolled_back
    assert "command 'rb-alpha'" in error.rolled_back
    assert sorted(registry._tools) == ["rb_one", "rb_two"]
    assert manager._plugin_tool_names == {"rb_one", "rb_two"}  # still listed: still registered
    assert manager._hooks == {}
    assert manager._plugin_commands == {}
    assert "Fix the cause and restart hermes (what is left registered stays until then)." in str(
        error
    )


def test_a_tool_that_replaced_an_earlier_one_stays_and_says_why(registry: Registry) -> None:
    manager = Manager()
    registry.register(name="rb_one", toolset="rollback", handler=print)  # same toolset: replaced
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(
            Context(manager, registry, fail_at="hook 'pre_tool_call'"),
            list(DECLARATIONS.values()),
            logger=QUIET,
        )
    assert caught.value.left_registered == (
        "tool 'rb_one' (it replaced the tool of that name registered earlier in toolset"
        " 'rollback', and hermes keeps no copy of that one to put back)",
    )
    entry = registry.get_entry("rb_one")
    assert entry is not None
    assert entry.handler is not print
    assert "rb_two" not in registry._tools


def test_what_the_host_refused_is_not_reported_and_its_listing_is_cleaned(
    registry: Registry,
) -> None:
    manager = Manager()

    class Refusing(Registry):
        def register(self, name: str, toolset: str, handler: Any, **rest: Any) -> None:
            return None  # the registry refused it (0.19.0 still lists the name)

    refusing = Refusing()
    with installed(refusing), pytest.raises(PartialRegistrationError) as caught:
        register_plugin(
            Context(manager, refusing, fail_at="hook 'pre_tool_call'"),
            list(DECLARATIONS.values()),
            logger=QUIET,
        )
    assert not any(label.startswith("tool") for label in caught.value.rolled_back)
    assert manager._plugin_tool_names == set()


def test_an_entry_replaced_since_by_another_registration_is_left_alone(
    registry: Registry,
) -> None:
    manager = Manager()
    theirs = {"handler": print, "plugin": "other"}

    class Racing(Context):
        def register_hook(self, hook_name: str, callback: Any) -> None:
            self._manager._plugin_commands["rb-alpha"] = theirs  # another thread, meanwhile
            raise Planted("hook refused")

    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(Racing(manager, registry), list(DECLARATIONS.values()), logger=QUIET)
    assert manager._plugin_commands == {"rb-alpha": theirs}
    assert caught.value.left_registered == (
        "command 'rb-alpha' (replaced since by another registration of that name)",
    )


# -- hosts with handles, and hosts without any undo ------------------------------------------


class Handle:
    def __init__(self, label: str, disposed: list[str]) -> None:
        self.label = label
        self.disposed = disposed

    def dispose(self) -> None:
        self.disposed.append(self.label)


class HandleContext:
    """A newer hermes: every registrar returns a handle; a ledger unwinds a failed register()."""

    def __init__(self, fail_at: str) -> None:
        self.manifest = SimpleNamespace(name=PLUGIN)
        self._manager = SimpleNamespace(_ownership_ledger={}, _hooks={})
        self.fail_at = fail_at
        self.disposed: list[str] = []

    def _handle(self, label: str) -> Handle:
        if label == self.fail_at:
            raise Planted(label)
        return Handle(label, self.disposed)

    def register_command(self, name: str, **kw: Any) -> Handle:
        return self._handle(f"command {name!r}")

    def register_cli_command(self, name: str, **kw: Any) -> Handle:
        return self._handle(f"CLI command {name!r}")

    def register_tool(self, name: str, **kw: Any) -> Handle:
        return self._handle(f"tool {name!r}")

    def register_middleware(self, kind: str, callback: Any) -> Handle:
        return self._handle(f"middleware {kind!r}")

    def register_hook(self, hook_name: str, callback: Any) -> Handle:
        self._manager._hooks.setdefault(hook_name, []).append(callback)  # never the kit's to edit
        return self._handle(f"hook {hook_name!r}")


@pytest.mark.parametrize("step", list(DECLARATIONS))
def test_a_host_with_handles_disposes_them_newest_first(step: str) -> None:
    ctx = HandleContext(step)
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(ctx, list(DECLARATIONS.values()), logger=QUIET)
    earlier = list(STEPS[: STEPS.index(step)])
    assert ctx.disposed == list(reversed(earlier))
    assert caught.value.rolled_back == tuple(reversed(earlier))
    assert caught.value.left_registered == ()
    stored_hooks = sum(len(v) for v in ctx._manager._hooks.values())
    assert stored_hooks == sum(1 for label in STEPS[: STEPS.index(step) + 1] if "hook" in label)


@pytest.mark.parametrize("step", list(DECLARATIONS))
def test_a_host_without_undo_reports_everything_left(step: str) -> None:
    calls: list[str] = []

    def registrar(surface: str, key: str) -> Callable[..., None]:
        def register(*args: Any, **kwargs: Any) -> None:
            label = f"{surface} {(kwargs.get(key) or args[0])!r}"
            if label == step:
                raise Planted(label)
            calls.append(label)

        return register

    ctx = SimpleNamespace(
        register_command=registrar("command", "name"),
        register_cli_command=registrar("CLI command", "name"),
        register_tool=registrar("tool", "name"),
        register_middleware=registrar("middleware", "kind"),
        register_hook=registrar("hook", "hook_name"),
    )
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(ctx, list(DECLARATIONS.values()), plugin_name=PLUGIN, logger=QUIET)
    assert caught.value.rolled_back == ()
    assert caught.value.left_registered == tuple(
        f"{label} (this host offers no way to remove a registration)" for label in reversed(calls)
    )
    if calls:
        assert "Fix the cause and restart hermes" in str(caught.value)


# -- any plugin, any pre-existing host state, any failing step ------------------------------


@HARDENING
@given(
    chosen=st.lists(st.sampled_from(list(DECLARATIONS)), min_size=1, unique=True),
    with_skills=st.booleans(),
    data=st.data(),
    after=st.booleans(),
    crowded=st.booleans(),
    replaced_tool=st.booleans(),
)
def test_any_failure_leaves_the_host_as_it_was_except_what_it_reports(
    chosen: list[str],
    with_skills: bool,
    data: st.DataObject,
    after: bool,
    crowded: bool,
    replaced_tool: bool,
    skills: tuple[PluginSkill, ...],
    tally: Any,
) -> None:
    steps = [label for label in STEPS if label in chosen or (with_skills and "skill" in label)]
    step = data.draw(st.sampled_from([*steps, "the registration receipt"]))
    manager, made = Manager(), Registry()
    if crowded:
        foreign(manager, made)
    if replaced_tool:
        made.register(name="rb_two", toolset="rollback", handler=print)
    before = state(manager, made)
    receipt = step == "the registration receipt"
    ctx = Context(manager, made, fail_at="" if receipt else step, after=after)
    with installed(made), pytest.raises(PartialRegistrationError) as caught:
        register_plugin(
            ctx,
            [DECLARATIONS[label] for label in chosen],
            skills if with_skills else (),
            logger=RaisingLogger("hpk.raising") if receipt else QUIET,
        )
    error = caught.value
    assert error.failed == step
    stored = steps if receipt else steps[: steps.index(step) + (1 if after else 0)]
    kept = [label.split(" (")[0] for label in error.left_registered]
    assert sorted([*error.rolled_back, *kept]) == sorted(stored)
    assert error.rolled_back == tuple(label for label in reversed(stored) if label not in kept)
    now = state(manager, made)
    if kept:  # only a tool that replaced an earlier one of its toolset cannot be undone
        assert kept == ["tool 'rb_two'"]
        assert replaced_tool
        now["tools"].pop("rb_two")
        before["tools"].pop("rb_two")
        now["tool_names"] = [n for n in now["tool_names"] if n != "rb_two"]  # listed: it is there
    assert now == before
    tally.fuzz("register_plugin rollback")
