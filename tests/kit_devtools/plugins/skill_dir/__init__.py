"""Registers a skill by its directory instead of its SKILL.md file."""

from pathlib import Path


def register(ctx):
    ctx.register_skill("guide", Path(__file__).parent / "skills" / "guide", "A guide.")
