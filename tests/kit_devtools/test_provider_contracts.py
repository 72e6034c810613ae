"""The contract suites of context engines, TTS and transcription providers and model
providers on the in-memory host (``kit_devtools.testing.contracts.check_provider``), and
``check --probe`` reporting their violations (HPK621-HPK624). The same directories run on
real hermes in tests/host/test_provider_contracts.py."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from tests.kit_devtools._provider_kinds import engine_dir, model_dir, stt_dir, tts_dir

from kit_devtools.cli import main
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing.contracts import ContractFailure, ContractReport, check_provider

pytestmark = pytest.mark.usefixtures("hermes_imported_for_the_test")


def rules(report: ContractReport) -> list[tuple[str, str]]:
    return [(v.member, v.rule) for v in report.violations]


def test_a_good_provider_of_each_kind_passes_from_its_directory(tmp_path: Path) -> None:
    for kind, directory in [
        ("context-engine", engine_dir(tmp_path, "trim_engine")),
        ("tts", tts_dir(tmp_path, "beep_tts")),
        ("transcription", stt_dir(tmp_path, "echo_stt")),
        ("model-provider", model_dir(tmp_path, "acme_llm")),
    ]:
        report = check_provider(directory, kind=kind)
        assert report.ok, report.violations
        assert report.host == "memory"
        assert report.checked, kind
        report.assert_ok()


def test_the_engine_is_driven_in_hermes_order() -> None:
    from agent.context_engine import ContextEngine

    called: list[str] = []

    class Recording(ContextEngine):
        @property
        def name(self) -> str:
            return "recording"

        def update_model(self, *args: Any, **kwargs: Any) -> None:
            called.append("update_model")
            super().update_model(*args, **kwargs)

        def on_session_start(self, session_id: str, **kwargs: Any) -> None:
            called.append("on_session_start")

        def update_from_response(self, usage: dict[str, Any]) -> None:
            called.append("update_from_response")

        def should_compress(self, prompt_tokens: int | None = None) -> bool:
            called.append("should_compress")
            return True

        def compress(  # pyright: ignore[reportIncompatibleMethodOverride]
            self, messages: list[dict[str, Any]], **kwargs: Any
        ) -> list[dict[str, Any]]:
            called.append(f"compress({sorted(kwargs)})")
            return messages

        def on_session_end(self, session_id: str, messages: list[dict[str, Any]]) -> None:
            called.append("on_session_end")

    assert check_provider(Recording(), kind="context-engine").ok
    assert called == [
        "update_model",
        "on_session_start",
        "update_from_response",
        "should_compress",
        "compress(['current_tokens', 'focus_topic', 'force'])",  # 0.19.0: by signature
        "on_session_end",
    ]


@pytest.mark.parametrize(
    ("release", "model", "compress"),
    [
        ("0.13.0", "api_key, base_url, context_length, model, provider",
         "current_tokens, focus_topic"),
        ("0.16.0", "api_key, api_mode, base_url, context_length, model, provider",
         "current_tokens, focus_topic, force"),
        ("0.22.2", "api_key, api_mode, base_url, context_length, model, provider",
         "current_tokens, focus_topic, force"),
    ],
)  # fmt: skip
def test_the_release_the_host_plays_makes_its_own_calls(
    release: str, model: str, compress: str
) -> None:
    from agent.context_engine import ContextEngine

    seen: dict[str, str] = {}

    class Keywords(ContextEngine):
        name = "keywords"  # pyright: ignore[reportIncompatibleMethodOverride, reportAssignmentType]

        def update_model(self, **kwargs: Any) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
            seen["update_model"] = ", ".join(sorted(kwargs))

        def update_from_response(self, usage: dict[str, Any]) -> None: ...

        def should_compress(self, prompt_tokens: int | None = None) -> bool:
            return True

        def compress(  # pyright: ignore[reportIncompatibleMethodOverride]
            self, messages: list[dict[str, Any]], **kwargs: Any
        ) -> list[dict[str, Any]]:
            seen["compress"] = ", ".join(sorted(kwargs))
            return messages

    report = check_provider(Keywords(), kind="context-engine", host=InMemoryHost(hermes=release))
    assert report.ok, report.violations
    assert seen == {"update_model": model, "compress": compress}


def test_a_broken_engine_fails_with_a_message_for_each_rule(tmp_path: Path) -> None:
    report = check_provider(engine_dir(tmp_path, "summary_engine"), kind="context-engine")
    assert rules(report) == [
        ("get_tool_schemas", "every schema must have a name"),
        ("compress", "must return an OpenAI-format message list"),
        ("handle_tool_call('trim_stats')", "must return a JSON string"),
    ]
    with pytest.raises(ContractFailure) as failure:
        report.assert_ok()
    message = str(failure.value)
    assert "it returned str, not a list: hermes replaces the conversation with it" in message
    assert "(hermes 0.19.0)" in message


def test_an_engine_missing_a_member_or_uncopyable_or_built_in_named_fails() -> None:
    from agent.context_engine import ContextEngine

    class NoCompress(ContextEngine):
        name = "partial"  # pyright: ignore[reportIncompatibleMethodOverride, reportAssignmentType]

        def update_from_response(self, usage: dict[str, Any]) -> None: ...

        def should_compress(self, prompt_tokens: int | None = None) -> bool:
            return False

    missing = check_provider(NoCompress, kind="context-engine")
    assert rules(missing) == [("class", "must implement every abstract member of hermes' base")]
    assert "compress" in missing.violations[0].detail

    class Locked(NoCompress):
        name = "compressor"

        def __init__(self) -> None:
            self.lock = threading.Lock()

        def compress(  # pyright: ignore[reportIncompatibleMethodOverride]
            self, messages: list[dict[str, Any]], **kwargs: Any
        ) -> Any:
            return messages

    locked = check_provider(Locked(), kind="context-engine")
    assert [member for member, _ in rules(locked)] == ["name", "__deepcopy__"]
    assert "'compressor' selects the built-in ContextCompressor" in locked.violations[0].detail


def test_broken_speech_providers_fail_each_with_its_own_message(tmp_path: Path) -> None:
    writes_nothing = check_provider(tts_dir(tmp_path, "bytes_tts"), kind="tts")
    assert rules(writes_nothing) == [("synthesize", "must write the audio to the path it returns")]
    assert "'TTS generation produced no output'" in writes_nothing.violations[0].detail
    failing = check_provider(tts_dir(tmp_path, "failing_tts"), kind="tts")
    assert rules(failing) == [("synthesize", "must write the audio for hermes' text")]
    assert "RuntimeError: no voice server" in failing.violations[0].detail
    offline = check_provider(tts_dir(tmp_path, "offline_tts"), kind="tts")
    assert rules(offline) == [("is_available", "must be True where the suite runs")]
    assert "synthesize" not in offline.checked  # hermes never calls it (hermes-plugin-murf-tts)
    bare = check_provider(stt_dir(tmp_path, "text_stt"), kind="transcription")
    assert rules(bare) == [("transcribe", "must return the envelope dict")]
    raising = check_provider(stt_dir(tmp_path, "raising_stt"), kind="transcription")
    assert rules(raising) == [("transcribe", "must not raise (hermes answers 'STT plugin raised')")]


def test_a_speech_provider_of_a_built_in_or_empty_name_or_strict_signature_fails() -> None:
    from agent.transcription_provider import TranscriptionProvider
    from agent.tts_provider import TTSProvider

    class OpenAI(TTSProvider):
        name = "OpenAI "  # pyright: ignore[reportIncompatibleMethodOverride, reportAssignmentType]

        def synthesize(  # pyright: ignore[reportIncompatibleMethodOverride]
            self, text: str, output_path: str
        ) -> str:
            return output_path

    report = check_provider(OpenAI(), kind="tts")
    assert rules(report) == [("name", "must not be a built-in provider's name")]

    class Strict(OpenAI):
        name = "strict"

    strict = check_provider(Strict(), kind="tts")
    assert rules(strict) == [("synthesize", "must write the audio for hermes' text")]
    assert "unexpected keyword argument" in strict.violations[0].detail
    assert "voice=None" in strict.violations[0].fix

    class Nameless(TranscriptionProvider):
        name = ""  # pyright: ignore[reportIncompatibleMethodOverride, reportAssignmentType]

        def transcribe(self, file_path: str, **extra: Any) -> dict[str, Any]:
            return {"success": True, "transcript": ""}

    assert rules(check_provider(Nameless(), kind="transcription")) == [
        ("name", "must be a non-empty string")
    ]


def test_a_directory_whose_provider_hermes_ignores_fails_with_hermes_warning(
    tmp_path: Path,
) -> None:
    from tests.kit_devtools._provider_kinds import TTS, write

    source = TTS.format(name="edge", body="        return output_path")
    directory = write(tmp_path, "edge_tts", source + "\ndef register(ctx):\n"
                      "    ctx.register_tts_provider(Beep())\n")  # fmt: skip
    report = check_provider(directory, kind="tts")
    assert rules(report) == [("register", "must register a TTS provider hermes keeps")]
    assert "shadows a built-in name" in report.violations[0].detail


def test_a_model_profile_whose_hook_returns_the_wrong_shape_fails(tmp_path: Path) -> None:
    report = check_provider(model_dir(tmp_path, "flat_llm"), kind="model-provider")
    assert rules(report) == [("build_api_kwargs_extras", "must return (extra_body, kwargs)")]
    from providers.base import ProviderProfile

    bad = ProviderProfile(name="", aliases=["acme"])  # pyright: ignore[reportArgumentType]
    assert rules(check_provider(bad, kind="model-provider")) == [
        ("name", "must be a non-empty string"),
        ("aliases", "must be a tuple"),
    ]


def test_no_suite_for_an_unknown_kind_names_the_kinds() -> None:
    with pytest.raises(
        ValueError, match=r"the kinds are: .*context-engine.*model-provider.*transcription, tts"
    ):
        check_provider(object(), kind="speech")


def test_check_probe_reports_each_violation_with_its_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = {
        "HPK621": engine_dir(tmp_path, "summary_engine"),
        "HPK622": tts_dir(tmp_path, "bytes_tts"),
        "HPK623": stt_dir(tmp_path, "text_stt"),
        "HPK624": model_dir(tmp_path, "flat_llm"),
    }
    for rule, directory in cases.items():
        capsys.readouterr()
        assert main(["check", str(directory), "--format", "json"]) == 0, rule  # no probe
        found = json.loads(capsys.readouterr().out)["findings"]
        assert rule not in {f["rule"] for f in found}
        assert main(["check", str(directory), "--probe", "--format", "json"]) == 1, rule
        found = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == rule]
        assert found, rule
        assert all("on hermes 0.19.0" in f["message"] for f in found), found
    good = engine_dir(tmp_path, "trim_engine")
    assert main(["check", str(good), "--probe", "--format", "json"]) == 0


def test_a_release_without_speech_providers_reports_them_absent(tmp_path: Path) -> None:
    for kind, directory in [
        ("tts", tts_dir(tmp_path, "bytes_tts")),
        ("transcription", stt_dir(tmp_path, "text_stt")),
    ]:
        report = check_provider(directory, kind=kind, host=InMemoryHost(hermes="0.14.0"))
        assert report.ok
        assert report.checked == []
        assert "hermes 0.14.0 has no agent." in report.absent
    later = check_provider(
        tts_dir(tmp_path, "bytes_tts"), kind="tts", host=InMemoryHost(hermes="0.15.0")
    )
    assert [v.releases for v in later.violations] == [("0.15.0",)]


def test_a_real_host_takes_the_plugin_directory_not_an_object() -> None:
    from agent.tts_provider import TTSProvider

    from kit_devtools.testing import RealHost

    class Beep(TTSProvider):
        name = "beep"  # pyright: ignore[reportIncompatibleMethodOverride, reportAssignmentType]

        def synthesize(self, text: str, output_path: str, **extra: Any) -> str:
            return output_path

    host = object.__new__(RealHost)  # never started: the target is refused first
    with pytest.raises(TypeError, match="pass the directory whose register"):
        check_provider(Beep(), kind="tts", host=host)
