"""The contract suites of context engines, TTS and transcription providers and model
providers on the real hermes of this environment (marked ``host``: every registry release),
against the in-memory host's verdict on the same directory.

On a :class:`RealHost` the suite's driver runs in hermes' worker on the provider hermes' own
registry holds, through the release's own calls (its TTS and transcription dispatchers,
its ``_supported_compression_kwargs``, its ``providers/`` import): the verdict is the
release's. Every plugin but the second context engine shares one hermes start (hermes
keeps one context engine per process).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.kit_devtools._provider_kinds import (
    ENGINES,
    MODELS,
    STT_PROVIDERS,
    TTS_PROVIDERS,
    engine_dir,
    model_dir,
    stt_dir,
    tts_dir,
)

from kit_core.hermes import installed_release, newest_registry_release
from kit_devtools.testing import InMemoryHost, RealHost
from kit_devtools.testing.contracts import ContractReport, check_provider

pytestmark = pytest.mark.host

RELEASE = installed_release() or newest_registry_release()
CASES = {
    **dict.fromkeys(ENGINES, ("context-engine", engine_dir)),
    **dict.fromkeys(TTS_PROVIDERS, ("tts", tts_dir)),
    **dict.fromkeys(STT_PROVIDERS, ("transcription", stt_dir)),
    **dict.fromkeys(MODELS, ("model-provider", model_dir)),
}
BROKEN = {
    "summary_engine": ["get_tool_schemas", "compress", "handle_tool_call('trim_stats')"],
    "bytes_tts": ["synthesize"],
    "failing_tts": ["synthesize"],
    "offline_tts": ["is_available"],
    "text_stt": ["transcribe"],
    "raising_stt": ["transcribe"],
    "flat_llm": ["build_api_kwargs_extras"],
}
"""Directory -> the members whose rules it breaks (the others break none)."""
SPEECH = {"tts": "register_tts_provider", "transcription": "register_transcription_provider"}
ALONE = "summary_engine"


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, RealHost, RealHost]]:
    root = tmp_path_factory.mktemp("provider-contracts")
    directories = {name: make(root, name) for name, (_, make) in CASES.items()}
    with RealHost() as shared, RealHost() as alone:
        shared.load_all([d for name, d in directories.items() if name != ALONE])
        alone.load_all([directories[ALONE]])
        yield root, shared, alone


def members(report: ContractReport) -> list[str]:
    return [v.member for v in report.violations]


@pytest.mark.parametrize("name", sorted(CASES))
def test_hermes_drives_the_provider_as_the_in_memory_host_does(
    name: str, hosts: tuple[Path, RealHost, RealHost]
) -> None:
    root, shared, alone = hosts
    kind, _ = CASES[name]
    real = check_provider(root / name, kind=kind, host=alone if name == ALONE else shared)
    memory = check_provider(root / name, kind=kind, host=InMemoryHost())
    assert real.host == f"hermes {RELEASE.version}"
    if kind in SPEECH and not RELEASE.offers(SPEECH[kind]):  # 0.13.0, 0.14.0
        assert real.absent, real
        assert memory.absent, memory
        assert real.ok
        assert memory.ok
        return
    assert not real.absent, real.absent
    assert members(real) == BROKEN.get(name, []), real.violations
    assert [(v.member, v.rule) for v in real.violations] == [
        (v.member, v.rule) for v in memory.violations
    ]
    assert all(v.releases == (RELEASE.version,) for v in real.violations)
    assert real.checked, real
