"""Plugin directories of the provider kinds with a contract suite (context engines, TTS and
transcription providers, model providers), shared by the in-memory tests
(tests/kit_devtools/test_provider_contracts.py) and the real-host ones
(tests/host/test_provider_contracts.py): for each kind a provider written from the docs,
and the typical ways one goes wrong, each breaking one rule."""

from __future__ import annotations

import textwrap
from pathlib import Path

ENGINE = """
import json
from agent.context_engine import ContextEngine

TOOL = {"name": "trim_stats", "description": "How often the engine trimmed.",
        "parameters": {"type": "object", "properties": {}}}


class Trimmer(ContextEngine):
    @property
    def name(self):
        return "trimmer"

    def update_from_response(self, usage):
        self.last_prompt_tokens = usage.get("prompt_tokens", 0)

    def should_compress(self, prompt_tokens=None):
        return bool(self.threshold_tokens) and (prompt_tokens or 0) >= self.threshold_tokens

    def compress(self, messages, current_tokens=None, focus_topic=None, **kwargs):
        self.compression_count += 1
        return messages[:1] + messages[-2:]

    def get_tool_schemas(self):
        return [TOOL]

    def handle_tool_call(self, name, args, **kwargs):
        return json.dumps({"compressions": self.compression_count})
{extra}

def register(ctx):
    ctx.register_context_engine({engine}())
"""
ENGINES = {
    "trim_engine": ("", "Trimmer"),
    "summary_engine": (  # compress returns text, a tool result is a dict, a schema nameless
        "\n\nclass Summary(Trimmer):\n"
        "    def compress(self, messages, current_tokens=None, focus_topic=None, **kwargs):\n"
        "        return 'the conversation so far'\n\n"
        "    def get_tool_schemas(self):\n"
        "        return [TOOL, {'description': 'no name'}]\n\n"
        "    def handle_tool_call(self, name, args, **kwargs):\n"
        "        return {'compressions': 0}\n",
        "Summary",
    ),
}
"""Directory -> (more source, the engine class registered); one engine per hermes."""

TTS = """
from agent.tts_provider import TTSProvider


class Beep(TTSProvider):
    @property
    def name(self):
        return {name!r}

    def synthesize(self, text, output_path, **extra):
{body}
"""
TTS_PROVIDERS = {
    "beep_tts": ("beep", "        with open(output_path, 'wb') as file:\n"
                 "            file.write(b'ID3' + text.encode())\n"
                 "        return output_path"),
    "bytes_tts": ("bytes-beep", "        return text.encode()"),  # returns bytes, writes nothing
    "failing_tts": ("failing-beep", "        raise RuntimeError('no voice server')"),
    "offline_tts": ("offline-beep", "        raise ValueError('BEEP_API_KEY is not set')\n\n"
                    "    def is_available(self):  # no key: hermes offers no text_to_speech\n"
                    "        return False"),
}  # fmt: skip

STT = """
from agent.transcription_provider import TranscriptionProvider


class Echo(TranscriptionProvider):
    @property
    def name(self):
        return {name!r}

    def transcribe(self, file_path, **extra):
{body}
"""
STT_PROVIDERS = {
    "echo_stt": ("echo", "        return {'success': True, 'transcript': 'hello'}"),
    "text_stt": ("text-echo", "        return 'hello'"),  # a bare str, not the envelope
    "raising_stt": ("raising-echo", "        raise RuntimeError('no model loaded')"),
}

MODEL = """
from providers import register_provider
from providers.base import ProviderProfile


class Acme(ProviderProfile):
    def build_api_kwargs_extras(self, *, reasoning_config=None, **context):
{body}


register_provider(Acme(name={name!r}, base_url="https://llm.acme.example/v1"))
"""
MODELS = {
    "acme_llm": ("acme-contract", "        return {}, {}"),
    "flat_llm": ("flat-contract", "        return {'reasoning': reasoning_config}"),  # no pair
}


def write(root: Path, name: str, source: str, kind: str = "") -> Path:
    directory = root / name
    directory.mkdir(parents=True, exist_ok=True)
    manifest = f"name: {name}\nversion: 0.1.0\n" + (f"kind: {kind}\n" if kind else "")
    (directory / "plugin.yaml").write_text(manifest, encoding="utf-8")
    (directory / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return directory


def engine_source(name: str) -> str:
    extra, engine = ENGINES[name]
    return ENGINE.replace("{extra}", extra).replace("{engine}", engine)


def tts_source(name: str) -> str:
    provider, body = TTS_PROVIDERS[name]
    register = "\n\ndef register(ctx):\n    ctx.register_tts_provider(Beep())\n"
    return TTS.format(name=provider, body=body) + register


def stt_source(name: str) -> str:
    provider, body = STT_PROVIDERS[name]
    register = "\n\ndef register(ctx):\n    ctx.register_transcription_provider(Echo())\n"
    return STT.format(name=provider, body=body) + register


def model_source(name: str) -> str:
    provider, body = MODELS[name]
    return MODEL.format(name=provider, body=body)


def engine_dir(root: Path, name: str) -> Path:
    return write(root, name, engine_source(name))


def tts_dir(root: Path, name: str) -> Path:
    return write(root, name, tts_source(name))


def stt_dir(root: Path, name: str) -> Path:
    return write(root, name, stt_source(name))


def model_dir(root: Path, name: str) -> Path:
    return write(root, name, model_source(name), kind="model-provider")
