"""The in-memory host reads ``plugin.yaml`` with PyYAML's safe loader, as hermes does.

Field-by-field agreement with hermes' own ``_parse_manifest`` is checked against the real
host in ``tests/host/test_manifest_parity.py``; these tests pin what the in-memory host
makes of a manifest: the ``ctx.manifest`` it hands ``register`` and its refusals.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_devtools.testing import InMemoryHost


def test_version_is_a_string_on_the_manifest_like_hermes(tmp_path: Path) -> None:
    directory = tmp_path / "versioned"
    directory.mkdir()
    (directory / "__init__.py").write_text(
        "SEEN = []\ndef register(ctx):\n    SEEN.append(ctx.manifest)\n"
    )
    (directory / "plugin.yaml").write_text("name: versioned\nversion: 1.10\nprovides_tools: [x]\n")
    loaded = InMemoryHost().load(directory)
    assert loaded.module is not None
    [manifest] = loaded.module.SEEN
    assert (manifest.version, manifest.provides_tools, manifest.source) == ("1.1", ["x"], "user")
    assert (manifest.kind, manifest.key, manifest.path) == (
        "standalone",
        "versioned",
        str(directory),
    )


@pytest.mark.parametrize(
    "text",
    [
        "just words\n",
        "name: x\n  bad: indent\n",
        "- a list\n- at the top\n",
        "k: [a\n",
        "n: !!python/name:os.system\n",
    ],
)
def test_what_cannot_be_read_is_refused(tmp_path: Path, text: str) -> None:
    directory = tmp_path / "unreadable"
    directory.mkdir()
    (directory / "__init__.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    (directory / "plugin.yaml").write_text(text, encoding="utf-8")
    loaded = InMemoryHost().load(directory)
    assert loaded.enabled is False
    assert str(loaded.error).startswith("Failed to parse ")


def test_the_loader_is_a_safe_one(tmp_path: Path) -> None:
    """A Python tag in a manifest is refused, never executed (hermes loads it safely too)."""
    directory = tmp_path / "tagged"
    directory.mkdir()
    marker = tmp_path / "ran"
    (directory / "__init__.py").write_text("def register(ctx):\n    pass\n", encoding="utf-8")
    (directory / "plugin.yaml").write_text(
        f"name: !!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path"
        f" [{str(marker)!r}]]\n",
        encoding="utf-8",
    )
    loaded = InMemoryHost().load(directory)
    assert loaded.enabled is False
    assert "could not determine a constructor" in str(loaded.error)
    assert not marker.exists()
