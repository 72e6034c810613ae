"""Per-call cost of one realistic tool: the floor, the kit and the peer SDKs' validation layers.

The tool takes two strings and one bounded integer, one of them required. Each layer
answers the host with a JSON string and calls the same underlying function. Figures are
the median over interleaved rounds of one batch of calls each, all from this one run.

A second table prices the kit's INFO success line under hermes' production logging (the
installed hermes-agent's own ``hermes_logging.setup_logging``), against the same tool with
the line lowered by ``HERMES_PLUGIN_KIT_CALL_LOG``, in CPU time of the whole process.

Usage: python scripts/bench_calls.py [--rounds N] [--batch-ms MS]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import json
import logging
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter, perf_counter_ns, process_time_ns
from types import FunctionType
from typing import Annotated, Any, cast

from _bench import batch_ns, machine, median, table
from kit_core import ToolSpec, declaration_of, int_arg, str_arg, tool


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


SUCCESS: dict[str, Any] = {"query": "coffee", "region": "eu", "limit": 3}
REJECTED: dict[str, Any] = {"region": "eu", "limit": 3}  # the required "query" is missing
CONTEXT: dict[str, Any] = {"task_id": "bench-task"}  # hermes passes runtime keys as keywords


def find_places(query: str, region: str = "eu", limit: int = 3) -> dict[str, Any]:
    """The work every layer wraps: a small result to encode."""
    return {"query": query, "region": region, "places": [f"{query} #{i}" for i in range(limit)]}


# -- 1. the floor: checks nothing ------------------------------------------------------


def floor_handler(args: dict[str, Any], **kwargs: Any) -> str:
    return json.dumps(
        find_places(args.get("query"), args.get("region", "eu"), args.get("limit", 3))  # pyright: ignore[reportArgumentType]
    )


FLOOR_LOGGER = logging.getLogger("bench.floor")


def floor_logging_handler(args: dict[str, Any], **kwargs: Any) -> str:
    """The floor plus one INFO line like the kit's: what a log line costs by itself."""
    started = perf_counter()
    encoded = floor_handler(args, **kwargs)
    FLOOR_LOGGER.info(
        "%s: ok; elapsed_ms=%.2f; result=%s",
        "places_find",
        (perf_counter() - started) * 1000,
        "dict",
    )
    return encoded


# -- 2. the kit ------------------------------------------------------------------------


@tool(
    toolset="bench",
    params={
        "query": str_arg("What to look for", required=True, example="coffee"),
        "region": str_arg("Region code", example="eu"),
        "limit": int_arg("How many places to return", minimum=1, maximum=20),
    },
)
def places_find(args: dict[str, Any], **kwargs: Any) -> object:
    """Find places matching a query."""
    return find_places(**args)


# -- 2b. the success line under hermes' own logging ----------------------------------

CALL_LOG_ENV = "HERMES_PLUGIN_KIT_CALL_LOG"
PLUGINS = {"memo_sync": "", "notes": "notes=debug"}
"""Two directory plugins as hermes imports them (``hermes_plugins.<slug>``), with the
``HERMES_PLUGIN_KIT_CALL_LOG`` each was declared under: the default, and lowered."""


