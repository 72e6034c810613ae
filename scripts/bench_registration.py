"""Registration cost and memory for 1, 100 and 1,000 tools: how it grows.

For each count, a fresh module of that many three-argument tools is declared (the
``@tool`` decoration a plugin's import runs), then registered with a minimal host
context by ``kit_core.register_all`` and by ``kit_lifecycle.register_plugin``. Times are
medians of several repetitions in this one process; memory is what ``tracemalloc`` sees
still allocated after declaring and registering (the context keeps what a host keeps).

Usage: python scripts/bench_registration.py [--counts 1,100,1000]
"""

from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc
from collections.abc import Callable
from time import perf_counter_ns
from types import ModuleType
from typing import Annotated, Any

from _bench import machine, median, table
from kit_core import Arg, int_arg, register_all, str_arg, tool
from kit_lifecycle import register_plugin


class HostContext:
    """The part of hermes' PluginContext that tools need: it keeps what it is given."""

    def __init__(self) -> None:
        self.tools: dict[str, dict[str, Any]] = {}

    def register_tool(self, **fields: Any) -> None:
        self.tools[fields["name"]] = fields


def declare(count: int) -> ModuleType:
    """A plugin module holding ``count`` decorated tools."""
    module = ModuleType(f"bench_plugin_{count}")
    for index in range(count):
        name = f"places_find_{index}"

        def handler(args: dict[str, Any], **kwargs: Any) -> object:
            return args

        handler.__name__ = handler.__qualname__ = name
        handler.__module__ = module.__name__
        handler.__doc__ = "Find places matching a query."
        decorate = tool(
            toolset="bench",
            params={
                "query": str_arg("What to look for", required=True, example="coffee"),
                "region": str_arg("Region code", example="eu"),
                "limit": int_arg("How many places to return", minimum=1, maximum=20),
            },
        )
        setattr(module, name, decorate(handler))
    return module


def declare_typed(count: int, cold: bool = False) -> ModuleType:
    """:func:`declare`'s tools, declared by a typed signature: the same schema, checks and
    names, the arguments written once in each handler's annotations (strings, under the
    module's ``from __future__ import annotations``). The kit keeps what it made of an
    annotation text and of a docstring for the next tool that repeats them, as these
    repeat; ``cold`` forgets it before each tool, so every declaration pays for all of it,
    as a tool whose annotations and docstring no earlier tool had."""
    module = ModuleType(f"bench_typed_plugin_{count}")
    for index in range(count):
        if cold:
            forget_typed()
        name = f"places_find_{index}"

        def handler(
            query: Annotated[str, Arg("What to look for", example="coffee")],
            region: Annotated[str | None, Arg("Region code", example="eu")] = None,
            limit: Annotated[
                int | None, Arg("How many places to return", minimum=1, maximum=20)
            ] = None,
        ) -> object:
            """Find places matching a query."""
            return query

        handler.__name__ = handler.__qualname__ = name
        handler.__module__ = module.__name__
        setattr(module, name, tool(toolset="bench")(handler))
    return module


def forget_typed() -> None:
    """Forget the annotations, arguments and docstrings earlier typed tools had."""
    from kit_core._docstrings import parse_docstring
    from kit_core._hints import clear_hints
    from kit_core._typed import clear_derived

    clear_hints()
    clear_derived()
    parse_docstring.cache_clear()


def timed_us(action: Callable[[], object]) -> float:
    gc.collect()
    started = perf_counter_ns()
    action()
    return (perf_counter_ns() - started) / 1000


def retained_kib(count: int) -> float:
    """KiB still allocated after declaring ``count`` tools and registering them."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    module = declare(count)
    host = HostContext()
    register_all(host, module)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(host.tools) == count
    return (after - before) / 1024


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--counts", default="1,100,1000")
    options = parser.parse_args(argv)
    counts = [int(c) for c in options.counts.split(",")]
    declare(1)  # the first declaration of a shape compiles its fast path; later ones reuse it

    rows: list[list[str]] = []
    for count in counts:
        repeats = max(5, min(201, 2000 // count))
        declared: list[float] = []
        by_all: list[float] = []
        by_plugin: list[float] = []
        for _ in range(repeats):
            holder: list[ModuleType] = []
            declared.append(timed_us(lambda: holder.append(declare(count))))  # noqa: B023
            module = holder[0]
            by_all.append(timed_us(lambda: register_all(HostContext(), module)))  # noqa: B023
            by_plugin.append(timed_us(lambda: register_plugin(HostContext(), module)))  # noqa: B023
        kib = median([retained_kib(count) for _ in range(3)])
        row = [f"{count:,}"]
        for values in (declared, by_all, by_plugin):
            total = median(values)
            row += [f"{total / 1000:,.2f}", f"{total / count:,.1f}"]
        row += [f"{kib:,.0f}", f"{kib / count:,.1f}"]
        rows.append(row)
    print(f"# registration cost and memory ({machine()})")
    print("# medians of repeated runs in one process; ms in total and µs per tool")
    headers = [
        "tools",
        "@tool ms",
        "µs/tool",
        "register_all ms",
        "µs/tool",
        "register_plugin ms",
        "µs/tool",
        "retained KiB",
        "KiB/tool",
    ]
    print(table(headers, rows))
    print(
        "# @tool = declaring the tools (what importing the plugin runs); retained = after"
        " declaring and register_all, measured with tracemalloc"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
