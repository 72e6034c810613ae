"""plugin_skill: bare names, a SKILL.md path (not a directory), a description, a bool flag."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kit_lifecycle import DeclarationError, PluginSkill, plugin_skill


def write_skill(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "SKILL.md"
    path.write_text("---\nname: x\ndescription: d\n---\nBody.\n", encoding="utf-8")
    return path


def test_a_declaration_with_every_field(tmp_path: Path) -> None:
    path = write_skill(tmp_path / "notes")
    skill = plugin_skill("take-notes_2", path, "  Take notes.  ", optional=True)
    assert skill == PluginSkill("take-notes_2", path, "Take notes.", True)
    assert skill.present


def test_optional_defaults_to_false_and_the_file_need_not_exist_yet(tmp_path: Path) -> None:
    skill = plugin_skill("later", tmp_path / "later" / "SKILL.md", "Later.")
    assert skill.optional is False
    assert skill.present is False


def test_a_str_path_becomes_a_path(tmp_path: Path) -> None:
    path = write_skill(tmp_path / "s")
    skill = plugin_skill("s", str(path), "S.")
    assert isinstance(skill.path, Path)
    assert skill.path == path
    assert plugin_skill("rel", "skills/rel/SKILL.md", "R.").path == Path("skills/rel/SKILL.md")


def test_the_declaration_is_frozen(tmp_path: Path) -> None:
    skill = plugin_skill("s", tmp_path / "SKILL.md", "S.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        skill.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize("name", ["a", "A1", "with_underscore", "with-dash", "MiXeD-09_x"])
def test_a_bare_name_of_letters_digits_dashes_and_underscores_is_kept(
    name: str, tmp_path: Path
) -> None:
    assert plugin_skill(name, tmp_path / "SKILL.md", "D.").name == name


@pytest.mark.parametrize("name", ["myplugin:notes", ":notes", "notes:"])
def test_a_namespaced_name_is_refused_with_the_hint(name: str, tmp_path: Path) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        plugin_skill(name, tmp_path / "SKILL.md", "D.")
    assert str(excinfo.value) == (
        f"skill name {name!r} must match [A-Za-z0-9_-]+ and contain no namespace"
        " (drop the 'plugin:' prefix: hermes adds it)"
    )


@pytest.mark.parametrize("name", ["", "two words", "dotted.name", "é", "slash/name", None, 5])
def test_other_bad_names_are_refused(name: object, tmp_path: Path) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        plugin_skill(name, tmp_path / "SKILL.md", "D.")  # type: ignore[arg-type]
    msg = str(excinfo.value)
    assert msg == f"skill name {name!r} must match [A-Za-z0-9_-]+ and contain no namespace"


@pytest.mark.parametrize("file_name", ["README.md", "skill.md", "triage.txt"])
def test_a_skill_file_of_any_name_is_taken_as_hermes_reads_it(
    file_name: str, tmp_path: Path
) -> None:
    # hermes' skill_view reads the file it was given, whatever its name
    skill = plugin_skill("s", tmp_path / file_name, "D.")
    assert (skill.path, skill.present) == (tmp_path / file_name, False)
    (tmp_path / file_name).write_text("---\nname: s\n---\nA guide.\n", encoding="utf-8")
    assert skill.present


def test_a_directory_is_refused_with_the_skill_md_path_to_use(tmp_path: Path) -> None:
    directory = tmp_path / "notes"
    write_skill(directory)
    for given in (directory, str(directory)):
        with pytest.raises(DeclarationError) as excinfo:
            plugin_skill("notes", given, "D.")
        msg = str(excinfo.value)
        assert f"{directory} is a directory" in msg
        assert f"point at the SKILL.md file inside it: {directory / 'SKILL.md'}" in msg


def test_a_relative_directory_gets_the_hint_to_start_from_the_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_skill(tmp_path / "skills" / "notes")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DeclarationError) as excinfo:
        plugin_skill("notes", Path("skills/notes"), "D.")
    assert str(excinfo.value).endswith(
        f"inside it: skills/notes/SKILL.md (the path is relative, so it is looked for from"
        f" the working directory {tmp_path}, not from the plugin's folder: use"
        " Path(__file__).parent / 'skills/notes/SKILL.md')"
    )


@pytest.mark.parametrize("path", ["", None, 5, b"SKILL.md"])
def test_the_path_must_be_given(path: object) -> None:
    with pytest.raises(DeclarationError, match=r"path must be the path of its SKILL\.md file"):
        plugin_skill("s", path, "D.")  # type: ignore[arg-type]


@pytest.mark.parametrize("description", ["", "   ", None, 3])
def test_a_description_is_required(description: object, tmp_path: Path) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        plugin_skill("s", tmp_path / "SKILL.md", description)  # type: ignore[arg-type]
    assert str(excinfo.value) == (
        "skill 's': a description is required (the model reads it to pick skills)"
    )


@pytest.mark.parametrize("optional", [1, 0, "yes", None])
def test_optional_must_be_a_bool(optional: object, tmp_path: Path) -> None:
    with pytest.raises(DeclarationError) as excinfo:
        plugin_skill("s", tmp_path / "SKILL.md", "D.", optional=optional)  # type: ignore[arg-type]
    assert str(excinfo.value) == f"skill 's': optional must be True or False, got {optional!r}"


def test_present_follows_the_file(tmp_path: Path) -> None:
    skill = plugin_skill("s", tmp_path / "s" / "SKILL.md", "D.")
    assert not skill.present
    write_skill(tmp_path / "s")
    assert skill.present