def places_in(plugin: str, call_log: str) -> Callable[..., str]:
    """``places_find`` again, its handler in ``hermes_plugins.<plugin>.tools``, declared
    while ``HERMES_PLUGIN_KIT_CALL_LOG`` is ``call_log`` (the kit reads it then)."""
    same = FunctionType(find_places.__code__, find_places.__globals__, "places_find")

    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Find places matching a query."""
        return same(**args)

    handler.__module__ = f"hermes_plugins.{plugin}.tools"
    saved = os.environ.get(CALL_LOG_ENV)
    os.environ[CALL_LOG_ENV] = call_log
    try:
        return tool(
            toolset="bench",
            name=f"{plugin}_places_find",
            params={
                "query": str_arg("What to look for", required=True, example="coffee"),
                "region": str_arg("Region code", example="eu"),
                "limit": int_arg("How many places to return", minimum=1, maximum=20),
            },
        )(handler)
    finally:
        if saved is None:
            del os.environ[CALL_LOG_ENV]
        else:
            os.environ[CALL_LOG_ENV] = saved


def cpu_batch_ns(
    fn: Callable[[object], object], arg: object, calls: int, flush: Callable[[], None]
) -> tuple[float, float]:
    """CPU ns of the whole process per call (the log writer's thread included: the batch
    ends when hermes' queue is drained), and wall ns per call on the calling thread."""
    loop = range(calls)
    cpu, wall = process_time_ns(), perf_counter_ns()
    for _ in loop:
        fn(arg)
    wall = perf_counter_ns() - wall
    flush()
    return (process_time_ns() - cpu) / calls, wall / calls


def run_call_line(rounds: int, batch_ms: float) -> None:
    """The success line under hermes' production logging: ``hermes_logging.setup_logging``
    of the installed hermes-agent, in a scratch ``HERMES_HOME`` (root at INFO, a queue
    handler, and on its listener thread rotating ``agent.log``/``errors.log`` with hermes'
    ``RedactingFormatter``), a session id set as during a conversation."""
    with tempfile.TemporaryDirectory() as home:
        os.environ["HERMES_HOME"] = home  # before hermes is imported: it reads it early
        try:
            import hermes_logging
        except ImportError:
            print("\n# the success line under hermes' logging: hermes-agent is not installed")
            return
        from importlib.metadata import version

        hermes_logging.setup_logging(hermes_home=Path(home), log_level="INFO", force=True)
        hermes_logging.set_session_context("bench-session")
        flush: Callable[[], None] = hermes_logging.flush_log_queue
        callers: dict[str, Callable[[object], object]] = {
            "floor: hand-written, no checks, json.dumps": lambda a: floor_handler(
                cast("dict[str, Any]", a), **CONTEXT
            )
        }
        for plugin, call_log in PLUGINS.items():
            fn = places_in(plugin, call_log)
            label = f"kit, {CALL_LOG_ENV}={call_log}" if call_log else "kit, default (INFO line)"
            callers[label] = lambda a, fn=fn: fn(a, **CONTEXT)
        calls: dict[str, int] = {}
        for label, call in callers.items():  # warm up, and size each batch to about batch_ms
            cpu, _ = cpu_batch_ns(call, SUCCESS, 300, flush)
            calls[label] = max(100, int(batch_ms * 1e6 / cpu))
        cpu_ns: dict[str, list[float]] = {label: [] for label in callers}
        wall_ns: dict[str, list[float]] = {label: [] for label in callers}
        for _ in range(rounds):  # interleaved
            for label, call in callers.items():
                gc.collect()
                cpu, wall = cpu_batch_ns(call, SUCCESS, calls[label], flush)
                cpu_ns[label].append(cpu)
                wall_ns[label].append(wall)
        hermes_logging.clear_session_context()
        flush()
        log = Path(home, "logs", "agent.log").read_text(encoding="utf-8")
        hermes_logging._reset_queued_handlers()
    floor = median(next(iter(cpu_ns.values())))
    rows = [
        [
            label,
            f"{median(cpu_ns[label]):,.0f}",
            f"{median(cpu_ns[label]) - floor:+,.0f}",
            f"{median(wall_ns[label]):,.0f}",
        ]
        for label in callers
    ]
    print(
        f"\n# the success line under hermes' production logging (hermes-agent"
        f" {version('hermes-agent')}, hermes_logging.setup_logging at INFO)"
    )
    print(
        f"# median of {rounds} interleaved rounds of one batch per layer; a successful call;"
        " CPU of the whole process per call, hermes' log thread included"
    )
    print(table(["layer", "CPU ns", "added CPU ns", "caller wall ns"], rows))
    written = {p: log.count(f"hermes_plugins.{p}.tools: {p}_places_find: ok") for p in PLUGINS}
    print(f"# ok lines in agent.log: {written}")


# -- 3. the peers' validation layers ---------------------------------------------------


def pydantic_handler() -> Callable[..., str] | str:
    """``validate_call`` (FastMCP, pydantic-ai, the Anthropic tool helpers) over the same
    function body, with the bound as pydantic spells it."""
    try:
        from pydantic import Field, ValidationError, validate_call
    except ImportError:
        return "not installed (./scripts/bench syncs the bench group)"
    same = FunctionType(
        find_places.__code__, find_places.__globals__, "find_places", find_places.__defaults__
    )
    same.__annotations__ = {
        "query": str,
        "region": str,
        "limit": Annotated[int, Field(ge=1, le=20)],
        "return": dict[str, Any],
    }
    validated = validate_call(same)

    def handler(args: dict[str, Any], **kwargs: Any) -> str:
        try:
            return json.dumps(validated(**args))
        except ValidationError as exc:
            return json.dumps({"success": False, "error": str(exc)})

    return handler


def langchain_handler() -> Callable[..., str] | str:
    """langchain-core's ``StructuredTool`` with a pydantic ``args_schema``, invoked the way
    an agent executor invokes it."""
    try:
        pydantic = importlib.import_module("pydantic")
        tools = importlib.import_module("langchain_core.tools")
    except ImportError:
        return "not installed (./scripts/bench syncs the bench group)"
    field = pydantic.Field
    schema = pydantic.create_model(
        "PlacesFindArgs",
        query=(str, field(description="What to look for")),
        region=(str, field("eu", description="Region code")),
        limit=(int, field(3, ge=1, le=20, description="How many places to return")),
    )
    structured = tools.StructuredTool.from_function(
        func=find_places,
        name="places_find",
        description="Find places matching a query.",
        args_schema=schema,
        handle_validation_error=True,
    )

    def handler(args: dict[str, Any], **kwargs: Any) -> str:
        result = structured.invoke(args)
        if isinstance(result, str):  # the validation error text
            return json.dumps({"success": False, "error": result})
        return json.dumps(result)

    return handler


# -- the run ---------------------------------------------------------------------------


@dataclass
class Layer:
    label: str
    handler: Callable[..., str] | None
    level: int | None = None  # the plugin logger's level while this layer runs
    missing: str = ""


def layers(stream: io.StringIO) -> list[Layer]:
    attached = logging.StreamHandler(stream)
    attached.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in (spec_of(places_find).module, FLOOR_LOGGER.name):
        logger = logging.getLogger(name)
        logger.addHandler(attached)
        logger.propagate = False
    FLOOR_LOGGER.setLevel(logging.INFO)
    found: list[Layer] = [
        Layer("floor: hand-written, no checks, json.dumps", floor_handler),
        Layer("kit, plugin logger at WARNING", places_find, logging.WARNING),
        Layer("kit, plugin logger at ERROR (no rejection line)", places_find, logging.ERROR),
        Layer("kit, INFO on, StreamHandler formatting", places_find, logging.INFO),
        Layer("floor + one logger.info line, same handler", floor_logging_handler),
    ]
    for label, make in (
        ("pydantic validate_call", pydantic_handler),
        ("langchain-core StructuredTool.invoke", langchain_handler),
    ):
        made = make()
        found.append(
            Layer(label, None, missing=made) if isinstance(made, str) else Layer(label, made)
        )
    return found


CASES: dict[str, dict[str, Any]] = {"success": SUCCESS, "rejected": REJECTED}


def run(rounds: int, batch_ms: float) -> None:
    stream = io.StringIO()
    found = layers(stream)
    plugin_logger = logging.getLogger(spec_of(places_find).module)
    timed = [layer for layer in found if layer.handler is not None]

    def prepared(layer: Layer) -> Callable[[object], object]:
        handler = layer.handler
        assert handler is not None
        if layer.level is not None:
            plugin_logger.setLevel(layer.level)

        def call(args: object) -> object:
            return handler(args, **CONTEXT)

        return call

    calls: dict[tuple[str, str], int] = {}
    samples: dict[tuple[str, str], list[float]] = {}
    for layer in timed:  # warm up, and size each batch to about batch_ms
        for case, args in CASES.items():
            per_call = batch_ns(prepared(layer), args, 300)
            calls[layer.label, case] = max(100, int(batch_ms * 1e6 / per_call))
            samples[layer.label, case] = []
    for _ in range(rounds):  # interleaved: drift of the machine spreads over every layer
        for layer in timed:
            for case, args in CASES.items():
                gc.collect()
                ns = batch_ns(prepared(layer), args, calls[layer.label, case])
                samples[layer.label, case].append(ns)
                stream.seek(0)
                stream.truncate()

    floor = {case: median(samples[found[0].label, case]) for case in CASES}
    rows: list[list[str]] = []
    for layer in timed:
        cells = [layer.label]
        for case in CASES:
            ns = median(samples[layer.label, case])
            cells += [f"{ns:,.0f}", f"{ns / floor[case]:.2f}x"]
        cells.append(f"{median(samples[layer.label, 'success']) - floor['success']:+,.0f}")
        rows.append(cells)
    print(f"# per-call cost ({machine()})")
    print(
        f"# median of {rounds} interleaved rounds of one batch (about {batch_ms:g} ms) per layer"
        " and case; ns per call and ratio to the floor"
    )
    headers = ["layer", "success ns", "× floor", "rejected ns", "× floor", "success, added ns"]
    print(table(headers, rows))
    for layer in found:
        if layer.handler is None:
            print(f"# {layer.label}: {layer.missing}")
    print(
        "# rejected = the required 'query' missing; the floor checks nothing, so its"
        " 'rejected' call runs the function with query=None"
    )
    print("\n# what each layer answered (first 100 characters)")
    plugin_logger.setLevel(logging.WARNING)
    for layer in timed:
        assert layer.handler is not None
        for case, args in CASES.items():
            answer = layer.handler(dict(args), **CONTEXT)
            assert isinstance(answer, str)
            print(f"{layer.label[:36]:<36} {case:<8} {answer[:100]}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--batch-ms", type=float, default=20.0)
    options = parser.parse_args(argv)
    run(options.rounds, options.batch_ms)
    run_call_line(options.rounds, options.batch_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
