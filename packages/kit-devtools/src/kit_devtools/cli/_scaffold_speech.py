"""The ``tts`` and ``transcription`` projects of ``hermes-plugin-kit new``: a general plugin
whose ``register`` gives hermes a subclass of its own ``agent.tts_provider.TTSProvider``
(``ctx.register_tts_provider``) or ``agent.transcription_provider.TranscriptionProvider``
(``ctx.register_transcription_provider``), with tests running the kit's suite of the kind.

Both bases arrive in hermes 0.15.0, so the projects' ``requires_hermes`` is ``>=0.15.0``;
``tts.provider`` / ``stt.provider: <name>`` in ``config.yaml`` selects the provider. The
providers need no backend: the TTS one writes a WAV of silence as long as the text would
take to say, the transcription one reports the length of a WAV; each is where the author's
backend goes.
"""

from __future__ import annotations

from string import Template
from typing import Final

from kit_core.hermes import first_version
from kit_devtools.cli._scaffold_kinds import GENERAL_PLUGIN_ENTRY_POINT, ProjectKind, provider_kind

SPEECH_BASES: Final = (
    "agent.tts_provider.TTSProvider",
    "agent.transcription_provider.TranscriptionProvider",
)
FLOOR: Final = first_version(lambda r: all(base in r.functions for base in SPEECH_BASES))
"""The first release with the speech bases (and their registrars)."""

PLUGIN_YAML: Final = Template("""\
name: $name
version: 0.1.0
description: A hermes-agent $what provider built with hermes-plugin-kit
kind: standalone
# the speech provider bases arrive in hermes $floor
requires_hermes: ">=$floor"
# manifest v1: the installer of the older hermes releases refuses manifest_version 2
manifest_version: 1
""")

TTS_INIT: Final = Template('''\
"""$name: a hermes-agent text-to-speech provider (a WAV of silence: put your backend in
``synthesize``)."""

from __future__ import annotations

import wave
from typing import Any

from agent.tts_provider import TTSProvider

RATE = 16000
"""Samples per second of the WAV written."""


class $provider(TTSProvider):
    @property
    def name(self) -> str:
        return "$package"

    def synthesize(self, text: str, output_path: str, **extra: Any) -> str:
        # **extra: hermes passes voice=, model=, speed=, format=
        seconds = max(len(text.split()) * 0.4, 0.5)  # about as long as saying it
        with wave.open(output_path, "wb") as audio:
            audio.setnchannels(1)
            audio.setsampwidth(2)
            audio.setframerate(RATE)
            audio.writeframes(b"\\x00\\x00" * int(RATE * seconds))
        return output_path  # hermes reads the file at output_path


def register(ctx: Any) -> None:
    """Called by hermes with its PluginContext."""
    ctx.register_tts_provider($provider())
''')

TTS_TEST: Final = Template('''\
"""Tests of $name: the kit's TTS contract suite on each host ``any_host`` gives (the
in-memory host and, with ``--hermes``, real releases: ``pytest --hermes $floor,$newest``),
and what it writes."""

import wave
from pathlib import Path

from kit_devtools.testing.contracts import check_provider

from $package import RATE, $provider

PLUGIN = Path(__file__).resolve().parents[1] / "src" / "$package"


def test_the_provider_keeps_the_tts_contract(any_host):
    check_provider(PLUGIN, kind="tts", host=any_host).assert_ok()


def test_it_writes_a_wav_as_long_as_the_text(tmp_path):
    out = tmp_path / "speech.wav"
    assert $provider().synthesize("one two three four five", str(out)) == str(out)
    with wave.open(str(out)) as audio:
        assert audio.getnframes() == 2 * RATE
''')

STT_INIT: Final = Template('''\
"""$name: a hermes-agent speech-to-text provider (it reports a WAV's length: put your
backend in ``transcribe``)."""

from __future__ import annotations

import wave
from typing import Any

from agent.transcription_provider import TranscriptionProvider


class $provider(TranscriptionProvider):
    @property
    def name(self) -> str:
        return "$package"

    def transcribe(self, file_path: str, **extra: Any) -> dict[str, Any]:
        # **extra: hermes passes model=, language= (and prompt= where the release has one)
        try:
            with wave.open(file_path) as audio:
                seconds = audio.getnframes() / audio.getframerate()
        except (OSError, EOFError, wave.Error) as exc:
            return {"success": False, "transcript": "", "error": f"not a WAV file: {exc}"}
        return {"success": True, "transcript": f"({seconds:.1f} s of audio)", "provider": self.name}


def register(ctx: Any) -> None:
    """Called by hermes with its PluginContext."""
    ctx.register_transcription_provider($provider())
''')

STT_TEST: Final = Template('''\
"""Tests of $name: the kit's transcription contract suite on each host ``any_host`` gives
(the in-memory host and, with ``--hermes``, real releases: ``pytest --hermes
$floor,$newest``), and what it answers."""

import wave
from pathlib import Path

from kit_devtools.testing.contracts import check_provider

from $package import $provider

PLUGIN = Path(__file__).resolve().parents[1] / "src" / "$package"


def test_the_provider_keeps_the_transcription_contract(any_host):
    check_provider(PLUGIN, kind="transcription", host=any_host).assert_ok()


def test_it_answers_with_hermes_envelope(tmp_path):
    clip = tmp_path / "clip.wav"
    with wave.open(str(clip), "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(8000)
        audio.writeframes(b"\\x00\\x00" * 12000)
    answer = $provider().transcribe(str(clip))
    assert answer == {"success": True, "transcript": "(1.5 s of audio)", "provider": "$package"}
    assert $provider().transcribe(str(tmp_path / "none.wav"))["success"] is False
''')

README: Final = Template("""\
# $name

A hermes-agent $what provider built with hermes-plugin-kit: `src/$package` subclasses
hermes' own `$base` (hermes $floor and later; the dev group installs $hermes_requirement
for it).

$provider_checks

## Into hermes

The provider is a general plugin: install the project into the Python environment hermes
runs in (its `hermes_agent.plugins` entry point), or copy `src/$package` into
`~/.hermes/plugins/$package`; enable it, and select the provider:

    uv pip install --python "$$(head -1 "$$(command -v hermes)" | cut -c3-)" .
    hermes plugins enable $name
    hermes config set $config $package

It needs nothing but hermes itself, so the copy is enough.
""")


def _speech(what: str, base: str, config: str, init: Template, test: Template) -> ProjectKind:
    return provider_kind(
        f"A hermes-agent {what} provider.",
        GENERAL_PLUGIN_ENTRY_POINT,
        (README, PLUGIN_YAML, init, test),
        words={"what": what, "base": base, "config": config},
        floor=FLOOR,
    )


TTS: Final = _speech(
    "text-to-speech", "agent.tts_provider.TTSProvider", "tts.provider", TTS_INIT, TTS_TEST
)
TRANSCRIPTION: Final = _speech(
    "speech-to-text",
    "agent.transcription_provider.TranscriptionProvider",
    "stt.provider",
    STT_INIT,
    STT_TEST,
)
