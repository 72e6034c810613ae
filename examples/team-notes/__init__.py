"""team-notes: shared team notes, using every surface hermes-plugin-kit declares."""

import logging
from pathlib import Path

from hermes_plugin_kit import (
    configure_stderr_logging,
    load_plugin_config,
    plugin_skill,
    register_plugin,
)

from . import surfaces

logger = logging.getLogger("team-notes")

SKILLS = (
    plugin_skill(
        "note-taking",
        Path(__file__).parent / "skills" / "note-taking" / "SKILL.md",
        "When and how to keep team notes with the notes_* tools.",
    ),
)


def register(ctx):
    """Called by hermes: configure from the profile, then register every surface."""
    configure_stderr_logging(logger, env_var="TEAM_NOTES_LOG_STDERR")
    surfaces.configure(load_plugin_config(ctx, "team-notes"))
    return register_plugin(ctx, surfaces, skills=SKILLS, logger=logger)
