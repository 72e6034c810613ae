"""Plugins run inside a hermes home on disk, laid out as hermes lays out its own."""

from __future__ import annotations

import gc
import os
import textwrap
from pathlib import Path

import yaml

from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._home import HOME_FOLDERS

DATABASE_PLUGIN = """
import os
import sqlite3
from pathlib import Path

SEEN = {}


def register(ctx):
    home = Path(os.environ["HERMES_HOME"])
    connection = sqlite3.connect(home / "memories" / "notes.db")  # fails without a home
    connection.execute("create table if not exists notes (text)")
    connection.close()
    SEEN["home"] = home
    SEEN["config"] = (home / "config.yaml").read_text(encoding="utf-8")
"""


def write(tmp_path: Path) -> Path:
    directory = tmp_path / "notes_db"
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(DATABASE_PLUGIN), encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: notes_db\nkind: standalone\n")
    return directory


def test_a_plugin_that_opens_its_database_while_registering_loads(tmp_path: Path) -> None:
    before = os.environ.get("HERMES_HOME")
    config = {"plugins": {"enabled": ["notes_db"]}}
    host = InMemoryHost(config=config)
    loaded = host.load(write(tmp_path))
    assert loaded.enabled, loaded.error
    assert loaded.module is not None
    home = loaded.module.SEEN["home"]
    assert home == host.hermes_home
    assert (home / "memories" / "notes.db").is_file()
    assert yaml.safe_load(loaded.module.SEEN["config"]) == config
    assert {str(p.relative_to(home)) for p in home.rglob("*") if p.is_dir()} >= {
        *HOME_FOLDERS,
        "plugins",
    }
    assert os.environ.get("HERMES_HOME") == before  # bound only while plugin code runs


def test_the_temporary_home_goes_with_its_host(tmp_path: Path) -> None:
    host = InMemoryHost()
    home = host.hermes_home
    assert home.is_dir()
    del host
    gc.collect()
    assert not home.exists()


def test_a_real_home_is_used_as_it_is_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real-home"
    (real / "memories").mkdir(parents=True)
    (real / "config.yaml").write_text("model: mine\n", encoding="utf-8")
    host = InMemoryHost(hermes_home=real, config={"plugins": {}})
    loaded = host.load(write(tmp_path))
    assert loaded.enabled, loaded.error
    assert (real / "memories" / "notes.db").is_file()
    assert (real / "config.yaml").read_text() == "model: mine\n"  # not rewritten
    assert not (real / "plugins").exists()
    del host
    gc.collect()
    assert real.is_dir()


def test_the_home_is_laid_out_as_the_played_release_lays_out_its_own() -> None:
    """Each release's ``home_folders`` (observed, ``ensure_hermes_home``): 0.13.0 makes five
    folders, 0.14.0 on ten (``hooks``, ``pairing``, the media caches and ``skills`` too)."""
    for version, extra in (("0.13.0", set[str]()), ("0.19.0", {"hooks", "skills"})):
        host = InMemoryHost(hermes=version)
        made = {str(p.relative_to(host.hermes_home)) for p in host.hermes_home.rglob("*")}
        assert made - {"config.yaml"} == {*host.release.home_folders, "plugins"}
        assert {"cron", "sessions", "logs", "logs/curator", "memories"} | extra <= made
        assert ("hooks" in made) is bool(extra)


HOME_READER = """
import os


def register(ctx):
    ctx.register_tool(
        name=ctx.manifest.name + "_home", toolset="t", schema={"name": ctx.manifest.name + "_home",
        "description": "Say the home.", "parameters": {"type": "object", "properties": {}}},
        handler=lambda args, **kw: __import__("json").dumps(where()),
    )


def where():
    import hermes_constants

    return [str(hermes_constants.get_hermes_home()), os.environ.get("HERMES_HOME")]
"""


def test_hosts_in_parallel_threads_each_see_their_own_home_and_leave_none_bound(
    tmp_path: Path,
) -> None:
    import json
    import threading

    before = os.environ.get("HERMES_HOME")
    hosts: list[InMemoryHost] = []
    for index in range(4):
        directory = tmp_path / f"reader{index}"
        directory.mkdir()
        (directory / "__init__.py").write_text(HOME_READER, encoding="utf-8")
        (directory / "plugin.yaml").write_text(f"name: reader{index}\nkind: standalone\n")
        host = InMemoryHost()
        assert host.load(directory).enabled
        hosts.append(host)
    seen: dict[int, set[str]] = {i: set() for i in range(4)}
    start = threading.Barrier(4)

    def run(index: int) -> None:
        start.wait()
        for _ in range(200):
            own, _bound = json.loads(hosts[index].call_tool(f"reader{index}_home", {}))
            seen[index].add(own)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {i: {str(hosts[i].hermes_home)} for i in range(4)}  # never another's
    assert os.environ.get("HERMES_HOME") == before  # and nothing left bound
