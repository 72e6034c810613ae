"""The memory providers of the contract suite's tests: the one docs/providers.md shows, and
one variant of it for each way a provider breaks its contract, shared by the in-memory
tests (tests/kit_devtools/test_memory_contract.py) and the real-host ones
(tests/host/test_memory_contract.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(
    r"<!-- docs-test: provider recall __init__\.py -->\n```python\n(.*?)\n```", re.DOTALL
)
DOCS_PROVIDER: Final = BLOCK.findall((ROOT / "docs" / "providers.md").read_text("utf-8"))[0] + "\n"
"""The provider of docs/providers.md, as the page shows it."""


def _variant(body: str) -> str:
    """The docs' provider, with a subclass of it registered instead."""
    return (
        f"{DOCS_PROVIDER}\n\nclass Broken(Recall):\n{body}\n\ndef register(ctx):\n"
        "    ctx.register_memory_provider(Broken())\n"
    )


BROKEN: Final = {
    "blocking_sync": _variant(
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self._ended = threading.Event()\n\n"
        "    def sync_turn(self, user_content, assistant_content, **kwargs):\n"
        "        self._ended.wait(5)  # a backend that answers at session end, or 5 s on\n\n"
        "    def on_session_end(self, messages):\n"
        "        self._ended.set()\n"
        "        super().on_session_end(messages)\n\n"
        "    def shutdown(self):\n"
        "        self._ended.set()\n"
        "        super().shutdown()\n"
    ),
    "dict_result": _variant(
        "    def handle_tool_call(self, tool_name, args, **kwargs):\n"
        "        if tool_name == 'recall_search':\n"
        "            return {'notes': []}\n"
        "        return super().handle_tool_call(tool_name, args, **kwargs)\n"
    ),
    "unnamed_schema": _variant(
        "    def get_tool_schemas(self):\n"
        "        return [SEARCH, {'description': 'Forget.', 'parameters': {'type': 'object'}}]\n"
    ),
    "prefetch_raises": _variant(
        "    def prefetch(self, query, *, session_id=''):\n"
        "        raise ConnectionError('the backend is down')\n"
    ),
    "missing_member": DOCS_PROVIDER.replace(
        "    def get_tool_schemas(self):\n        return [SEARCH]\n", ""
    ),
}
"""Provider folder -> its ``__init__.py``."""

RECORDING: Final = _variant(
    "    def initialize(self, session_id, **kwargs):\n"
    "        super().initialize(session_id, **kwargs)\n"
    "        record = Path(kwargs['hermes_home']) / 'initialized.json'\n"
    "        record.write_text(json.dumps(sorted(kwargs)))\n"
)
"""The docs' provider, writing the keywords ``initialize`` got to the hermes home."""

EXPECTED: Final = {
    "blocking_sync": ("sync_turn", "must return quickly", "still running 1 s after"),
    "dict_result": ("handle_tool_call", "must return a str (a JSON string)", "returned a dict"),
    "unnamed_schema": ("get_tool_schemas", "each schema must have a name", "'Forget.'"),
    "prefetch_raises": ("prefetch", "must not raise", "ConnectionError: the backend is down"),
    "missing_member": (
        "get_tool_schemas",
        "MemoryProvider declares it abstract: hermes calls it",
        "abstract method",
    ),
}
"""Provider folder -> the one violation: its member, its rule, and words of its detail."""
TURN_BOUND: Final = 1.0
"""The bound the tests give the blocking provider (which sleeps 5 s)."""


def provider_dir(root: Path, name: str) -> Path:
    """``root/<name>``: the docs' provider (``recall``) or one of :data:`BROKEN`, with the
    plugin.yaml a published provider has (no ``kind``)."""
    directory = root / name
    directory.mkdir(parents=True)
    source = {"recall": DOCS_PROVIDER, "recording": RECORDING}.get(name) or BROKEN[name]
    (directory / "__init__.py").write_text(source, encoding="utf-8")
    (directory / "plugin.yaml").write_text(f"name: {name}\nversion: 0.1.0\n", encoding="utf-8")
    return directory
