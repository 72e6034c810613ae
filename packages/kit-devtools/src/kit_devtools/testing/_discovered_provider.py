"""A provider taken from a plugin folder the way hermes' category discoveries take one.

hermes' memory discovery (``plugins/memory/__init__.py``) and cron scheduler discovery
(``plugins/cron_providers/__init__.py``, "a near-verbatim clone" of the first, 0.18.0 on)
load a user folder the same way (0.19.0: ``_load_provider_from_dir`` and
``_ProviderCollector`` of each):

- import it as ``<namespace>.<folder>``; an import error is logged and gives no provider;
- call ``register(collector)``: the collector keeps what its one registrar receives and
  ignores the few others it has; anything else raises AttributeError, logged and skipped;
- else instantiate the module's first subclass of the category's base (by name order).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from kit_devtools.testing._failure import where as where_raised
from kit_devtools.testing._loader import import_fresh

__all__ = ["Category", "Found", "collector_for", "provider_from"]


@dataclass(frozen=True, slots=True)
class Category:
    """One of hermes' provider discoveries."""

    namespace: str
    """The package hermes imports a user folder under (``_hermes_user_memory``)."""
    registrar: str
    """The collector's one registrar that keeps the provider (``register_memory_provider``)."""
    ignored: tuple[str, ...]
    """The collector's registrars that do nothing."""
    base: tuple[str, str]
    """The module and name of the provider's base class hermes instantiates a subclass of."""


@dataclass(frozen=True, slots=True)
class Found:
    """What the discovery got from the folder: the provider, or why none."""

    provider: object | None
    how: str
    exception: BaseException | None = None


def collector_for(category: Category) -> object:
    """A ``_ProviderCollector`` of ``category``: keeps what its registrar receives (as
    ``provider``), ignores the others, has nothing else."""
    kept: dict[str, object] = {}

    def keep(provider: object) -> None:
        kept["provider"] = provider

    def ignore(*args: Any, **kwargs: Any) -> None:
        """Ignored, as hermes' collector ignores it."""

    members: dict[str, Any] = dict.fromkeys(category.ignored, staticmethod(ignore))
    members[category.registrar] = staticmethod(keep)
    members["provider"] = property(lambda self: kept.get("provider"))
    return type("_ProviderCollector", (), members)()


def _subclass(module: ModuleType, base_at: tuple[str, str]) -> tuple[object | None, str | None]:
    """The first subclass of the base hermes would instantiate, or why none."""
    try:
        base: Any = getattr(importlib.import_module(base_at[0]), base_at[1])
    except (ImportError, AttributeError):
        return None, None
    failed: list[str] = []
    for attribute in dir(module):
        value = getattr(module, attribute, None)
        if isinstance(value, type) and issubclass(value, base) and value is not base:
            try:
                return value(), None
            except Exception as exc:  # hermes tries the next one
                failed.append(f"{value.__name__}() raised {type(exc).__name__}: {exc}")
    return None, "; ".join(failed) or None


def provider_from(directory: Path, category: Category) -> Found:
    """Import ``directory`` as the discovery does (the caller activates the in-memory host,
    so the plugin's host imports resolve) and take its provider."""
    try:
        module = import_fresh(directory, directory.name, category.namespace)
    except Exception as exc:
        at = where_raised(exc)
        return Found(None, f"importing it raised {type(exc).__name__}: {exc} (at {at})", exc)
    why: list[str] = []
    register = getattr(module, "register", None)
    if callable(register):
        collector = collector_for(category)
        try:
            register(collector)
        except Exception as exc:
            why.append(f"register(ctx) raised {type(exc).__name__}: {exc} (at {where_raised(exc)})")
        else:
            provider = getattr(collector, "provider", None)
            if provider is not None:
                return Found(provider, "register(ctx)")
            why.append(f"register(ctx) never called ctx.{category.registrar}")
    else:
        why.append("it has no register(ctx)")
    provider, failed = _subclass(module, category.base)
    if provider is not None:
        return Found(provider, f"{category.base[1]} subclass")
    why.append(failed or f"it defines no {category.base[1]} subclass hermes could instantiate")
    return Found(None, "; ".join(why))
