"""Cron scheduler provider folders, shared by the in-memory tests
(tests/kit_devtools/test_cron_providers.py) and the real-host parity test
(tests/host/test_cron_provider_parity.py): what a published one looks like, or one of the
ways one goes wrong."""

from __future__ import annotations

import textwrap
from pathlib import Path

BASE = """
from cron.scheduler_provider import CronScheduler


class Ticker(CronScheduler):
    @property
    def name(self):
        return "ticker"

    def start(self, stop_event, *, adapters=None, loop=None, interval=60):
        pass
"""

SOURCES: dict[str, str] = {
    # registered through register(ctx), as hermes' bundled chronos does
    "by_register": BASE + "\n\ndef register(ctx):\n    ctx.register_cron_scheduler(Ticker())\n",
    # no register(): hermes instantiates the CronScheduler subclass
    "by_subclass": BASE,
    # register() raises: hermes logs it and falls back to the subclass
    "register_raises": BASE + "\n\ndef register(ctx):\n    ctx.register_tool('x')\n"
    "    raise RuntimeError('no endpoint')\n",
    # register() uses a registrar the collector lacks, and there is no subclass
    "wrong_registrar": "# a CronScheduler, one day\n\ndef register(ctx):\n"
    "    ctx.register_command('tick', lambda raw: raw)\n",
    # importing it fails: hermes gets no provider
    "import_fails": "from cron.scheduler_provider import NoSuchScheduler  # CronScheduler\n",
    # an abstract member missing: the subclass cannot be instantiated
    "abstract": BASE.replace("    def start(", "    def begin("),
}


def provider_dir(root: Path, name: str) -> Path:
    """``root/<name>`` holding the cron provider ``name`` of :data:`SOURCES` (no manifest:
    cron discovery reads the folder by its text alone)."""
    directory = root / name
    directory.mkdir(parents=True)
    (directory / "__init__.py").write_text(textwrap.dedent(SOURCES[name]), encoding="utf-8")
    return directory
