"""Runtime configuration of a plugin, and an operator switch for stderr logs."""

from __future__ import annotations

import copy
import inspect
import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any, Final, cast

from kit_core._running_host import imported
from kit_core.hermes import RESERVED_CONFIG_ROOTS
from kit_lifecycle._settings_copy import copy_settings

__all__ = ["configure_stderr_logging", "load_plugin_config"]

_log = logging.getLogger("hermes_plugin_kit")
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_HANDLER_TAG: Final = "_hermes_plugin_kit_env_var"
_HOST_KEYS: Final = frozenset({"enabled", "disabled", "entries"})
"""hermes' own keys under ``plugins:``, never a plugin's settings table."""
_SHOWN_PROBLEMS: Final = 10
_SEGMENT: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
_lock = threading.Lock()


def _settings(value: object, where: str, plugin: str) -> dict[str, Any] | None:
    """A copy of the settings found at ``where``; None when there are none. A value that
    is not a mapping, and values that cannot be copied, are warned about, never dropped
    silently and never raised on."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        _not_a_mapping(value, where, plugin)
        return None
    copied, problems = copy_settings(cast("Mapping[Any, Any]", value), where)
    if copied is None:
        _log.warning(
            "hermes_plugin_kit: plugin config for %s: %s could not be read (%s); it was"
            " passed over",
            plugin,
            where,
            problems[0],
        )
        return None
    if problems:
        shown = "; ".join(problems[:_SHOWN_PROBLEMS])
        more = len(problems) - _SHOWN_PROBLEMS
        _log.warning(
            "hermes_plugin_kit: plugin config for %s: %d value(s) could not be copied and are"
            " returned as the host's own objects (do not change them): %s%s",
            plugin,
            len(problems),
            shown,
            f"; and {more} more" if more > 0 else "",
        )
    return copied or None


def _not_a_mapping(value: object, where: str, plugin: str) -> None:
    _log.warning(
        "hermes_plugin_kit: plugin config for %s: %s is a %s, not a mapping of settings;"
        " it was ignored (write the settings as a mapping of names to values)",
        plugin,
        where,
        type(value).__name__,
    )


def _read(read: Callable[[], object], what: str, plugin: str) -> object:
    """``read()``, or None with a warning naming the exception type (never its message)."""
    try:
        return read()
    except Exception as exc:
        _log.warning("hermes_plugin_kit: %s failed for %s: %s", what, plugin, type(exc).__name__)
        return None


def _field(table: object, key: str) -> object:
    if isinstance(table, Mapping):
        return cast("Mapping[str, object]", table).get(key)
    return None


def _read_host_config(plugin_name: str) -> object:
    """hermes' effective config, or None: ``hermes_cli.config.load_config_readonly()``
    (0.15.0 on), else ``load_config()``, the same defaults-merged config as a copy
    (hermes-agent 0.13.0 and 0.14.0 have no read-only variant)."""
    try:
        config_module: Any = imported("hermes_cli.config")
    except ImportError:
        return None
    loader = _read(
        lambda: (
            getattr(config_module, "load_config_readonly", None)
            or getattr(config_module, "load_config", None)
        ),
        "effective config lookup",
        plugin_name,
    )
    if not callable(loader):
        _log.warning(
            "hermes_plugin_kit: plugin config for %s: hermes_cli.config has neither"
            " load_config_readonly nor load_config, so the host's settings cannot be read",
            plugin_name,
        )
        return None
    return _read(loader, "effective config read", plugin_name)


def _host_config(plugin_name: str) -> dict[str, Any]:
    config = _read_host_config(plugin_name)
    plugins = _field(config, "plugins")
    entry = _field(_field(plugins, "entries"), plugin_name)
    where = f"plugins.entries.{plugin_name}"
    settings = _settings(_field(entry, "settings"), f"{where}.settings", plugin_name)
    if entry is not None and not isinstance(entry, Mapping):
        _not_a_mapping(entry, where, plugin_name)
    legacy = None if plugin_name in _HOST_KEYS else _field(plugins, plugin_name)
    if settings is None:
        return _settings(legacy, f"plugins.{plugin_name}", plugin_name) or {}
    if legacy is not None:
        _log.warning(
            "hermes_plugin_kit: plugin config for %s: plugins.%s was ignored because"
            " %s.settings is set and takes precedence; keep the settings in one place",
            plugin_name,
            plugin_name,
            where,
        )
    return settings


def _keyed(get_config: Callable[..., Any]) -> bool:
    """Whether the host's ``get_config`` needs a key (upstream: ``get_config(key,
    default=None)``)."""
    try:
        params = inspect.signature(get_config).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        for p in params
    )


def _entry_config(plugin_id: str, plugin_name: str) -> dict[str, Any]:
    """What ``ctx.get_config(key)`` answers for each top-level key: ``plugins.entries.
    <plugin_id>.settings.<key>`` when the key is present there (an explicit null too), else
    the legacy ``…config.<key>`` (``hermes_cli.plugins.PluginContext.get_config``, through
    ``hermes_cli.plugins_state._nested_plugin_value``). Keys ``get_config`` refuses are left
    out, with a warning. A ``plugins.<name>`` table, which such a host never reads, is
    warned about."""
    config = _read_host_config(plugin_id)
    _warn_unread_table(config, plugin_id, plugin_name)
    found = _field(_field(_field(config, "plugins"), "entries"), plugin_id)
    where = f"plugins.entries.{plugin_id}"
    if found is not None and not isinstance(found, Mapping):
        _not_a_mapping(found, where, plugin_id)
        return {}
    legacy = _settings(_field(cast("object", found), "config"), f"{where}.config", plugin_id) or {}
    settings = (
        _settings(_field(cast("object", found), "settings"), f"{where}.settings", plugin_id) or {}
    )
    merged = {**legacy, **settings}
    refused = [k for k in merged if not _host_key(k)]
    for key in refused:
        del merged[key]
    if refused:
        _log.warning(
            "hermes_plugin_kit: plugin config for %s: %d key(s) under %s were left out because"
            " ctx.get_config refuses them (a key must match [A-Za-z0-9][A-Za-z0-9_-]* and not"
            " be model, plugins, security or settings); rename them",
            plugin_id,
            len(refused),
            where,
        )
    return merged


def _warn_unread_table(config: object, plugin_id: str, plugin_name: str) -> None:
    """Warn about settings left at ``plugins.<name>`` (hermes-agent 0.19.0's convention) on a
    host whose ``ctx.get_config`` reads only ``plugins.entries.<plugin_id>`` (from 0.20.1:
    ``PluginContext.get_config``): hermes itself
    does not migrate them, so the plugin would run without them unsaid."""
    plugins = _field(config, "plugins")
    for name in dict.fromkeys((plugin_id, plugin_name)):
        if name in _HOST_KEYS or _field(plugins, name) is None:
            continue
        _log.warning(
            "hermes_plugin_kit: plugin config for %s: plugins.%s is not read by this hermes,"
            " whose ctx.get_config reads plugins.entries.%s.settings; move the settings there",
            plugin_id,
            name,
            plugin_id,
        )


def _host_key(key: object) -> bool:
    return (
        isinstance(key, str)
        and bool(_SEGMENT.fullmatch(key))
        and key.lower() not in RESERVED_CONFIG_ROOTS
    )


def _with_schema_defaults(ctx: Any, settings: dict[Any, Any], plugin: str) -> dict[str, Any]:
    """``settings`` plus the ``default`` of every ``config_schema`` key of the manifest that
    is not set (hermes itself only checks the schema and never applies a default:
    ``hermes_cli.plugins_manifest.validate_config_schema``)."""
    try:
        manifest = getattr(ctx, "manifest", None)
    except Exception:  # already warned about by the manifest read
        return settings
    schema = _read(
        lambda: getattr(manifest, "config_schema", None), "manifest config_schema read", plugin
    )
    if not isinstance(schema, Mapping):
        return settings
    for key, spec in cast("Mapping[object, object]", schema).items():
        if key in settings or not isinstance(spec, Mapping) or "default" not in spec:
            continue
        default = cast("Mapping[str, object]", spec)["default"]
        try:
            settings[key] = copy.deepcopy(default)
        except Exception:
            settings[key] = default
    return settings


def load_plugin_config(ctx: Any, plugin_name: str) -> dict[str, Any]:
    """The plugin's settings, always as a deep copy (``{}`` when there are none).

    In order: a non-empty ``ctx.manifest.config`` (tests and older hosts); on a host whose
    ``ctx.get_config(key, default)`` needs a key and that names the plugin ``ctx.plugin_id``
    (upstream hermes 0.21), what ``get_config`` answers for each key: the key under
    ``plugins.entries.<plugin_id>.settings``, else under the legacy ``…config`` (keys
    ``get_config`` refuses are left out, with a warning, and so is a ``plugins.<name>``
    table, which such a host never reads); a keyless ``ctx.get_config()``;
    then the host's effective config (``load_config_readonly()``, or ``load_config()``
    on hermes-agent 0.13.0 and 0.14.0, which have no read-only variant):
    ``plugins.entries.<name>.settings`` or
    ``plugins.<name>`` (the convention of hermes-agent 0.19.0), ``<name>`` being
    ``ctx.plugin_id`` where the context has one, else ``plugin_name``.

    Keys of the manifest's ``config_schema`` that are not set get their ``default``
    (a copy). hermes itself never applies those defaults (it only warns about settings
    that do not match the schema), so ``ctx.get_config(key)`` returns its ``default``
    argument for such a key while this returns the schema's.

    It never raises on what it reads. A WARNING (naming the source or key path and why,
    never a value) is logged when the host's config or API cannot be read (``{}`` or
    the next source is used), when a source holds something other than a mapping
    (ignored), when ``plugins.<name>`` is shadowed by ``plugins.entries.<name>.settings``,
    and for every value that cannot be copied (a lock, an object whose copy fails, a
    tuple nested past the recursion limit): such a value is returned as the host's own
    object rather than dropped. Mappings and lists are copied at any depth.
    """
    if not isinstance(plugin_name, str) or not plugin_name.strip():
        msg = "plugin_name must be a non-empty string"
        raise ValueError(msg)
    name = plugin_name.strip()
    manifest_config = _read(
        lambda: getattr(getattr(ctx, "manifest", None), "config", None), "manifest read", name
    )
    from_manifest = _settings(manifest_config, "ctx.manifest.config", name)
    if from_manifest is not None:
        return from_manifest
    plugin_id = _read(lambda: getattr(ctx, "plugin_id", None), "plugin_id read", name)
    key = plugin_id.strip() if isinstance(plugin_id, str) and plugin_id.strip() else None
    get_config = getattr(ctx, "get_config", None)
    if callable(get_config) and key is not None and _keyed(get_config):
        return _with_schema_defaults(ctx, _entry_config(key, name), key)
    if callable(get_config) and not _keyed(get_config):
        try:
            from_api = get_config()
        except TypeError:  # an API that needs a key: fall through to the config file
            from_api = None
        except Exception as exc:
            _log.warning(
                "hermes_plugin_kit: plugin config API failed for %s: %s", name, type(exc).__name__
            )
            from_api = None
        settings = _settings(from_api, "ctx.get_config()", name)
        if settings is not None:
            return _with_schema_defaults(ctx, settings, name)
    return _with_schema_defaults(ctx, _host_config(key or name), key or name)


def configure_stderr_logging(
    logger: logging.Logger, *, env_var: str, default: bool = False
) -> logging.Handler | None:
    """Add one INFO handler writing ``logger`` to stderr, when the operator asks for it.

    The environment variable ``env_var`` turns it on with ``1``, ``true``, ``yes`` or
    ``on`` (any case); ``default`` applies when it is unset. Calling it again, from any
    thread, returns the handler already installed instead of adding a second one.

    Returns:
        The handler, or None when logging to stderr is off.
    """
    if not isinstance(logger, logging.Logger):
        msg = f"logger must be a logging.Logger, got {type(logger).__name__}"
        raise TypeError(msg)
    if not isinstance(env_var, str) or not env_var.strip():
        msg = "env_var must name an environment variable, e.g. 'MY_PLUGIN_LOG_STDERR'"
        raise ValueError(msg)
    if not isinstance(default, bool):
        msg = f"default must be True or False, got {default!r}"
        raise TypeError(msg)
    raw = os.environ.get(env_var)
    enabled = default if raw is None else raw.strip().lower() in _TRUE
    if not enabled:
        return None
    with _lock:
        for handler in logger.handlers:
            if getattr(handler, _HANDLER_TAG, None) == env_var:
                return handler
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.INFO)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        setattr(handler, _HANDLER_TAG, env_var)
        logger.addHandler(handler)
        if logger.level == logging.NOTSET or logger.level > logging.INFO:
            logger.setLevel(logging.INFO)
        return handler
