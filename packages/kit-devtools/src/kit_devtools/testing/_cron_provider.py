"""A cron scheduler provider loaded the way hermes' cron discovery loads one, and checked
the way hermes' cron resolver uses it.

From hermes-agent 0.18.0 a folder whose ``__init__.py`` mentions ``CronScheduler`` or
``register_cron_scheduler`` is a cron scheduler provider
(``plugins.cron_providers._is_cron_provider_dir``, the text test of memory discovery with
other words); the operator activates one with ``cron.provider: <folder>``.
``load_cron_scheduler`` takes it as memory discovery takes a memory provider
(:mod:`._discovered_provider`; ``plugins.cron_providers._load_provider_from_dir``, its
collector ``plugins.cron_providers._ProviderCollector`` keeping ``register_cron_scheduler``
and ignoring ``register_tool``, ``register_hook``, ``register_memory_provider`` and
``register_cli_command``). hermes' general loader does not re-kind such a folder: with a
plugin.yaml it loads it as a general plugin too.

``cron.scheduler_provider.resolve_cron_scheduler`` then calls ``is_available()`` (False, or
raising, falls back to the built-in ticker) and reads ``name``; the gateway calls
``start(stop_event, ...)``. What would fail there is a problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from kit_core.hermes import first_version, version_key
from kit_devtools.testing._discovered_provider import Category, provider_from

__all__ = ["CRON", "CRON_SINCE", "REQUIRED", "CronProviderLoad", "load"]

CRON: Final = Category(
    namespace="_hermes_user_cron",
    registrar="register_cron_scheduler",
    ignored=("register_tool", "register_hook", "register_memory_provider", "register_cli_command"),
    base=("cron.scheduler_provider", "CronScheduler"),
)
CRON_SINCE: Final = first_version(
    lambda r: "plugins.cron_providers.load_cron_scheduler" in r.functions
)
"""The first hermes release with cron scheduler providers (``plugins/cron_providers``)."""
REQUIRED: Final = ("name", "is_available", "start")
"""What the resolver and the gateway use: ``CronScheduler``'s abstract ``name`` and
``start`` and ``is_available``, which the base class gives (a provider registered from
another class must have it)."""


@dataclass(frozen=True, slots=True)
class CronProviderLoad:
    """What hermes' cron discovery makes of a plugin folder."""

    provider: object | None
    """The scheduler instance, or None when hermes would get none (and keep the built-in)."""
    how: str
    """``register(ctx)`` or ``CronScheduler subclass``; why none when there is none."""
    problems: tuple[str, ...] = field(default=())
    """What hermes' cron resolver would trip over (it falls back to the built-in ticker)."""
    exception: BaseException | None = field(default=None, compare=False, repr=False)
    """What importing the plugin raised, when it did."""

    @property
    def name(self) -> str | None:
        """The scheduler's name, when it has a usable one."""
        try:
            value = getattr(self.provider, "name", None) if self.provider is not None else None
        except Exception:
            return None
        return value if isinstance(value, str) and value else None


def load(directory: Path, release: str) -> CronProviderLoad:
    """Load the cron scheduler in ``directory`` as hermes ``release`` does (the caller
    activates the in-memory host), and check it as the resolver uses it. A release before
    :data:`CRON_SINCE` has no cron discovery (0.17.0 has ``cron.scheduler_provider`` but no
    ``plugins/cron_providers``): no scheduler."""
    if version_key(release) < version_key(CRON_SINCE):
        why = (
            f"hermes-agent {release} has no cron scheduler providers (they came with {CRON_SINCE})"
        )
        return CronProviderLoad(None, why)
    found = provider_from(directory, CRON)
    if found.provider is None:
        return CronProviderLoad(None, found.how, exception=found.exception)
    provider = found.provider
    problems = [f"has no {m}" for m in REQUIRED if not hasattr(type(provider), m)]
    if not problems:
        try:
            name: object = getattr(provider, "name")  # noqa: B009 - a property that may raise
        except Exception as exc:
            problems.append(f"name raised {type(exc).__name__}: {exc}")
        else:
            if not isinstance(name, str) or not name:
                problems.append(f"name is {name!r}, not a non-empty string")
        try:
            provider.is_available()  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
        except Exception as exc:  # hermes' resolver keeps the built-in ticker
            problems.append(f"is_available() raised {type(exc).__name__}: {exc}")
    return CronProviderLoad(provider, found.how, tuple(problems))
