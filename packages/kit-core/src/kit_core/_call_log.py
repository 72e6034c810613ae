"""The level of a tool's per-call success line, as an operator sets it.

The ``<tool>: ok; elapsed_ms=…`` line is INFO by default (the documented contract), as
are the ``ok`` lines of kit-lifecycle's hooks and middleware, which this setting lowers
too (they can run on every tool call; a command's line stays INFO). An
operator lowers it with one environment variable, ``HERMES_PLUGIN_KIT_CALL_LOG``, whose
value is comma-separated entries: ``plugin=debug`` for one plugin, a bare ``debug`` for
every kit-built plugin, ``plugin=info`` to keep one at INFO after a bare ``debug``. A
plugin is named as the operator names it in ``plugins.enabled``: its manifest name or
key (``-`` and ``_`` alike, ``image_gen/openai`` as written), or, for a plugin installed
with pip, its entry-point name or its top-level package. Lowered to DEBUG, the line is
not formatted or written at hermes' usual INFO; refusals, failures and the DEBUG
``invoked`` line keep their levels.

Why an environment variable: it is the one per-plugin knob a hermes operator can set
without code. hermes 0.19.0 has no per-plugin config API (``plugins.entries.<id>``
holds only host-defined keys), it configures one level for all of its log
(``logging.level``), never one logger's, and it loads ``$HERMES_HOME/.env`` into the
environment before it discovers plugins, so a line in that file (or in the service's
environment) reaches every plugin. ``kit_core`` reads no config files (it is standard
library only, and config.yaml is YAML).

It is read when a tool is declared (when hermes imports the plugin), never per call. A
value the kit cannot read is named in one WARNING of the ``kit_core`` logger, with the
fix, and that entry is ignored (the line stays INFO); nothing here raises.
"""

from __future__ import annotations

import functools
import logging
import os
from typing import Final

from kit_core.hermes import ENTRY_POINT_GROUP, PLUGIN_PACKAGE

CALL_LOG_ENV: Final = "HERMES_PLUGIN_KIT_CALL_LOG"
_LEVELS: Final = {"debug": logging.DEBUG, "info": logging.INFO}
_FIX: Final = (
    "write debug or info, for one plugin plugin=debug (its name in plugins.enabled),"
    " entries separated by commas, e.g. 'memo-sync=debug'; the success line stays INFO"
)


def _slug(name: str) -> str:
    """A plugin name as hermes turns it into a module name, lowercased."""
    name = name.strip().lower()
    if name.startswith(PLUGIN_PACKAGE + "."):
        name = name[len(PLUGIN_PACKAGE) + 1 :]
    return name.replace("/", "__").replace("-", "_")


def plugin_names(module: str) -> tuple[str, ...]:
    """The slugs an operator may use for the plugin that ``module`` belongs to."""
    parts = module.split(".")
    if parts[0] == PLUGIN_PACKAGE and len(parts) > 1:
        return (_slug(parts[1]),)
    return (_slug(parts[0]), *_entry_point_names(parts[0]))


@functools.lru_cache(maxsize=64)
def _entry_point_names(package: str) -> tuple[str, ...]:
    """The names of the hermes plugin entry points whose module is in ``package``."""
    try:
        from importlib import metadata  # only when an entry names a plugin: it is slow

        points = metadata.entry_points(group=ENTRY_POINT_GROUP)
        return tuple(_slug(p.name) for p in points if p.value.split(".")[0].strip() == package)
    except Exception:  # a broken distribution must not stop a plugin from loading
        return ()


def success_level(module: str) -> int:
    """The level of the success line of a tool whose handler is in ``module``: INFO unless
    ``HERMES_PLUGIN_KIT_CALL_LOG`` lowers it."""
    raw = os.environ.get(CALL_LOG_ENV, "")
    if not raw.strip():
        return logging.INFO
    default, per_plugin = _parse(raw)
    if per_plugin:
        for name in plugin_names(module):
            if name in per_plugin:
                return per_plugin[name]
    return default


@functools.lru_cache(maxsize=8)
def _parse(raw: str) -> tuple[int, dict[str, int]]:
    """The default level and the per-plugin ones; each unreadable entry is warned about
    once per value (the result is cached)."""
    default = logging.INFO
    per_plugin: dict[str, int] = {}
    for entry in (e.strip() for e in raw.split(",")):
        if not entry:
            continue
        plugin, sep, level_name = entry.rpartition("=")
        level = _LEVELS.get(level_name.strip().lower())
        if level is None or (sep and not plugin.strip()):
            logging.getLogger("kit_core").warning(
                "%s: cannot read the entry %r; %s", CALL_LOG_ENV, entry[:80], _FIX
            )
            continue
        if sep:
            per_plugin[_slug(plugin)] = level
        else:
            default = level
    return default, per_plugin
