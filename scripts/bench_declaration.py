"""Declaring and registering 1,000 tools, against the targets of light declarations.

The module is the one ``bench_registration.py`` declares: tools of three arguments (two
strings with examples, one bounded integer), declared as a plugin's import declares them
(the argument specs are built inside the loop, as in a decorator). One tool is declared
first, so the figures are what each further tool costs (a shape's check is compiled once).

* declaring: µs per tool, the median of ``--rounds`` rounds, the garbage collector on
  (each round starts after ``gc.collect()``);
* memory: KiB per tool still allocated after declaring them, measured with
  ``tracemalloc``, the garbage collector on; the handler functions the loop defines count
  too. Then the same after ``register_all`` into a host context that keeps what it is
  given, as hermes keeps it;
* registering: µs per tool of ``kit_core.register_all`` and ``kit_lifecycle.register_plugin``
  into a minimal host context, the median of the rounds, the garbage collector on (the
  context lives on after the call, as a host does: freeing what it holds is not timed);
  and how many ``copy.deepcopy`` calls registering made.

Each figure is printed with its target and "met" or "not met (limited by …)"; a
breakdown of one declaration follows. Figures only: nothing is asserted.

Usage: python scripts/bench_declaration.py [--tools 1000] [--rounds 21]
"""

from __future__ import annotations

import argparse
import copy
import gc
import sys
import timeit
import tracemalloc
from collections.abc import Callable
from time import perf_counter_ns
from types import ModuleType
from typing import Any

from _bench import machine, median, table
from bench_registration import HostContext, declare, declare_typed
from kit_core import ToolSpec, declaration_of, int_arg, register_all, str_arg, tool
from kit_lifecycle import register_plugin

DECLARE_US = 40.0
RETAINED_KIB = 4.0
REGISTER_US = 5.0


def per_tool_us(action: Callable[[], object], count: int) -> float:
    """µs per tool of one run of ``action`` (the garbage collector on, fresh generations)."""
    gc.collect()
    started = perf_counter_ns()
    action()
    return (perf_counter_ns() - started) / 1000 / count


