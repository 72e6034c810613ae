"""A plugin that exits, prints or leaves a thread running cannot defeat the author
commands: they report, with a non-zero status, JSON on stdout only, and they end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests._processes import ended

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
        (["check", "{dir}", "--format", "json"], "HPK020"),
        (["preflight", "{dir}", "--json"], "HPK020"),
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
    assert found["message"].startswith("the kit does not read plugin.yaml: it expands to more"
                                       " than 100,000 values through YAML aliases")  # fmt: skip
    assert "hermes" not in found["message"]  # no verdict of hermes' is claimed
    assert "without anchors and aliases" in found["fix"]


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
    for argv in (["preflight", str(directory), "--json"], ["check", str(directory), "--format",
                                                            "json"]):  # fmt: skip
        status = main(argv)
        report = json.loads(capsys.readouterr().out)
        assert status == 1
        [found] = [f for f in report["findings"] if f["rule"] == "HPK020"]
        assert "larger than the 1,048,576 bytes the kit reads" in found["message"]


def test_the_real_hosts_copy_of_a_plugin_never_follows_a_link_out_of_it(tmp_path: Path) -> None:
    import shutil

    from kit_devtools.testing._real_process import _within

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


# -- the command runs plugin code in a child process --------------------------------------

SNOOPS = """
import json, os, socket, sys

def register(ctx):
    seen = {k: os.environ.get(k) for k in ("HPK_TEST_SECRET", "HPK_TEST_TOKEN", "HOME")}
    try:
        socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
        seen["network"] = "open"
    except OSError as exc:
        seen["network"] = str(exc)
    print("SEEN " + json.dumps(seen), file=sys.stderr)
"""


def command(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [sys.executable, "-m", "kit_devtools", *argv],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **env},
    )


def seen_by(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    [line] = [x for x in done.stderr.splitlines() if x.startswith("SEEN ")]
    return json.loads(line.removeprefix("SEEN "))


def test_plugin_code_runs_without_the_operators_secrets_home_or_network(tmp_path: Path) -> None:
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    directory = plugin(tmp_path, "snoops", SNOOPS.replace("PORT", str(port)))
    (directory / "plugin.yaml").write_text(
        "name: snoops\nkind: standalone\nrequires_env: [HPK_TEST_TOKEN]\n", encoding="utf-8"
    )
    secrets = {"HPK_TEST_SECRET": "operator-secret", "HPK_TEST_TOKEN": "operator-token"}
    try:
        closed = command("check", str(directory), "--format", "json", **secrets)
        opened = command(
            "--network", "--pass-env", "HPK_TEST_TOKEN", "check", str(directory), **secrets
        )
    finally:
        listener.close()
    assert json.loads(closed.stdout)["plugin"]["enabled"] is True, closed.stderr
    seen = seen_by(closed)
    assert seen["HPK_TEST_SECRET"] is None  # the operator's variables stay out
    assert seen["HPK_TEST_TOKEN"] == "hpk-placeholder-not-a-secret"  # requires_env: a stand-in
    assert seen["HOME"] != str(Path.home())
    assert "network access is off" in seen["network"]
    seen = seen_by(opened)
    assert seen["HPK_TEST_TOKEN"] == "operator-token"  # passed on explicitly
    assert seen["network"] == "open"


HARD_EXIT = """
import os, subprocess

def register(ctx):
    child = subprocess.Popen(["sleep", "600"])
    open(PIDFILE, "w").write(str(child.pid))
    os._exit(0)
"""


def test_os_exit_gives_an_error_report_and_leaves_no_process_behind(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    directory = plugin(tmp_path, "hard", HARD_EXIT.replace("PIDFILE", repr(str(pidfile))))
    done = command("check", str(directory), "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert "ended without a report" in report["error"]
    assert "os._exit()" in report["error"]
    assert ended(int(pidfile.read_text()))


HANGS_UNDER_HERMES = """
import os
import subprocess
import time

PIDS = PIDFILE


def register(ctx):
    if "hermes-real-host-" not in os.environ.get("HERMES_HOME", ""):
        return  # the in-memory host: load as usual
    child = subprocess.Popen(["sleep", "600"])
    with open(PIDS + ".tmp", "w") as file:
        file.write(f"{os.getpid()} {child.pid}")
    os.replace(PIDS + ".tmp", PIDS)
    time.sleep(600)
"""


def hangs_under_hermes(tmp_path: Path) -> tuple[Path, Path]:
    pidfile = tmp_path / "pids"
    source = HANGS_UNDER_HERMES.replace("PIDFILE", repr(str(pidfile)))
    return plugin(tmp_path, "stalls", source), pidfile


@pytest.mark.python_independent  # process groups and signals: the OS's, not Python's
def test_a_hang_only_under_hermes_is_hpk011_and_leaves_nothing_behind(tmp_path: Path) -> None:
    directory, pidfile = hangs_under_hermes(tmp_path)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = command(
        "check", str(directory), "--real", "--timeout", "5", "--format", "json",
        TMPDIR=str(scratch),
    )  # fmt: skip
    report = json.loads(done.stdout)
    [found] = [f for f in report["findings"] if f["rule"] == "HPK011"]
    assert "did not answer start within 5 s and was killed" in found["message"]
    assert done.returncode == 0  # HPK011 is a warning: hermes could not be asked
    assert all(ended(int(pid)) for pid in pidfile.read_text().split())
    assert list(scratch.iterdir()) == []  # both temporary homes and the run's own


@pytest.mark.python_independent  # process groups and signals: the OS's, not Python's
def test_sigterm_to_the_command_ends_every_process_and_removes_the_homes(
    tmp_path: Path,
) -> None:
    import os
    import signal
    import time

    directory, pidfile = hangs_under_hermes(tmp_path)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    running = subprocess.Popen(
        [sys.executable, "-m", "kit_devtools", "check", str(directory), "--real"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    deadline = time.monotonic() + 300
    while not pidfile.exists() and running.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pidfile.exists(), running.communicate(timeout=60)
    running.send_signal(signal.SIGTERM)
    _, err = running.communicate(timeout=120)
    assert running.returncode == 128 + signal.SIGTERM
    assert "stopped by SIGTERM" in err
    assert all(ended(int(pid)) for pid in pidfile.read_text().split())
    assert list(scratch.iterdir()) == []
