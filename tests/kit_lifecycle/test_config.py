"""load_plugin_config and configure_stderr_logging."""

from __future__ import annotations

import copy
import importlib
import logging
import sys
import threading
import time
import types
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests._hermes_context import RecordingContext

from kit_lifecycle import configure_stderr_logging, load_plugin_config

SECRET = "loader-error-text-6b1f-never-logged"


def context(config: Any = None, get_config: Callable[[], Any] | None = None) -> RecordingContext:
    """A plugin context whose manifest holds ``config``, with upstream's ``get_config``
    when one is given."""
    ctx = RecordingContext(types.SimpleNamespace(name="demo", config=config))
    if get_config is not None:
        ctx.get_config = get_config  # type: ignore[attr-defined]
    return ctx


def plant_host_config(monkeypatch: pytest.MonkeyPatch, loader: Callable[[], Any]) -> None:
    fake = types.ModuleType("hermes_cli.config")
    fake.load_config_readonly = loader  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli.config", fake)


def host_config(plugins: Any) -> dict[str, Any]:
    return {"model": "x", "plugins": plugins}


# --- load_plugin_config: the manifest and the context API -


def test_the_manifest_config_wins_and_is_a_deep_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))
    source = {"limits": {"max": [1, 2]}, "name": "manifest"}
    ctx = context(config=source, get_config=lambda: {"from": "api"})
    result = load_plugin_config(ctx, "demo")
    assert result == source
    result["limits"]["max"].append(3)
    result["name"] = "changed"
    assert source == {"limits": {"max": [1, 2]}, "name": "manifest"}


def test_the_result_is_a_plain_dict() -> None:
    source = types.MappingProxyType({"a": 1})
    result = load_plugin_config(context(config=source), "demo")
    assert result == {"a": 1}
    assert type(result) is dict


def test_the_context_api_is_used_without_a_manifest_config(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))
    source = {"from": "api", "nested": {"list": [1]}}
    for manifest_config in (None, {}):
        result = load_plugin_config(
            context(config=manifest_config, get_config=lambda: source), "demo"
        )
        assert result == source
        result["nested"]["list"].append(2)
        assert source == {"from": "api", "nested": {"list": [1]}}


def test_an_api_that_needs_arguments_falls_through_to_the_host_config(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))

    class KeyedApi:
        manifest = None

        def get_config(self, key: str) -> Any:
            return {"from": "api"}

    assert load_plugin_config(KeyedApi(), "demo") == {"from": "host"}
    assert caplog.records == []


def test_a_failing_api_warns_without_its_message_and_falls_through(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))

    def broken() -> Any:
        raise RuntimeError(SECRET)

    assert load_plugin_config(context(get_config=broken), "demo") == {"from": "host"}
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, "hermes_plugin_kit: plugin config API failed for demo: RuntimeError")
    ]
    assert SECRET not in caplog.text


@pytest.mark.parametrize("api_result", [None, {}])
def test_an_api_without_settings_falls_through_quietly(
    api_result: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))
    assert load_plugin_config(context(get_config=lambda: api_result), "demo") == {"from": "host"}
    assert caplog.records == []


@pytest.mark.parametrize("api_result", ["text", ["a"], 3, object()])
def test_an_api_answer_that_is_not_a_mapping_is_warned_about_then_passed_over(
    api_result: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))
    assert load_plugin_config(context(get_config=lambda: api_result), "demo") == {"from": "host"}
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (
            logging.WARNING,
            "hermes_plugin_kit: plugin config for demo: ctx.get_config() is a"
            f" {type(api_result).__name__}, not a mapping of settings; it was ignored (write"
            " the settings as a mapping of names to values)",
        )
    ]


@pytest.mark.parametrize("bad", ["", "   ", None, 3])
def test_a_blank_plugin_name_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="plugin_name must be a non-empty string"):
        load_plugin_config(context(config={"a": 1}), bad)


# --- load_plugin_config: the host's read-only config -