def retained_kib(count: int, register: bool) -> float:
    """KiB per tool still allocated after declaring ``count`` tools (and registering them)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    module = declare(count)
    host = HostContext()
    if register:
        register_all(host, module)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del module, host
    return (after - before) / 1024 / count


def deep_copies(action: Callable[[], object]) -> int:
    """How many times ``action`` calls ``copy.deepcopy`` (the kit calls it as
    ``copy.deepcopy``, so the module attribute is what it finds)."""
    original = copy.deepcopy
    calls = 0

    def counting(value: Any, memo: Any = None, _nil: Any = None) -> Any:
        nonlocal calls
        calls += 1
        return original(value, memo)

    copy.deepcopy = counting
    try:
        action()
    finally:
        copy.deepcopy = original
    return calls


def verdict(value: float, target: float, limit: str) -> str:
    return "met" if value <= target else f"not met (limited by {limit})"


def breakdown() -> list[list[str]]:
    """µs of each part of one declaration (best of several batches, garbage collector off
    as timeit has it): where a tool's declaration time goes. Empty for a kit without
    these parts (the script also times older revisions: run it with their packages first
    on ``PYTHONPATH``)."""
    try:
        from kit_core._schema import schema_from_specs
        from kit_core._shared import argument_check
        from kit_core._snapshot import Snapshot
    except ImportError:
        return []

    def params() -> dict[str, Any]:
        return {
            "query": str_arg("What to look for", required=True, example="coffee"),
            "region": str_arg("Region code", example="eu"),
            "limit": int_arg("How many places to return", minimum=1, maximum=20),
        }

    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Find places matching a query."""
        return args

    built = params()
    schema = schema_from_specs(
        "places_find", "Find places matching a query.", built, copy_specs=False
    )
    examples = {"query": "coffee", "region": "eu"}
    parts: list[tuple[str, Callable[[], object]]] = [
        ("three argument specs (str_arg, str_arg, int_arg)", params),
        ("the schema from the specs, with its description", lambda: schema_from_specs(
            "places_find", "Find places matching a query.", built, copy_specs=False
        )),
        ("the stored snapshot of the schema", lambda: Snapshot(schema)),
        ("the shared argument check (shape key, cache hit)", lambda: argument_check(
            schema["parameters"], examples
        )),
        ("@tool(...)(handler) with the specs built", lambda: tool(
            toolset="bench", params=built
        )(handler)),
        ("ToolSpec.schema (the copy a caller or the host gets)", lambda: None),
    ]  # fmt: skip
    spec = declaration_of(tool(toolset="bench", params=built)(handler), ToolSpec)
    assert spec is not None
    parts[-1] = (parts[-1][0], lambda: spec.schema)
    rows: list[list[str]] = []
    for label, action in parts:
        best = min(timeit.repeat(action, number=2000, repeat=7)) / 2000 * 1e6
        rows.append([label, f"{best:,.2f}"])
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=21)
    options = parser.parse_args(argv)
    count, rounds = options.tools, options.rounds
    declare(1)  # the first declaration of a shape compiles its check; later ones share it
    declare_typed(1)

    declaring: list[float] = []
    typed: list[float] = []
    cold: list[float] = []
    by_all: list[float] = []
    by_plugin: list[float] = []
    for _ in range(rounds):
        holder: list[ModuleType] = []
        declaring.append(per_tool_us(lambda: holder.append(declare(count)), count))  # noqa: B023
        typed.append(per_tool_us(lambda: declare_typed(count), count))
        cold.append(per_tool_us(lambda: declare_typed(count, cold=True), count))
        module = holder[0]
        hosts = (HostContext(), HostContext())  # kept past the timing, as a host keeps them
        by_all.append(per_tool_us(lambda: register_all(hosts[0], module), count))  # noqa: B023
        by_plugin.append(per_tool_us(lambda: register_plugin(hosts[1], module), count))  # noqa: B023
    declared_kib = median([retained_kib(count, register=False) for _ in range(3)])
    registered_kib = median([retained_kib(count, register=True) for _ in range(3)])
    module = declare(count)
    copies_all = deep_copies(lambda: register_all(HostContext(), module))
    copies_plugin = deep_copies(lambda: register_plugin(HostContext(), module))

    declare_us, all_us, plugin_us = median(declaring), median(by_all), median(by_plugin)
    typed_us, cold_us = median(typed), median(cold)
    same = [
        declaration_of(declare_typed(1).places_find_0, ToolSpec),
        declaration_of(declare(1).places_find_0, ToolSpec),
    ]
    spread = f"{min(declaring):,.1f} to {max(declaring):,.1f}"
    rows = [
        [
            "declaring, µs/tool",
            f"{declare_us:,.1f}",
            f"<= {DECLARE_US:g}",
            verdict(
                declare_us,
                DECLARE_US,
                "the work left per tool: its argument specs, schema, description, snapshot"
                " and shape key (see the breakdown)",
            ),
        ],
        [
            "declaring by a typed signature, µs/tool",
            f"{typed_us:,.1f} ({typed_us / declare_us:.2f}x the specs')",
            f"<= {DECLARE_US:g}",
            verdict(typed_us, DECLARE_US, "reading the signature and the docstring"),
        ],
        [
            "the same, no annotation or docstring seen before, µs/tool",
            f"{cold_us:,.1f} ({cold_us / declare_us:.2f}x the specs')",
            f"<= {DECLARE_US:g}",
            verdict(
                cold_us,
                DECLARE_US,
                "evaluating the annotations (typing builds Annotated and unions), parsing"
                " the docstring",
            ),
        ],
        [
            "retained after declaring, KiB/tool",
            f"{declared_kib:,.2f}",
            f"<= {RETAINED_KIB:g}",
            verdict(
                declared_kib,
                RETAINED_KIB,
                "the wrapper, its four own closure cells, its ToolSpec, runner and stored leaves",
            ),
        ],
        [
            "retained after declaring and register_all, KiB/tool",
            f"{registered_kib:,.2f}",
            f"<= {RETAINED_KIB:g}",
            verdict(registered_kib, RETAINED_KIB, "the host's own copy of each schema"),
        ],
        [
            "register_all, µs/tool",
            f"{all_us:,.1f}",
            f"<= {REGISTER_US:g}",
            verdict(all_us, REGISTER_US, "the host's copy of each schema and its registrar call"),
        ],
        [
            "register_plugin, µs/tool",
            f"{plugin_us:,.1f}",
            f"<= {REGISTER_US:g}",
            verdict(
                plugin_us,
                REGISTER_US,
                "the host's copy of each schema, its registrar call and the undo record kept"
                " for each call",
            ),
        ],
        [
            "copy.deepcopy calls while registering, per tool",
            f"{copies_all / count:g} and {copies_plugin / count:g}",
            "0",
            "met" if copies_all == copies_plugin == 0 else "not met",
        ],
    ]
    print(f"# declaring and registering {count:,} tools ({machine()})")
    print(
        f"# medians of {rounds} rounds in one process, the garbage collector on (declaring"
        f" ranged {spread} µs/tool); memory measured with tracemalloc, the median of 3"
    )
    print(
        table(["figure", "verdict", "value", "target"], [[r[0], r[3], r[1], r[2]] for r in rows], 2)
    )
    schemas = [s.schema if s is not None else None for s in same]
    print(f"# the typed and the spec declarations give the same schema: {schemas[0] == schemas[1]}")
    print()
    parts = breakdown()
    if parts:
        print("# one declaration, part by part: µs, best of 7 batches (timeit, collector off)")
        print(table(["part", "µs"], parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
