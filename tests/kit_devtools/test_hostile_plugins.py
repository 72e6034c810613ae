"""A plugin that exits, prints or leaves a thread running cannot defeat the author
commands: they report, with a non-zero status, JSON on stdout only, and they end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kit_devtools.cli import main

EXITS_IN_REGISTER = """
import sys


def register(ctx):
    print("what the plugin prints")
    sys.exit(0)
"""

EXITS_AT_IMPORT = """
import sys

print("noise at import")
sys.exit(0)
"""

LEAVES_A_THREAD = """
import threading
import time

threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()


def register(ctx):
    print("registered, with a thread left running")
"""


def plugin(root: Path, name: str, source: str) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(source, encoding="utf-8")
    (directory / "plugin.yaml").write_text(f"name: {name}\nkind: standalone\n")
    return directory


@pytest.mark.parametrize(
    ("source", "rule", "printed"),
    [
        (EXITS_IN_REGISTER, "HPK001", "what the plugin prints"),
        (EXITS_AT_IMPORT, "HPK003", "noise at import"),
    ],
)
def test_sys_exit_while_loading_is_an_error_not_a_pass(
    source: str, rule: str, printed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, "exits", source)
    status = main(["check", str(directory), "--format", "json"])
    captured = capsys.readouterr()
    report = json.loads(captured.out)  # only the report: what the plugin printed is on stderr
    assert status == 1
    assert printed in captured.err
    [found] = [f for f in report["findings"] if f["rule"] == rule]
    assert "the plugin called sys.exit(0) while loading" in found["message"]
    assert "hermes itself would exit at startup" in found["message"]


def test_preflight_json_stays_json_when_the_plugin_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, "exits", EXITS_IN_REGISTER)
    status = main(["preflight", str(directory), "--json"])
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert status != 0
    assert "what the plugin prints" not in captured.out


def test_the_command_ends_when_the_plugin_leaves_a_thread_running(tmp_path: Path) -> None:
    directory = plugin(tmp_path, "threads", LEAVES_A_THREAD)
    done = subprocess.run(
        [sys.executable, "-m", "kit_devtools", "check", str(directory), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=600,  # the command used to wait for the thread for an hour
        check=False,
    )
    report = json.loads(done.stdout)
    assert report["plugin"]["enabled"] is True
    assert done.returncode == 0, done.stderr
    assert "registered, with a thread left running" in done.stderr


LEAKS = """
def register(ctx):
    raise RuntimeError(
        "auth failed: api_key=sk-proj-AbCdEfGhIjKlMnOpQrSt, Authorization: Bearer q1w2e3r4t5y6"
    )
"""


@pytest.mark.parametrize(
    "argv",
    [["check", "{dir}"], ["check", "{dir}", "--format", "json"], ["preflight", "{dir}", "--json"]],
)
def test_reports_never_print_a_secret_from_plugin_error_text(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, "leaks", LEAKS)
    status = main([a.format(dir=directory) for a in argv])
    out = capsys.readouterr().out
    assert status != 0
    assert "auth failed" in out  # the error is reported
    assert "AbCdEfGhIjKlMnOpQrSt" not in out
    assert "q1w2e3r4t5y6" not in out


def alias_bomb(levels: int = 9) -> str:
    """A plugin.yaml of about 500 bytes standing for 10**levels values."""
    lines = ["name: bomb", "version: 1.0.0", "description: d", "kind: standalone"]
    lines.append("a0: &a0 [x, x, x, x, x, x, x, x, x, x]")
    lines.extend(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels))
    lines.append(f"provides_tools: *a{levels - 1}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("argv", "rule"),
    [
        (["check", "{dir}", "--format", "json"], "HPK009"),
        (["preflight", "{dir}", "--json"], "HPK050"),
    ],
)
def test_an_alias_bomb_manifest_is_refused_before_it_is_built(
    argv: list[str], rule: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, "bomb", "def register(ctx):\n    pass\n")
    (directory / "plugin.yaml").write_text(alias_bomb(), encoding="utf-8")
    assert len(alias_bomb()) < 700
    status = main([a.format(dir=directory) for a in argv])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    [found] = [f for f in report["findings"] if f["rule"] == rule]
    assert "expands to more than 100,000 values through YAML aliases" in found["message"]


def test_a_few_aliases_are_read_as_hermes_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, "aliased", "def register(ctx):\n    pass\n")
    (directory / "plugin.yaml").write_text(alias_bomb(levels=2), encoding="utf-8")
    status = main(["check", str(directory), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert "alias" not in json.dumps(report["findings"])
    assert report["plugin"]["enabled"] is True, (status, report["findings"])


def test_a_manifest_past_the_size_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = plugin(tmp_path, "large", "def register(ctx):\n    pass\n")
    filler = "# " + "x" * 78 + "\n"
    (directory / "plugin.yaml").write_text(
        "name: large\nkind: standalone\n" + filler * 14_000, encoding="utf-8"
    )
    status = main(["preflight", str(directory), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    assert any("larger than the 1,048,576 bytes" in f["message"] for f in report["findings"])


def test_the_real_hosts_copy_of_a_plugin_never_follows_a_link_out_of_it(tmp_path: Path) -> None:
    import shutil

    from kit_devtools.testing.real import _within  # pyright: ignore[reportPrivateUsage]

    outside = tmp_path / "home" / ".ssh"
    outside.mkdir(parents=True)
    (outside / "id_ed25519").write_text("PRIVATE", encoding="utf-8")
    directory = plugin(tmp_path, "links", "def register(ctx):\n    pass\n")
    (directory / "data").mkdir()
    (directory / "data" / "table.txt").write_text("rows", encoding="utf-8")
    (directory / "keys").symlink_to(outside)  # out of the plugin
    (directory / "loop").symlink_to(directory / "loop")  # a loop
    (directory / "gone").symlink_to(tmp_path / "nowhere")  # dangling
    (directory / "table").symlink_to(directory / "data" / "table.txt")  # inside: kept
    (directory / "up").symlink_to(directory)  # itself: kept as a link, not followed
    copy = tmp_path / "copy"
    shutil.copytree(directory, copy, ignore=_within(directory), symlinks=True)
    assert sorted(p.name for p in copy.iterdir()) == [
        "__init__.py", "data", "plugin.yaml", "table", "up",
    ]  # fmt: skip
    assert (copy / "table").read_text(encoding="utf-8") == "rows"
    assert (copy / "up").is_symlink()
    assert not any("PRIVATE" in p.read_text(errors="replace")
                   for p in copy.rglob("*") if p.is_file() and not p.is_symlink())  # fmt: skip
