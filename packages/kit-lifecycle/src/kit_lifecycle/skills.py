"""``plugin_skill``: a SKILL.md the plugin ships, registered under the plugin's namespace."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kit_lifecycle.errors import DeclarationError

__all__ = ["PluginSkill", "plugin_skill", "relative_path_hint"]

_SKILL_NAME: Final = re.compile(r"[A-Za-z0-9_-]+")


def relative_path_hint(path: Path) -> str:
    """For a relative skill path, what it is taken from and the fix (``""`` for an absolute
    one): hermes and the tests run from any folder, never from the plugin's."""
    if path.is_absolute():
        return ""
    target = path if path.suffix else path / "SKILL.md"
    return (
        f" (the path is relative, so it is looked for from the working directory"
        f" {Path.cwd()}, not from the plugin's folder: use Path(__file__).parent /"
        f" {target.as_posix()!r})"
    )


@dataclass(frozen=True, slots=True)
class PluginSkill:
    """A skill declaration. hermes exposes it as ``<plugin>:<name>``."""

    name: str
    path: Path
    description: str
    optional: bool = False

    @property
    def present(self) -> bool:
        """Whether the SKILL.md file exists now."""
        return self.path.is_file()


def plugin_skill(
    name: str, path: str | Path, description: str, optional: bool = False
) -> PluginSkill:
    """Declare a skill shipped with the plugin.

    ``name`` is bare (``[A-Za-z0-9_-]+``, no ``plugin:`` prefix: hermes adds the
    plugin's name), ``path`` is the skill's file itself, not its directory (by custom
    ``SKILL.md``; hermes reads whatever file it is given, ``skill_view`` ->
    ``tools.skills_tool._serve_plugin_skill``; give it from the
    plugin's own folder, ``Path(__file__).parent / "skills" / "x" / "SKILL.md"``: a
    relative path is taken from the working directory), and the
    description is required. Whether the file exists is checked at registration: a
    required skill that is missing fails registration, an optional one is skipped with
    a warning and reported in the summary.

    Raises:
        DeclarationError: naming the rule broken and the fix.
    """
    if not isinstance(name, str) or not _SKILL_NAME.fullmatch(name):
        hint = " (drop the 'plugin:' prefix: hermes adds it)" if ":" in str(name) else ""
        msg = f"skill name {name!r} must match [A-Za-z0-9_-]+ and contain no namespace{hint}"
        raise DeclarationError(msg)
    if not isinstance(path, str | Path) or not str(path):
        msg = f"skill {name!r}: path must be the path of its SKILL.md file, got {path!r}"
        raise DeclarationError(msg)
    skill_path = Path(path)
    if skill_path.is_dir():
        msg = (
            f"skill {name!r}: {skill_path} is a directory; point at the SKILL.md file inside"
            f" it: {skill_path / 'SKILL.md'}{relative_path_hint(skill_path)}"
        )
        raise DeclarationError(msg)
    if not isinstance(description, str) or not description.strip():
        msg = f"skill {name!r}: a description is required (the model reads it to pick skills)"
        raise DeclarationError(msg)
    if not isinstance(optional, bool):
        msg = f"skill {name!r}: optional must be True or False, got {optional!r}"
        raise DeclarationError(msg)
    return PluginSkill(name, skill_path, description.strip(), optional)
