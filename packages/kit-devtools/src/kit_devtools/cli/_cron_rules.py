"""``check`` on a cron scheduler provider: what hermes' cron discovery gets from the folder
(HPK608 when none, HPK609 for what its cron resolver trips over).

hermes' general loader does not re-kind such a folder: with a plugin.yaml it loads it as a
general plugin as well, so these findings come on top of the general ones.
"""

from __future__ import annotations

from kit_core.hermes import version_key
from kit_devtools.cli.findings import Finding
from kit_devtools.cli.rules import finding
from kit_devtools.testing import InMemoryHost, LoadedPlugin
from kit_devtools.testing._cron_provider import CRON_SINCE, CronProviderLoad
from kit_devtools.testing._manifest import is_cron_provider_dir, registers_cron_scheduler

__all__ = ["cron_provider_findings", "cron_provider_of"]


def cron_provider_of(host: InMemoryHost, plugin: LoadedPlugin) -> CronProviderLoad | None:
    """The scheduler hermes' cron discovery would load from the plugin directory (0.18.0
    on): when discovery gets one, or the ``__init__.py`` calls ``register_cron_scheduler``;
    None for any other plugin (one that only names ``CronScheduler``)."""
    if plugin.path is None or version_key(host.release.version) < version_key(CRON_SINCE):
        return None
    if not is_cron_provider_dir(plugin.path):
        return None
    cron = host.load_cron_provider(plugin.path)
    if cron.provider is not None or registers_cron_scheduler(plugin.path):
        return cron
    return None


def cron_provider_findings(plugin: LoadedPlugin, cron: CronProviderLoad) -> list[Finding]:
    """HPK608 when hermes would get no scheduler, HPK609 for each problem."""
    where = f"plugin {plugin.key}"
    if cron.provider is None:
        return [finding("HPK608", where, why=cron.how)]
    name = cron.name or plugin.key
    return [finding("HPK609", where, name=name, problem=problem) for problem in cron.problems]
