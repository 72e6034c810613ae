"""``check`` on a cron scheduler provider: what hermes' cron discovery gets from the folder
(HPK608 when none, HPK609 for what its cron resolver trips over).

hermes' general loader does not re-kind such a folder: with a plugin.yaml it loads it as a
general plugin as well, so these findings come on top of the general ones.
"""

from __future__ import annotations

from kit_core.hermes import version_key
from kit_devtools.cli.findings import E, Finding, Rule, declare, finding
from kit_devtools.testing import InMemoryHost, LoadedPlugin
from kit_devtools.testing._cron_provider import CRON_SINCE, CronProviderLoad
from kit_devtools.testing._manifest import is_cron_provider_dir, registers_cron_scheduler

__all__ = ["cron_provider_findings", "cron_provider_of"]

declare("cron scheduler providers", {
    "HPK608": Rule(E, "hermes takes the plugin for a cron scheduler provider (its __init__.py"
                   " mentions CronScheduler or register_cron_scheduler), but it gives hermes"
                   " no scheduler: {why}", "a cron scheduler provider calls"
                   " ctx.register_cron_scheduler(scheduler) in register(), with an instance of"
                   " cron.scheduler_provider.CronScheduler, or defines a CronScheduler subclass",
                   "plugins.cron_providers._load_provider_from_dir (0.18.0 on):"
                   " register(collector), else a CronScheduler subclass; with neither,"
                   " plugins.cron_providers.load_cron_scheduler returns None and"
                   " 'cron.provider' keeps the built-in ticker"
                   " (cron.scheduler_provider.resolve_cron_scheduler)"),
    "HPK609": Rule(E, "the cron scheduler {name!r} {problem}",
                   "implement it as cron.scheduler_provider.CronScheduler declares",
                   "the cron resolver (cron.scheduler_provider.resolve_cron_scheduler) calls"
                   " the scheduler's is_available() and name, the gateway its start(): a"
                   " missing or failing one makes hermes fall back to its built-in ticker"),
})  # fmt: skip


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
