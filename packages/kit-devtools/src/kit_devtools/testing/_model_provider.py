"""A model-provider plugin loaded the way hermes' ``providers/`` discovery loads one.

hermes' general loader records a ``model-provider`` plugin as enabled and never imports
it (``hermes_cli.plugins.PluginManager._discover_and_load_inner``, hermes-agent 0.19.0): a
``ProviderProfile`` would otherwise be registered twice. ``providers._discover_providers``
imports each directory under ``$HERMES_HOME/plugins/model-providers/`` under the name
``_hermes_user_provider_<name>`` (``providers._import_plugin_dir``; an import error is
logged as a warning and skipped; the kit imports it as ``_hermes_user_provider.<name>``),
and the plugin registers its profile with ``providers.register_provider(profile)`` while it
imports. A plugin that registers nothing gives hermes no provider.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit_devtools.testing._failure import where as where_raised
from kit_devtools.testing._loader import import_fresh


@dataclass(frozen=True, slots=True)
class ModelProviderLoad:
    """What hermes' ``providers/`` discovery makes of a plugin directory."""

    profiles: tuple[str, ...]
    """The names of the ``ProviderProfile`` objects it registered while importing."""
    problem: str | None = None
    """Why it gave hermes no profile, when it gave none."""
    exception: BaseException | None = field(default=None, compare=False, repr=False)
    """What importing it raised, when it did."""
    found: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    """The ``ProviderProfile`` objects themselves, in the order of :attr:`profiles`."""


def load(directory: Path) -> ModelProviderLoad:
    """Import the model provider in ``directory`` as hermes' discovery does (the caller
    activates the in-memory host) and report the profiles it registered; hermes' own
    registry is put back as it was afterwards."""
    try:
        providers: Any = importlib.import_module("providers")
    except ImportError as exc:
        return ModelProviderLoad((), f"importing hermes' providers raised {exc}", exc)
    registry: dict[str, Any] = providers._REGISTRY
    aliases: dict[str, str] = providers._ALIASES
    saved = (dict(registry), dict(aliases))
    registry.clear()
    try:
        import_fresh(directory, directory.name.replace("-", "_"), "_hermes_user_provider")
    except Exception as exc:
        at = where_raised(exc)
        return ModelProviderLoad(
            (), f"importing it raised {type(exc).__name__}: {exc} (at {at})", exc
        )
    else:
        names = tuple(sorted(registry))
        profiles = tuple(registry[name] for name in names)
    finally:
        registry.clear()
        registry.update(saved[0])
        aliases.clear()
        aliases.update(saved[1])
    if not names:
        return ModelProviderLoad((), "importing it registered no profile with register_provider")
    return ModelProviderLoad(names, found=profiles)
