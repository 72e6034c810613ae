"""What the in-memory host records: one frozen entry per registration, and per plugin."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

__all__ = [
    "CliCommandEntry",
    "CommandEntry",
    "HookEntry",
    "HostEvent",
    "LoadedPlugin",
    "MiddlewareEntry",
    "PluginManifest",
    "PluginToolOverrideError",
    "RequestMiddlewareResult",
    "SkillEntry",
    "ToolEntry",
]


class PluginToolOverrideError(PermissionError):
    """``register_tool(..., override=True)`` without the operator's opt-in.

    Like hermes' own ``PluginToolOverrideError``: set
    ``plugins.entries.<plugin>.allow_tool_override: true`` in the host's config to allow it.
    """


@dataclass(frozen=True, slots=True)
class PluginManifest:
    """``ctx.manifest`` as hermes builds it (``PluginManifest``; no ``config`` field)."""

    name: str
    version: str = ""
    description: str = ""
    author: str = ""
    requires_env: list[Any] = field(default_factory=list[Any])
    provides_tools: list[Any] = field(default_factory=list[Any])
    provides_hooks: list[Any] = field(default_factory=list[Any])
    source: str = ""
    """``"user"`` for a directory or module plugin, ``"entrypoint"`` for an entry point."""
    path: str | None = None
    kind: str = "standalone"
    key: str = ""


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """A tool in the registry, with the fields hermes' ``ToolEntry`` stores."""

    name: str
    toolset: str
    schema: dict[str, Any]
    handler: Callable[..., Any] = field(repr=False)
    check_fn: Callable[[], Any] | None
    requires_env: list[Any]
    is_async: bool
    description: str
    """``description=`` or the schema's description; never sent to the model."""
    emoji: str
    plugin: str


@dataclass(frozen=True, slots=True)
class HookEntry:
    """One ``register_hook`` call."""

    name: str
    callback: Callable[..., Any] = field(repr=False)
    plugin: str


@dataclass(frozen=True, slots=True)
class MiddlewareEntry:
    """One ``register_middleware`` call."""

    kind: str
    callback: Callable[..., Any] = field(repr=False)
    plugin: str


@dataclass(frozen=True, slots=True)
class CommandEntry:
    """A slash command as hermes stores it (normalised name, default description)."""

    name: str
    handler: Callable[..., Any] = field(repr=False)
    description: str
    args_hint: str
    plugin: str


@dataclass(frozen=True, slots=True)
class CliCommandEntry:
    """A ``hermes <name>`` terminal command (stored without validation, like the host)."""

    name: str
    help: str
    setup_fn: Callable[..., Any] = field(repr=False)
    handler_fn: Callable[..., Any] | None = field(repr=False)
    description: str
    plugin: str


@dataclass(frozen=True, slots=True)
class SkillEntry:
    """A plugin skill, resolvable as ``"<plugin>:<name>"``."""

    qualified_name: str
    name: str
    path: Path
    description: str
    plugin: str


@dataclass(frozen=True, slots=True)
class HostEvent:
    """A line the real host would log at WARNING or ERROR.

    ``surface`` says where: ``plugin`` (loading), ``tool``, ``hook``, ``middleware``,
    ``command``, ``skill``, ``context`` (registration), or ``tool_call``, ``hook_call``,
    ``middleware_call`` (at run time). ``exception`` is the exception behind it, if any.
    """

    level: Literal["WARNING", "ERROR"]
    plugin: str
    surface: str
    name: str
    message: str
    exception: BaseException | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class LoadedPlugin:
    """One ``load()``: the plugin, whether ``register(ctx)`` succeeded, and its credits.

    ``tools`` includes names the registry refused (hermes credits them too). When
    ``register`` raised, the credits are what it registered before raising (hermes keeps
    those registrations but lists none of them).
    """

    key: str
    name: str
    source: Literal["directory", "module", "entrypoint"]
    path: Path | None
    module: ModuleType | None = field(repr=False)
    manifest: dict[str, Any]
    """``plugin.yaml`` as parsed (``{}`` for an entry point or a module without one)."""
    enabled: bool
    error: str | None = None
    exception: BaseException | None = field(default=None, repr=False)
    tools: tuple[str, ...] = ()
    hooks: tuple[str, ...] = ()
    middleware: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    cli_commands: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    kind: str = "standalone"
    """The kind hermes gives it (``plugin.yaml``'s, or re-kinded from its source): an
    ``exclusive`` memory provider or a ``model-provider`` is recorded, never loaded."""


@dataclass(slots=True)
class RequestMiddlewareResult:
    """What hermes' ``apply_*_request_middleware`` returns."""

    payload: Any
    original_payload: Any
    changed: bool = False
    trace: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
