"""kit-media's public surface and its promises about imports and module size."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import kit_media

SOURCE = Path(kit_media.__file__).parent
HOST_PACKAGES = {"hermes_cli", "tools", "gateway", "model_tools", "agent", "telegram", "plugins"}


HOOKS = ["MEDIA_DELIVERY_HOOKS", "clear_media_delivery_state", "transform_media_delivery_output"]
"""Public, imported by name, and out of ``__all__``: a plugin module that holds them
registers them (``register_plugin`` of a module), so ``import *`` must not bring them."""


def test_the_public_names_are_exactly_these() -> None:
    assert kit_media.__all__ == [
        "MediaDeliveryResult",
        "MediaError",
        "MediaPayload",
        "MediaType",
        "ResolvedDeliveryTarget",
        "deliver_media",
        "invoke_host_tool",
        "resolve_delivery_target",
    ]
    for name in [*kit_media.__all__, *HOOKS]:
        assert getattr(kit_media, name) is not None


def test_importing_the_kit_imports_neither_hermes_nor_telegram() -> None:
    code = (
        "import json, sys, kit_media;"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert HOST_PACKAGES.isdisjoint(json.loads(out))


def test_host_modules_are_imported_only_inside_functions() -> None:
    for path in sorted(SOURCE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                module = node.module if isinstance(node, ast.ImportFrom) else None
                tops = {n.split(".")[0] for n in [*names, module or ""] if n}
                assert HOST_PACKAGES.isdisjoint(tops), f"{path.name} imports {tops} at import time"


def test_modules_stay_small() -> None:
    for path in SOURCE.glob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 400, f"{path.name} has {lines} lines"
