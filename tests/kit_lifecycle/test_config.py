"""load_plugin_config and configure_stderr_logging."""

from __future__ import annotations

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

from kit_lifecycle import configure_stderr_logging, load_plugin_config

SECRET = "loader-error-text-6b1f-never-logged"


class Ctx:
    def __init__(self, config: Any = None, get_config: Callable[[], Any] | None = None) -> None:
        self.manifest = types.SimpleNamespace(name="demo", config=config)
        if get_config is not None:
            self.get_config = get_config


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
    ctx = Ctx(config=source, get_config=lambda: {"from": "api"})
    result = load_plugin_config(ctx, "demo")
    assert result == source
    result["limits"]["max"].append(3)
    result["name"] = "changed"
    assert source == {"limits": {"max": [1, 2]}, "name": "manifest"}


def test_the_result_is_a_plain_dict() -> None:
    source = types.MappingProxyType({"a": 1})
    result = load_plugin_config(Ctx(config=source), "demo")
    assert result == {"a": 1}
    assert type(result) is dict


def test_the_context_api_is_used_without_a_manifest_config(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))
    source = {"from": "api", "nested": {"list": [1]}}
    for manifest_config in (None, {}):
        result = load_plugin_config(Ctx(config=manifest_config, get_config=lambda: source), "demo")
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

    assert load_plugin_config(Ctx(get_config=broken), "demo") == {"from": "host"}
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, "hermes_plugin_kit: plugin config API failed for demo: RuntimeError")
    ]
    assert SECRET not in caplog.text


@pytest.mark.parametrize("api_result", [None, {}, "text", ["a"]])
def test_an_api_without_a_mapping_falls_through(
    api_result: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "host"}}))
    assert load_plugin_config(Ctx(get_config=lambda: api_result), "demo") == {"from": "host"}


@pytest.mark.parametrize("bad", ["", "   ", None, 3])
def test_a_blank_plugin_name_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="plugin_name must be a non-empty string"):
        load_plugin_config(Ctx(config={"a": 1}), bad)


# --- load_plugin_config: the host's read-only config -


def test_nothing_when_hermes_is_not_importable(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    assert "hermes_cli.config" not in sys.modules
    with pytest.raises(ImportError):
        importlib.import_module("hermes_cli.config")  # the conftest hides the real host
    assert load_plugin_config(Ctx(), "demo") == {}
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
    assert load_plugin_config(Ctx(), "demo") == {"from": "entries"}


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
    assert load_plugin_config(Ctx(), "demo") == {"from": "legacy"}


def test_the_plugin_name_is_stripped_for_the_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    plant_host_config(monkeypatch, lambda: host_config({"demo": {"from": "legacy"}}))
    assert load_plugin_config(Ctx(), "  demo ") == {"from": "legacy"}


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
    assert load_plugin_config(Ctx(), "demo") == {}


def test_the_host_config_is_deep_copied(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = host_config(
        {"entries": {"demo": {"settings": {"list": [1]}}}, "legacy": {"list": [1]}}
    )
    plant_host_config(monkeypatch, lambda: shared)
    result = load_plugin_config(Ctx(), "demo")
    result["list"].append(2)
    result["new"] = True
    assert shared["plugins"]["entries"]["demo"]["settings"] == {"list": [1]}

    legacy = host_config({"demo": {"nested": {"k": "v"}}})
    plant_host_config(monkeypatch, lambda: legacy)
    result = load_plugin_config(Ctx(), "demo")
    result["nested"]["k"] = "changed"
    assert legacy["plugins"]["demo"] == {"nested": {"k": "v"}}


def test_a_raising_loader_warns_and_gives_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    def broken() -> Any:
        raise OSError(SECRET)

    plant_host_config(monkeypatch, broken)
    assert load_plugin_config(Ctx(), "demo") == {}
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        (
            "hermes_plugin_kit",
            logging.WARNING,
            "hermes_plugin_kit: effective config read failed for demo: OSError",
        )
    ]
    assert SECRET not in caplog.text


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
    assert load_plugin_config(Ctx(), "demo") == {"from": "imported"}
    assert imported == ["hermes_cli.config"]


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


def test_off_by_default(fresh: tuple[logging.Logger, str]) -> None:
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


def test_the_handler(
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
    assert handler.formatter._fmt == FORMAT  # pyright: ignore[reportPrivateUsage]
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


def test_idempotent(fresh: tuple[logging.Logger, str], monkeypatch: pytest.MonkeyPatch) -> None:
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


def test_thread_safe(fresh: tuple[logging.Logger, str], monkeypatch: pytest.MonkeyPatch) -> None:
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
