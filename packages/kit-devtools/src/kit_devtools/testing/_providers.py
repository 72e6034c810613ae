"""The ``PluginContext`` members beyond tools, commands, hooks, middleware and skills:
provider backends, the context engine, platforms, Slack actions and auxiliary tasks, as
hermes-agent 0.19.0 handles them.

A provider must inherit hermes' base class: where hermes is importable the real class is
checked, as hermes checks it (a wrong type is ignored with a WARNING); where it is not, the
plugin could not have imported that class either, and only the name is checked. Each
registration is recorded on the host (``InMemoryHost.provisions``), under the key hermes'
registry keeps it by, and then each registry's own checks, as 0.19.0 makes them:

* image_gen, video_gen, web_search, browser (each registry's ``register_provider``): a
  name that is no non-empty string is a ValueError worded by the registry; the name is
  the key, and re-registering it overwrites.
* tts, transcription: the same ValueError; the key is ``name.strip().lower()``, and a key
  among the release's built-in names (``HostRelease.provider_builtins``) is ignored with
  the registry's WARNING.
* dashboard_auth (the registry and ``assert_protocol_compliance``): a class with an empty
  ``name`` or ``display_name``, a missing method or an unimplemented abstract method, or a
  name already registered, is ignored with the WARNING ``PluginContext`` logs for the
  registry's TypeError or ValueError; from 0.21.3 (``HostRelease.global_dashboard_auth``)
  a name already registered is replaced instead.
* secret_source (``register_source``): an invalid name, another ``api_version`` than the
  release's (``HostRelease.secret_source_api_version``), a shape other than mapped or
  bulk, a duplicate name, or a scheme another source owns, is ignored with its WARNING.
  hermes' bundled sources (bitwarden ``bws``, onepassword ``op``) join that registry only
  when something calls ``_ensure_builtin_sources``, which plugin loading does not; before
  plugins load only a ``secrets:`` section in config.yaml makes startup call it. The host
  models the home without one: a plugin source may take those names and schemes.

The base-class lookup and the dashboard-auth and secret-source registries' checks are in
:mod:`~kit_devtools.testing._provider_checks`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from kit_devtools.testing._context_members import LifecycleMembers
from kit_devtools.testing._provider_checks import (
    base_class,
    dashboard_auth_verdict,
    secret_source_verdict,
)

__all__ = ["PROVIDER_KINDS", "Provisions"]

PROVIDER_KINDS: Final = {
    "image_gen": (
        "an image_gen provider", "agent.image_gen_provider", "ImageGenProvider", "Image gen"
    ),
    "video_gen": (
        "a video_gen provider", "agent.video_gen_provider", "VideoGenProvider", "Video gen"
    ),
    "web_search": ("a web provider", "agent.web_search_provider", "WebSearchProvider", "Web"),
    "browser": ("a browser provider", "agent.browser_provider", "BrowserProvider", "Browser"),
    "tts": ("a TTS provider", "agent.tts_provider", "TTSProvider", "TTS"),
    "transcription": (
        "a transcription provider",
        "agent.transcription_provider",
        "TranscriptionProvider",
        "Transcription",
    ),
    "dashboard_auth": (
        "a dashboard-auth provider",
        "hermes_cli.dashboard_auth",
        "DashboardAuthProvider",
        "",
    ),
    "secret_source": ("a secret source", "agent.secret_sources.base", "SecretSource", ""),
}  # fmt: skip
"""Kind -> (what hermes' warning calls it, module of the base class, base class, what its
registry calls it when refusing a nameless provider; "" for the dashboard-auth and
secret-source registries, whose checks are their own)."""

_FOLDED_KINDS: Final = {"tts": ("TTS", "TTS"), "transcription": ("Transcription", "STT")}
"""Kinds whose registry keys a provider by ``name.strip().lower()`` and refuses built-in
names -> what its WARNING calls the provider, and the built-ins."""

_PLATFORM_FIELDS: Final = frozenset(
    {"is_connected", "setup_fn", "emoji", "allowed_users_env", "platform_hint", "plugin_name"}
)
"""``PlatformEntry`` fields a plugin may pass as extra keywords (0.19.0), where hermes'
own class cannot be imported to check them."""


def _registrar(kind: str) -> Callable[[Provisions, Any], Any]:
    """``register_<kind>_provider(provider)``: :meth:`Provisions._provide` of ``kind``."""

    def register(self: Provisions, provider: Any) -> Any:
        return self._provide(kind, provider)  # pyright: ignore[reportPrivateUsage]

    register.__name__ = f"register_{kind}_provider"
    register.__qualname__ = f"Provisions.{register.__name__}"
    return register


class Provisions(LifecycleMembers):
    """The mixin :class:`~kit_devtools.testing.HostContext` gets these members from."""

    def _provide(self, kind: str, provider: Any) -> Any:
        """Check and keep ``provider`` of ``kind`` (None: the upstream context's override
        returns the ledger handle)."""
        what, module, base_name, _ = PROVIDER_KINDS[kind]
        if f"{module}.{base_name}" not in self._state.release.functions:
            # the release's registrar imports a module it does not ship (0.15.x's
            # register_dashboard_auth_provider), so the plugin's register() raises
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)
        if self._wrong_type(kind, provider, what, module, base_name):
            return None
        key, problem = self._registry_verdict(kind, provider)
        if problem is not None:
            self._warn(kind, key, problem)
            return
        self._state.provisions.setdefault(kind, {})[key] = (self._plugin, provider)

    def _registry_verdict(self, kind: str, provider: Any) -> tuple[str, str | None]:
        """The key hermes' registry of ``kind`` keeps ``provider`` under, and the WARNING it
        ignores it with (None: it takes it); raises what the registry raises."""
        if kind == "dashboard_auth":
            return dashboard_auth_verdict(self._state, self._plugin, provider)
        if kind == "secret_source":
            return secret_source_verdict(self._state, provider)
        _, _, _, registry = PROVIDER_KINDS[kind]
        name = provider.name
        if not isinstance(name, str) or not name.strip():
            msg = f"{registry} provider .name must be a non-empty string"
            raise ValueError(msg)
        if kind not in _FOLDED_KINDS:
            return name, None
        key = name.strip().lower()
        builtins = self._state.release.provider_builtins.get(kind, frozenset[str]())
        if key not in builtins:
            return key, None
        called, family = _FOLDED_KINDS[kind]
        return key, (
            f"{called} provider '{key}' shadows a built-in name; registration ignored."
            f" Built-in {family} providers ({', '.join(sorted(builtins))}) always win"
            " — pick a different name."
        )

    register_image_gen_provider = _registrar("image_gen")
    register_video_gen_provider = _registrar("video_gen")
    register_web_search_provider = _registrar("web_search")
    register_browser_provider = _registrar("browser")
    register_tts_provider = _registrar("tts")
    register_transcription_provider = _registrar("transcription")
    register_dashboard_auth_provider = _registrar("dashboard_auth")

    def register_secret_source(self, source: Any) -> Any:
        return self._provide("secret_source", source)

    def register_context_engine(self, engine: Any) -> None:
        """One per host; it must inherit ``agent.context_engine.ContextEngine``."""
        if "context_engine" in self._state.provisions:
            self._warn(
                "context_engine",
                "",
                f"Plugin '{self._plugin}' tried to register a context engine, but one is"
                " already registered. Only one context engine plugin is allowed.",
            )
            return
        module, what = "agent.context_engine", "a context engine"
        if self._wrong_type("context_engine", engine, what, module, "ContextEngine", ""):
            return
        name = str(getattr(engine, "name", type(engine).__name__))
        self._state.provisions["context_engine"] = {name: (self._plugin, engine)}

    def register_platform(
        self,
        name: str,
        label: str,
        adapter_factory: Callable[..., Any],
        check_fn: Callable[..., Any],
        validate_config: Callable[..., Any] | None = None,
        required_env: list[Any] | None = None,
        install_hint: str = "",
        **entry_kwargs: Any,
    ) -> None:
        """A gateway platform adapter; an unknown keyword is a TypeError, as hermes'
        ``PlatformEntry`` dataclass raises."""
        entry_kwargs.setdefault("plugin_name", self._plugin)
        fields = dict(
            name=name,
            label=label,
            adapter_factory=adapter_factory,
            check_fn=check_fn,
            validate_config=validate_config,
            required_env=required_env or [],
            install_hint=install_hint,
            source="plugin",
            **entry_kwargs,
        )
        entry_class = base_class("gateway.platform_registry", "PlatformEntry")
        if entry_class is not None:
            entry_class(**fields)  # hermes' own dataclass refuses what hermes refuses
        else:
            unknown = sorted(set(entry_kwargs) - _PLATFORM_FIELDS)
            if unknown:
                msg = f"PlatformEntry.__init__() got an unexpected keyword argument {unknown[0]!r}"
                raise TypeError(msg)
        self._state.provisions.setdefault("platform", {})[name] = (self._plugin, fields)

    def register_slack_action_handler(self, action_id: Any, callback: Callable[..., Any]) -> None:
        if not callable(callback):
            raise self._refuse("a Slack action handler with a non-callable callback")
        if action_id is None or (isinstance(action_id, str) and not action_id.strip()):
            raise self._refuse("a Slack action handler with an empty action_id")
        handlers = self._state.provisions.setdefault("slack_action", {})
        handlers[repr(action_id)] = (self._plugin, callback)

    def register_auxiliary_task(
        self,
        key: str,
        *,
        display_name: str,
        description: str,
        defaults: dict[str, Any] | None = None,
    ) -> None:
        """A plugin's auxiliary LLM task, refused as hermes refuses it."""
        plugin = self._plugin
        if not key or not isinstance(key, str):
            msg = f"Plugin '{plugin}' tried to register auxiliary task with invalid key {key!r}"
            raise ValueError(msg)
        if not all(char.isalnum() or char == "_" for char in key):
            msg = (
                f"Plugin '{plugin}' auxiliary task key {key!r} must contain only alphanumeric"
                " characters and underscores"
            )
            raise ValueError(msg)
        if key in self._state.release.aux_tasks:  # the built-in tasks of the release played
            msg = (
                f"Plugin '{plugin}' cannot register auxiliary task {key!r} — that key is"
                f" reserved for a built-in task. Pick a plugin-namespaced key (e.g."
                f" '{plugin}_{key}')."
            )
            raise ValueError(msg)
        tasks = self._state.provisions.setdefault("auxiliary_task", {})
        existing = tasks.get(key)
        if existing is not None and existing[0] != plugin:
            msg = (
                f"Plugin '{plugin}' cannot register auxiliary task {key!r} — already"
                f" registered by plugin '{existing[0]}'"
            )
            raise ValueError(msg)
        merged: dict[str, Any] = {
            "provider": "auto",
            "model": "",
            "base_url": "",
            "api_key": "",
            "timeout": 60,
            "extra_body": {},
        }
        merged.update(defaults or {})
        task = {"key": key, "display_name": display_name, "description": description}
        tasks[key] = (plugin, {**task, "defaults": merged, "plugin": plugin})
