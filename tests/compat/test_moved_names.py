"""The kit uses none of the names upstream hermes moved or deleted (its compat layer).

Upstream's ``hermes_cli/plugin_compat.py`` (00067189dfecf833d4d009c2dd977ae85cf800e0,
``scan_source``) finds, in a plugin's source, ``from F import n``, ``import F`` (or
``import F as a``) then ``F.n`` / ``a.n``, a dotted ``F.n`` and a string ``"F.n"``, for
every moved name ``n`` of a facade module ``F`` in ``compat_manifest.json``; after
2026-09-14 it skips such a plugin. A plugin that vendors or ships the kit would be
skipped for the kit's own source, so the kit's packages, examples and tests are scanned
here with the same rules, plus the two ways the kit reaches hermes besides: ``from F
import sub`` then ``sub.n``, and ``getattr(module, "n")`` in a file that names ``F``.
The moved names and the scan are in ``kit_devtools/cli/_moved_names.py`` (copied from the
manifest, cited there), which ``hermes-plugin-kit compat`` runs on a plugin's source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit_devtools.cli._moved_names import COPIED, MOVED, scan

ROOT = Path(__file__).resolve().parents[2]
HERMES_TOPS = frozenset({"hermes_cli", "gateway", "tools", "model_tools", "toolsets", "agent"})


def hermes_modules(source: str) -> set[str]:
    """The hermes modules a file imports or names in a string."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
    return {
        name
        for name in found
        if name.split(".")[0] in HERMES_TOPS and all(p.isidentifier() for p in name.split("."))
    }


def kit_sources() -> Iterator[Path]:
    for pattern in ("packages/*/src/**/*.py", "examples/**/*.py", "tests/**/*.py"):
        yield from sorted(ROOT.glob(pattern))


def test_no_kit_source_uses_a_moved_name() -> None:
    found = {
        str(path.relative_to(ROOT)): hits
        for path in kit_sources()
        if (hits := scan(path.read_text(encoding="utf-8"), MOVED))
    }
    assert found == {}


def test_every_hermes_module_the_runtime_names_is_copied() -> None:
    named: set[str] = set()
    for path in sorted(ROOT.glob("packages/*/src/**/*.py")):
        named |= hermes_modules(path.read_text(encoding="utf-8"))
    # a name under a copied module is that module's attribute, not a module of its own
    modules = {n for n in named if not any(n.startswith(f"{m}.") for m in COPIED)}
    assert modules - COPIED == set()


def test_the_provider_facades_are_copied_from_the_manifest() -> None:
    """The eight ``agent.*`` facades the kit names, as ``compat_manifest.json`` @
    0f9c44d87902ab14309b47ece66ac95521761d8b lists them (characters 16,000-32,000 of the
    293,700-character file, entries sorted by facade), e.g. ``{"facade":
    "agent.web_search_provider", "name": "Optional", "kind": "import", "target":
    "typing"}``; an empty tuple where the sorted neighbours leave no room for the facade
    (``agent.context_compressor`` is followed by ``agent.conversation_compression``,
    ``agent.pet.generate.atlas`` by ``agent.prompt_builder``, ``agent.secret_sources._cache``
    by ``agent.secret_sources.bitwarden``, ``agent.transports.codex_app_server`` by
    ``agent.tts_registry``)."""
    copied = {facade: MOVED[facade] for facade in MOVED if facade.startswith("agent.")}
    assert copied == {
        "agent.browser_provider": ("Any", "Optional"),
        "agent.context_engine": (),
        "agent.image_gen_provider": ("base64", "datetime", "uuid"),
        "agent.plugin_llm": (),
        "agent.secret_sources.base": (),
        "agent.transcription_provider": ("List", "logger", "logging"),
        "agent.tts_provider": (),
        "agent.video_gen_provider": ("base64", "datetime", "uuid"),
        "agent.web_search_provider": ("Optional",),
    }


SILENT = ".".join(("gateway", "response_filters", "SILENT_REPLY_TOKEN"))


@pytest.mark.parametrize(
    "source",
    [
        "from gateway.response_filters import SILENT_REPLY_TOKEN",
        "import gateway.response_filters\ngateway.response_filters.SILENT_REPLY_TOKEN",
        "import gateway.response_filters as rf\nrf.SILENT_REPLY_TOKEN",
        "from gateway import response_filters\nresponse_filters.SILENT_REPLY_TOKEN",
        "from gateway import response_filters as rf\nrf.SILENT_REPLY_TOKEN",
        f"patch({SILENT!r})",
        "m = import_module('gateway.response_filters')\ngetattr(m, 'SILENT_REPLY_TOKEN')",
    ],
)
def test_scan_finds_each_form_of_use(source: str) -> None:
    assert scan(source, MOVED) == [SILENT]


def test_scan_leaves_names_that_did_not_move() -> None:
    source = (
        "from gateway.response_filters import is_intentional_silence_response\n"
        "from hermes_cli import plugins\nplugins.resolve_pre_tool_block\n"
        "getattr(plugins, 'invoke_hook')\nimport json\njson.dumps\n"
    )
    assert scan(source, MOVED) == []


def test_the_copied_list_has_the_names_the_reference_names() -> None:
    # hermes-upstream-0.21 reference, section 1.1: the kit-relevant moved or deleted names
    assert "SILENT_REPLY_TOKEN" in MOVED["gateway.response_filters"]
    assert "apply_api_request_middleware" in MOVED["hermes_cli.middleware"]
    for kept in ("VALID_HOOKS", "resolve_pre_tool_block", "has_hook", "invoke_hook"):
        assert kept not in MOVED["hermes_cli.plugins"]
