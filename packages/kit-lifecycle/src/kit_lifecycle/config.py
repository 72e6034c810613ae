"""Runtime configuration of a plugin, and an operator switch for stderr logs."""

from __future__ import annotations

import copy
import logging
import os
import sys
import threading
from collections.abc import Mapping
from typing import Any, Final, cast

__all__ = ["configure_stderr_logging", "load_plugin_config"]

_log = logging.getLogger("hermes_plugin_kit")
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_HANDLER_TAG: Final = "_hermes_plugin_kit_env_var"
_lock = threading.Lock()


def _mapping(value: object) -> dict[str, Any] | None:
    if isinstance(value, Mapping) and value:
        return copy.deepcopy(dict(cast("Mapping[str, Any]", value)))
    return None


def _host_config(plugin_name: str) -> dict[str, Any]:
    try:
        if sys.modules.get("hermes_cli.config") is not None:
            config_module: Any = sys.modules["hermes_cli.config"]
        else:
            import importlib

            config_module = importlib.import_module("hermes_cli.config")
    except ImportError:
        return {}
    try:
        config: Any = config_module.load_config_readonly()
    except Exception as exc:
        _log.warning(
            "hermes_plugin_kit: effective config read failed for %s: %s",
            plugin_name,
            type(exc).__name__,
        )
        return {}
    plugins: Any = (
        cast("Mapping[str, Any]", config).get("plugins") if isinstance(config, Mapping) else None
    )
    if not isinstance(plugins, Mapping):
        return {}
    table = cast("Mapping[str, Any]", plugins)
    entries: Any = table.get("entries")
    entry: Any = (
        cast("Mapping[str, Any]", entries).get(plugin_name)
        if isinstance(entries, Mapping)
        else None
    )
    settings = _mapping(
        cast("Mapping[str, Any]", entry).get("settings") if isinstance(entry, Mapping) else None
    )
    return settings or _mapping(table.get(plugin_name)) or {}


def load_plugin_config(ctx: Any, plugin_name: str) -> dict[str, Any]:
    """The plugin's settings, always as a deep copy (``{}`` when there are none).

    In order: a non-empty ``ctx.manifest.config`` (tests and older hosts); the host's
    per-plugin config API, ``ctx.get_config()``, on hosts that have one; then the
    host's read-only config: ``plugins.entries.<name>.settings`` (newer hermes) or
    ``plugins.<name>`` (the convention of hermes-agent 0.19.0). When the host's config
    cannot be read, a warning is logged and ``{}`` returned.
    """
    if not isinstance(plugin_name, str) or not plugin_name.strip():
        msg = "plugin_name must be a non-empty string"
        raise ValueError(msg)
    name = plugin_name.strip()
    manifest = _mapping(getattr(getattr(ctx, "manifest", None), "config", None))
    if manifest is not None:
        return manifest
    get_config = getattr(ctx, "get_config", None)
    if callable(get_config):
        try:
            from_api = _mapping(get_config())
        except TypeError:  # an API that needs a key: fall through to the config file
            from_api = None
        except Exception as exc:
            _log.warning(
                "hermes_plugin_kit: plugin config API failed for %s: %s", name, type(exc).__name__
            )
            from_api = None
        if from_api is not None:
            return from_api
    return _host_config(name)


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