def test_nothing_when_hermes_is_not_importable(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    assert "hermes_cli.config" not in sys.modules
    with pytest.raises(ImportError):
        importlib.import_module("hermes_cli.config")  # the conftest hides the real host
    assert load_plugin_config(context(), "demo") == {}
    assert load_plugin_config(object(), "demo") == {}
    assert caplog.records == []


def test_entries_settings_win_over_the_legacy_table(monkeypatch: pytest.MonkeyPatch) -> None:
    plant_host_config(
        monkeypatch,
        lambda: host_config(
            {
                "enabled": ["demo"],
                "entries": {"demo": {"enabled": True, "settings": {"from": "entries"}}},
                "demo": {"from": "legacy"},
            }
        ),
    )
    assert load_plugin_config(context(), "demo") == {"from": "entries"}


@pytest.mark.parametrize(
    "entries",
    [None, {}, {"other": {"settings": {"x": 1}}}, {"demo": {"settings": {}}}, {"demo": "bad"}],
)
def test_the_legacy_table_without_entries_settings(
    entries: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugins: dict[str, Any] = {"demo": {"from": "legacy"}}
    if entries is not None:
        plugins["entries"] = entries
    plant_host_config(monkeypatch, lambda: host_config(plugins))
    assert load_plugin_config(context(), "demo") == {"from": "legacy"}


def test_the_plugin_name_is_stripped_for_the_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "legacy"}}))
    assert load_plugin_config(context(), "  demo ") == {"from": "legacy"}


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"plugins": None},
        {"plugins": ["demo"]},
        {"plugins": {"demo": "not a table"}},
        {"plugins": {"other": {"x": 1}}},
        None,
        "text",
    ],
)
def test_nothing_when_the_host_has_no_settings(
    config: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant_host_config(monkeypatch, lambda: config)
    assert load_plugin_config(context(), "demo") == {}


def test_the_host_config_is_deep_copied(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = host_config(
        {"entries": {"demo": {"settings": {"list": [1]}}}, "legacy": {"list": [1]}}
    )
    plant_host_config(monkeypatch, lambda: shared)
    result = load_plugin_config(context(), "demo")
    result["list"].append(2)
    result["new"] = True
    assert shared["plugins"]["entries"]["demo"]["settings"] == {"list": [1]}

    legacy = host_config({"demo": {"nested": {"k": "v"}}})
    plant_host_config(monkeypatch, lambda: legacy)
    result = load_plugin_config(context(), "demo")
    result["nested"]["k"] = "changed"
    assert legacy["plugins"]["demo"] == {"nested": {"k": "v"}}


def test_a_raising_loader_warns_and_gives_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    def broken() -> Any:
        raise OSError(SECRET)

    plant_host_config(monkeypatch, broken)
    assert load_plugin_config(context(), "demo") == {}
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        (
            "hermes_plugin_kit",
            logging.WARNING,
            "hermes_plugin_kit: effective config read failed for demo: OSError",
        )
    ]
    assert SECRET not in caplog.text


def test_a_host_without_the_read_only_loader_is_read_with_load_config(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """hermes-agent 0.13.0 and 0.14.0: ``hermes_cli.config`` has ``load_config`` (the same
    defaults-merged config, as a copy) and no ``load_config_readonly``."""
    caplog.set_level(logging.DEBUG)
    fake = types.ModuleType("hermes_cli.config")
    settings = {"entries": {"demo": {"settings": {"greeting": "hi", "limits": {"max": 3}}}}}
    fake.load_config = lambda: host_config(settings)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli.config", fake)
    assert load_plugin_config(context(), "demo") == {"greeting": "hi", "limits": {"max": 3}}
    assert caplog.records == []


def test_a_host_config_module_without_a_loader_is_warned_about(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setitem(sys.modules, "hermes_cli.config", types.ModuleType("hermes_cli.config"))
    assert load_plugin_config(context(), "demo") == {}
    assert [r.getMessage() for r in caplog.records] == [
        "hermes_plugin_kit: plugin config for demo: hermes_cli.config has neither"
        " load_config_readonly nor load_config, so the host's settings cannot be read"
    ]


def test_the_host_config_module_is_imported_when_not_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = types.ModuleType("hermes_cli.config")
    fake.load_config_readonly = lambda: host_config({"demo": {"from": "imported"}})  # type: ignore[attr-defined]
    imported: list[str] = []
    real_import = importlib.import_module

    def import_module(name: str, package: str | None = None) -> types.ModuleType:
        if name == "hermes_cli.config":
            imported.append(name)
            return fake
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", import_module)
    assert load_plugin_config(context(), "demo") == {"from": "imported"}
    assert imported == ["hermes_cli.config"]


# --- load_plugin_config: values it cannot copy, and values it must not drop -


class Uncopyable:
    """An object whose copy fails, with a message that must not be logged."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        raise RuntimeError(SECRET)


def deep_dict(depth: int, leaf: Any) -> dict[str, Any]:
    top: dict[str, Any] = {}
    node = top
    for _ in range(depth - 1):
        node["k"] = {}
        node = node["k"]
    node["k"] = leaf
    return top


def walk(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = value["k"]
    return value


SOURCES = ("manifest", "api", "entries", "legacy")


def plant(
    source: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[RecordingContext, str]:
    """``settings`` where ``source`` keeps them; returns the context and the key path root."""
    if source == "manifest":
        return context(config=settings), "ctx.manifest.config"
    if source == "api":
        return context(get_config=lambda: settings), "ctx.get_config()"
    if source == "entries":
        plant_host_config(
            monkeypatch, lambda: host_config({"entries": {"demo": {"settings": settings}}})
        )
        return context(), "plugins.entries.demo.settings"
    plant_host_config(monkeypatch, lambda: host_config({"demo": settings}))
    return context(), "plugins.demo"


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


@pytest.mark.parametrize("source", SOURCES)
def test_a_lock_is_returned_as_it_is_and_its_key_path_warned_about(
    source: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    lock, other = threading.Lock(), Uncopyable()
    settings = {"db": {"pool": [1, {"guard": lock}]}, "plain": [1, 2], "odd key": other}
    ctx, root = plant(source, settings, monkeypatch)
    result = load_plugin_config(ctx, "demo")
    assert result["db"]["pool"][1]["guard"] is lock  # kept, never dropped
    assert result["odd key"] is other
    assert result["plain"] == [1, 2]
    assert result["plain"] is not settings["plain"]  # everything else is still a copy
    assert warnings_of(caplog) == [
        "hermes_plugin_kit: plugin config for demo: 2 value(s) could not be copied and are"
        " returned as the host's own objects (do not change them):"
        f" {root}['odd key']: cannot be copied (RuntimeError);"
        f" {root}.db.pool[1].guard: cannot be copied (TypeError)"
    ]
    assert SECRET not in caplog.text


@pytest.mark.parametrize("source", SOURCES)
def test_ten_thousand_levels_are_copied_without_a_warning(
    source: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    depth = 10_000
    settings = deep_dict(depth, [{"leaf": True}])
    ctx, _ = plant(source, settings, monkeypatch)
    result = load_plugin_config(ctx, "demo")
    assert walk(result, depth) == [{"leaf": True}]
    walk(result, depth)[0]["leaf"] = False
    assert walk(settings, depth) == [{"leaf": True}]
    assert caplog.records == []


def test_a_lock_ten_thousand_levels_down_is_kept_and_its_path_shortened(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    lock = threading.Lock()
    result = load_plugin_config(context(config=deep_dict(10_000, lock)), "demo")
    assert walk(result, 10_000) is lock
    (message,) = warnings_of(caplog)
    assert message.endswith(
        "ctx.manifest.config.k.k.k.k.k.k…(9988 levels)….k.k.k.k.k.k: cannot be copied (TypeError)"
    )


def test_a_tuple_nested_past_the_recursion_limit_is_kept(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    nested: tuple[Any, ...] = ()
    for _ in range(sys.getrecursionlimit() * 2):
        nested = (nested,)
    result = load_plugin_config(context(config={"chain": nested, "n": 1}), "demo")
    assert result == {"chain": nested, "n": 1}
    assert result["chain"] is nested
    try:  # Python 3.13 deep-copies it (the same tuple back); 3.11 and 3.12 run out of stack
        copy.deepcopy(nested)
    except RecursionError:
        assert warnings_of(caplog)[0].endswith(
            "ctx.manifest.config.chain: nested too deeply to copy (RecursionError)"
        )
    else:
        assert warnings_of(caplog) == []


def test_shared_and_cyclic_values_stay_shared_and_cyclic() -> None:
    shared = {"x": [1]}
    cyclic: dict[str, Any] = {"a": shared, "b": shared}
    cyclic["self"] = cyclic
    result = load_plugin_config(context(config=cyclic), "demo")
    assert result["self"] is result
    assert result["a"] is result["b"]
    assert result["a"] is not shared


def test_settings_that_cannot_be_read_at_all_are_passed_over_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    class Broken(dict[str, Any]):
        def items(self) -> Any:
            raise RuntimeError(SECRET)

    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))
    assert load_plugin_config(context(config=Broken(a=1)), "demo") == {"from": "host"}
    assert warnings_of(caplog) == [
        "hermes_plugin_kit: plugin config for demo: ctx.manifest.config could not be read"
        " (RuntimeError); it was passed over"
    ]
    assert SECRET not in caplog.text


def test_at_most_ten_key_paths_are_listed(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    locks = {f"lock{i:02}": threading.Lock() for i in range(25)}
    assert load_plugin_config(context(config=locks), "demo") == locks
    (message,) = warnings_of(caplog)
    assert "25 value(s) could not be copied" in message
    assert message.count("cannot be copied (TypeError)") == 10
    assert message.endswith("; and 15 more")


def test_a_key_that_looks_like_a_secret_is_not_shown(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    token = "sk-" + "a1b2c3d4" * 4
    load_plugin_config(context(config={"keys": {token: threading.Lock()}}), "demo")
    assert token not in caplog.text
    assert "ctx.manifest.config.keys['***']: cannot be copied (TypeError)" in caplog.text


@pytest.mark.parametrize("manifest_config", ["text", ["a"], 3])
def test_a_manifest_config_that_is_not_a_mapping_is_warned_about(
    manifest_config: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    assert load_plugin_config(context(config=manifest_config), "demo") == {}
    assert warnings_of(caplog) == [
        "hermes_plugin_kit: plugin config for demo: ctx.manifest.config is a"
        f" {type(manifest_config).__name__}, not a mapping of settings; it was ignored (write"
        " the settings as a mapping of names to values)"
    ]


def test_a_manifest_that_cannot_be_read_is_warned_about(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    class Exploding:
        @property
        def manifest(self) -> Any:
            raise RuntimeError(SECRET)

    assert load_plugin_config(Exploding(), "demo") == {}
    assert warnings_of(caplog) == ["hermes_plugin_kit: manifest read failed for demo: RuntimeError"]


@pytest.mark.parametrize(
    ("plugins", "expected", "warned"),
    [
        (
            {"entries": {"demo": {"settings": "on"}}, "demo": {"from": "legacy"}},
            {"from": "legacy"},
            "plugins.entries.demo.settings is a str, not a mapping",
        ),
        (
            {"entries": {"demo": ["x"]}, "demo": {"from": "legacy"}},
            {"from": "legacy"},
            "plugins.entries.demo is a list, not a mapping",
        ),
        ({"demo": "not a table"}, {}, "plugins.demo is a str, not a mapping"),
        (
            {"entries": {"demo": {"settings": {"from": "entries"}}}, "demo": {"from": "legacy"}},
            {"from": "entries"},
            "plugins.demo was ignored because plugins.entries.demo.settings is set and takes"
            " precedence; keep the settings in one place",
        ),
    ],
)
def test_host_config_that_is_passed_over_is_warned_about(
    plugins: Any,
    expected: dict[str, Any],
    warned: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    plant_host_config(monkeypatch, lambda: host_config(plugins))
    assert load_plugin_config(context(), "demo") == expected
    (message,) = warnings_of(caplog)
    assert message.startswith("hermes_plugin_kit: plugin config for demo: ")
    assert warned in message


@pytest.mark.parametrize("name", ["enabled", "disabled", "entries"])
def test_hermes_own_plugin_keys_are_never_a_plugins_settings(
    name: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    plugins = {"enabled": [name], "disabled": [], "entries": {"other": {"settings": {"x": 1}}}}
    plant_host_config(monkeypatch, lambda: host_config(plugins))
    assert load_plugin_config(context(), name) == {}
    assert caplog.records == []


# --- configure_stderr_logging -


@pytest.fixture
def fresh() -> Iterator[tuple[logging.Logger, str]]:
    """A logger and an environment variable name no other test uses; handlers removed after."""
    token = uuid.uuid4().hex[:8]
    logger = logging.getLogger(f"lc_stderr_{token}")
    yield logger, f"LC_STDERR_{token.upper()}"
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    logger.setLevel(logging.NOTSET)


FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


def test_stderr_logging_is_off_by_default(fresh: tuple[logging.Logger, str]) -> None:
    logger, env_var = fresh
    assert configure_stderr_logging(logger, env_var=env_var) is None
    assert logger.handlers == []
    assert logger.level == logging.NOTSET


@pytest.mark.parametrize("value", ["", "0", "false", "no", "off", "maybe", "2", "enabled"])
def test_off_for_other_values(
    value: str, fresh: tuple[logging.Logger, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logger, env_var = fresh
    monkeypatch.setenv(env_var, value)
    assert configure_stderr_logging(logger, env_var=env_var) is None
    assert configure_stderr_logging(logger, env_var=env_var, default=True) is None
    assert logger.handlers == []


@pytest.mark.parametrize("value", ["1", "true", "TRUE", "True", "yes", "YES", "on", "On", " on "])
def test_on_for_true_values_in_any_case(
    value: str, fresh: tuple[logging.Logger, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logger, env_var = fresh
    monkeypatch.setenv(env_var, value)
    handler = configure_stderr_logging(logger, env_var=env_var)
    assert handler is not None
    assert logger.handlers == [handler]


def test_default_true_applies_when_unset(fresh: tuple[logging.Logger, str]) -> None:
    logger, env_var = fresh
    handler = configure_stderr_logging(logger, env_var=env_var, default=True)
    assert handler is not None
    assert logger.handlers == [handler]


def test_switched_on_stderr_logging_writes_info_lines_in_the_kit_format(
    fresh: tuple[logging.Logger, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    logger, env_var = fresh
    monkeypatch.setenv(env_var, "1")
    handler = configure_stderr_logging(logger, env_var=env_var)
    assert isinstance(handler, logging.StreamHandler)
    assert handler.stream is sys.stderr
    assert handler.level == logging.INFO
    assert handler.formatter is not None
    assert handler.formatter._fmt == FORMAT
    assert logger.level == logging.INFO
    logger.info("hello from the plugin")
    logger.debug("not at debug")
    err = capsys.readouterr().err
    assert f" INFO {logger.name} hello from the plugin\n" in err
    assert "not at debug" not in err


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (logging.NOTSET, logging.INFO),
        (logging.WARNING, logging.INFO),
        (logging.ERROR, logging.INFO),
        (logging.INFO, logging.INFO),
        (logging.DEBUG, logging.DEBUG),
    ],
)
def test_the_logger_level_is_raised_to_info(
    before: int,
    after: int,
    fresh: tuple[logging.Logger, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    logger, env_var = fresh
    logger.setLevel(before)
    monkeypatch.setenv(env_var, "yes")
    configure_stderr_logging(logger, env_var=env_var)
    assert logger.level == after


def test_configuring_stderr_logging_twice_adds_one_handler(
    fresh: tuple[logging.Logger, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logger, env_var = fresh
    monkeypatch.setenv(env_var, "1")
    first = configure_stderr_logging(logger, env_var=env_var)
    second = configure_stderr_logging(logger, env_var=env_var)
    third = configure_stderr_logging(logger, env_var=env_var, default=True)
    assert first is not None
    assert second is first
    assert third is first
    assert logger.handlers == [first]


def test_other_handlers_are_left_alone(
    fresh: tuple[logging.Logger, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logger, env_var = fresh
    existing = logging.NullHandler()
    logger.addHandler(existing)
    monkeypatch.setenv(env_var, "1")
    handler = configure_stderr_logging(logger, env_var=env_var)
    assert logger.handlers == [existing, handler]


def test_configuring_stderr_logging_from_threads_adds_one_handler(
    fresh: tuple[logging.Logger, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    logger, env_var = fresh
    monkeypatch.setenv(env_var, "true")
    real_stream_handler = logging.StreamHandler

    class SlowStreamHandler(real_stream_handler):
        """Widens the window between "no handler yet" and "handler added"."""

        def __init__(self, stream: Any = None) -> None:
            time.sleep(0.02)
            super().__init__(stream)

    monkeypatch.setattr(logging, "StreamHandler", SlowStreamHandler)
    barrier = threading.Barrier(16)
    results: list[logging.Handler | None] = []
    lock = threading.Lock()

    def configure() -> None:
        barrier.wait()
        handler = configure_stderr_logging(logger, env_var=env_var)
        with lock:
            results.append(handler)

    threads = [threading.Thread(target=configure) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 16
    assert len(logger.handlers) == 1
    assert all(r is logger.handlers[0] for r in results)


@pytest.mark.parametrize("bad", ["lc_stderr", None, logging.LoggerAdapter(logging.getLogger("x"))])
def test_the_logger_must_be_a_logger(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"logger must be a logging\.Logger"):
        configure_stderr_logging(bad, env_var="LC_STDERR_UNUSED")


@pytest.mark.parametrize("bad", ["", "   ", None, 1])
def test_the_env_var_must_be_named(bad: Any, fresh: tuple[logging.Logger, str]) -> None:
    logger, _ = fresh
    with pytest.raises(ValueError, match="env_var must name an environment variable"):
        configure_stderr_logging(logger, env_var=bad)
    assert logger.handlers == []
