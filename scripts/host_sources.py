"""Print, as one JSON object, where the hermes-agent installed beside this interpreter
defines each name the kit cites: ``{"name": "path Lstart-end", ...}``, the path relative
to the folder hermes is installed in; a name this release lacks is left out.

Run it with the interpreter of an environment that has hermes-agent installed (as
``scripts/host_facts.py``), the names given as arguments. ``scripts/host_model.py`` runs
it on every release of the model and writes what it prints into the page
``docs/hermes-sources.md``, so the kit's docstrings and rule texts name hermes code
(``hermes_cli.plugins.PluginManager._load_plugin``) and never a line number that the
next release moves.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import logging
import os
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType


CITED: tuple[str, ...] = (
    "agent.agent_init.init_agent",
    "agent.agent_runtime_helpers",
    "agent.tool_executor.execute_tool_calls_sequential",
    "agent.turn_finalizer.finalize_turn",
    "gateway.config._apply_env_overrides",
    "gateway.platforms.base.BasePlatformAdapter.extract_media",
    "gateway.platforms.base.MEDIA_DELIVERY_EXTS",
    "gateway.response_filters.LIVE_GATEWAY_SILENT_MARKERS",
    "gateway.response_filters.SILENT_REPLY_TOKEN",
    "gateway.run.GatewayRunner._set_session_env",
    "gateway.run_turn",
    "gateway.session_context._SESSION_ID",
    "gateway.session_context.set_current_session_id",
    "hermes_cli.plugin_catalog.CATALOG_CATEGORIES",
    "hermes_cli.plugins.PluginContext.get_config",
    "hermes_cli.plugins.PluginContext.register_tool",
    "hermes_cli.plugins.PluginManager._scan_directory",
    "hermes_cli.plugins._NS_PARENT",
    "hermes_cli.plugins._VALID_PLUGIN_KINDS",
    "hermes_cli.plugins.get_pre_tool_call_block_message",
    "hermes_cli.plugins.resolve_pre_tool_block",
    "hermes_cli.plugins_manifest.validate_config_schema",
    "hermes_cli.plugins_state._nested_plugin_value",
    "hermes_cli.plugins_state._plugin_relative_segments",
    "model_tools._LEGACY_TOOL_ALIASES",
    "model_tools._pre_dispatch_guards",
    "model_tools._tool_result_observer_fields",
    "model_tools.handle_function_call",
    "run_agent.AIAgent._invoke_tool",
    "tools.send_message_tool._TELEGRAM_TOPIC_TARGET_RE",
    "tools.skills_tool._serve_plugin_skill",
    "tools.todo_tool.TODO_LEGACY_ALIASES",
)
"""The hermes code the kit's docstrings, comments and rule texts name (``module.qualname``):
docs/hermes-sources.md gives where each release defines each."""


def _resolve(name: str) -> tuple[object, object, str] | None:
    """The value ``name`` is, the module or class that holds it, and its last part."""
    parts = name.split(".")
    holder: object = None
    for cut in range(len(parts), 0, -1):  # the longest importable module prefix
        try:
            holder = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        break
    else:
        return None
    if not rest:
        return holder, None, parts[-1]
    for part in rest[:-1]:
        holder = inspect.getattr_static(holder, part, None)
        if holder is None:
            return None
    value = inspect.getattr_static(holder, rest[-1], _MISSING)
    return (None if value is _MISSING else (value, holder, rest[-1]))


_MISSING = object()


def _assignment(tree: ast.AST, target: str) -> ast.stmt | None:
    """The statement of ``tree``'s body that binds ``target``."""
    for statement in getattr(tree, "body", ()):
        names: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            names = statement.targets
        elif isinstance(statement, ast.AnnAssign):
            names = [statement.target]
        if any(isinstance(n, ast.Name) and n.id == target for n in names):
            return statement
    return None


def _span(name: str, root: Path) -> str | None:
    found = _resolve(name)
    if found is None:
        return None
    value, holder, last = found
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property) and value.fget is not None:
        value = value.fget
    if inspect.isfunction(value) or inspect.isclass(value) or isinstance(value, ModuleType):
        value = inspect.unwrap(value)  # type: ignore[arg-type]
        path = inspect.getsourcefile(value)  # type: ignore[arg-type]
        lines, start = inspect.getsourcelines(value)  # type: ignore[arg-type]
        start = max(start, 1)
        end = start + len(lines) - 1
    else:  # a constant: its assignment in the module or class that holds it
        path = inspect.getsourcefile(holder)  # type: ignore[arg-type]
        if path is None:
            return None
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        if inspect.isclass(holder):
            owner = next(
                (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
                 and n.name == holder.__name__),
                None,
            )  # fmt: skip
            tree = owner or tree
        statement = _assignment(tree, last)
        if statement is None:
            return None
        start, end = statement.lineno, statement.end_lineno or statement.lineno
    if path is None:
        return None
    relative = Path(path).resolve().relative_to(root).as_posix()
    return f"{relative} L{start}" + (f"-{end}" if end != start else "")


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="hermes-sources-") as home:
        os.environ["HERMES_HOME"] = home
        logging.disable(logging.CRITICAL)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = Path(importlib.import_module("hermes_cli").__file__ or "").parents[1]
            spans = {name: _span(name, root.resolve()) for name in names}
    sys.stdout.write(json.dumps({k: v for k, v in spans.items() if v}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
