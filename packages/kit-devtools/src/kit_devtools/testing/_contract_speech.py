"""The speech contracts: TTS providers (``agent.tts_provider.TTSProvider``) and
transcription providers (``agent.transcription_provider.TranscriptionProvider``), driven as
hermes' ``text_to_speech`` and ``transcribe_audio`` tools drive the one ``tts.provider`` /
``stt.provider`` names.

Both kinds arrive in 0.15.0 (0.13.0 and 0.14.0 have neither base, nor the registrars). On
every release the abstract members are ``name`` and ``synthesize`` / ``transcribe`` (from
0.21.3 ``name`` comes from ``agent.provider_base.CatalogProviderBase``). The registry
(``agent.tts_registry.register_provider``, ``agent.transcription_registry.register_provider``;
``agent.provider_registry.ProviderRegistry`` from 0.21.3) raises ValueError for a name that
is no non-empty string, and ignores with a WARNING a name among its built-ins
(``_BUILTIN_NAMES``). Then the tool's dispatcher:

* TTS (``tools.tts_tool._dispatch_to_plugin_provider``; ``tools/tts_tool_plugins.py`` from
  0.21.3): ``synthesize(text, output_path, voice=, model=, speed=, format=)``, uncaught
  (``text_to_speech_tool`` turns a raise into ``TTS generation failed``); a non-str return
  means ``output_path``; the file must then exist and be non-empty (``TTS generation
  produced no output``). ``voice_compatible`` is read for voice-bubble delivery.
* transcription (``tools.transcription_tools._dispatch_to_plugin_provider``;
  ``tools/transcription_command.py`` from 0.21.3): ``is_available()`` (a raise or False
  gives the "not available" envelope), then ``transcribe(file_path, model=, language=)``
  (``prompt=`` too when set, from 0.20.1); a raise or a non-dict result becomes hermes'
  error envelope. The caller reads ``success`` and ``transcript`` (``error`` on failure).
"""

from __future__ import annotations

import os
import tempfile
import wave
from collections.abc import Callable
from typing import Any, Final, cast

from kit_devtools.testing._provider_drive import (
    Drive,
    add_suite,
    attribute,
    base_of,
    function,
    plugin_owned,
    raised_type_error,
)

BASES: Final = {
    "tts": ("agent.tts_provider", "TTSProvider", "agent.tts_registry"),
    "transcription": (
        "agent.transcription_provider",
        "TranscriptionProvider",
        "agent.transcription_registry",
    ),
}
"""Kind -> the module and class of hermes' base, and its registry's module."""
DISPATCHERS: Final = {
    "tts": ("tools.tts_tool_plugins", "tools.tts_tool"),
    "transcription": ("tools.transcription_command", "tools.transcription_tools"),
}
"""Kind -> the modules holding ``_dispatch_to_plugin_provider``, newest first."""
TEXT: Final = "Hello from the hermes plugin kit."

Dispatch = Callable[[Any, str, str], Any]
"""``dispatch(provider, key, path)``: the tool's call of the provider."""


def drive_kind(
    kind: str, provider: Any, builtins: frozenset[str], dispatch: Dispatch | None
) -> dict[str, Any]:
    done = Drive()
    module, base_name, _ = BASES[kind]
    base = base_of(provider, module, base_name)
    if isinstance(base, type) and not isinstance(provider, base):
        done.broke(
            "class",
            f"must inherit {module}.{base_name}",
            f"{type(provider).__name__} does not: the registrar ignores it with a WARNING",
            f"subclass hermes' {base_name}",
        )
        return done.result()
    key = _name(done, provider, builtins)
    _catalog(done, provider)
    if key is not None and _available(done, provider, kind):
        with tempfile.TemporaryDirectory(prefix="hpk-speech-") as folder:
            if kind == "tts":
                _synthesize(done, provider, key, folder, dispatch)
            else:
                _transcribe(done, provider, key, folder, dispatch)
    return done.result()


def _name(done: Drive, provider: Any, builtins: frozenset[str]) -> str | None:
    """The registry's key for the provider; None when the registry refuses it."""
    name = done.call("name", lambda: provider.name, rule="must be readable", fix="return a str")
    why = "the registry raises ValueError and the plugin does not load"
    if done.blank("name", name, why, "return a short lowercase identifier"):
        return None
    key = name.strip().lower()
    if key in builtins:
        done.broke(
            "name",
            "must not be a built-in provider's name",
            f"{key!r} is built in: the registry ignores the provider with a WARNING",
            f"pick a name other than {', '.join(sorted(builtins))}",
        )
        return None
    return key


def _catalog(done: Drive, provider: Any) -> None:
    """The members hermes' pickers and setup read: they must not raise, and return what
    the base declares."""
    shapes: dict[str, tuple[type, str]] = {
        "is_available": (bool, "True or False"),
        "display_name": (str, "a label"),
        "voice_compatible": (bool, "True or False"),
        "list_voices": (list, "a list of {'id': ...} dicts"),
        "list_models": (list, "a list of {'id': ...} dicts"),
        "get_setup_schema": (dict, "{'name', 'badge', 'tag', 'env_vars'}"),
    }
    cls: type[Any] = type(cast("object", provider))
    for member, (shape, what) in shapes.items():
        if not hasattr(cls, member):
            continue
        value = done.call(
            member,
            lambda m=member: _read(provider, m),
            rule="must not raise (hermes' pickers and setup read it)",
            fix=f"return {what}; report a missing key or SDK by returning, not raising",
        )
        if value is not None and not isinstance(value, shape):
            done.broke(member, f"must return {what}", f"it returned {type(value).__name__}", what)


UNAVAILABLE: Final = {
    "tts": "hermes offers the model no text_to_speech tool (its check_fn,"
    " check_tts_requirements, asks the selected provider's is_available) and never"
    " calls synthesize",
    "transcription": "hermes answers 'not available' and never calls transcribe",
}
"""Per kind: what hermes does with a provider whose ``is_available()`` is False."""


def _available(done: Drive, provider: Any, kind: str) -> bool:
    """Whether hermes would go on to call the provider: ``is_available()`` True (a raise is
    reported with the catalog, and hermes treats it as unavailable)."""
    try:
        available = _read(provider, "is_available") if hasattr(provider, "is_available") else True
    except Exception:
        return False
    if not available:
        done.broke(
            "is_available",
            "must be True where the suite runs",
            f"it returned {available!r}: {UNAVAILABLE[kind]}",
            "give the test environment the provider's credentials or SDK",
        )
    return bool(available)


def _read(provider: Any, member: str) -> Any:
    value = getattr(provider, member)
    return value() if callable(value) else value


def _synthesize(
    done: Drive, provider: Any, key: str, folder: str, dispatch: Dispatch | None
) -> None:
    output = os.path.join(folder, "speech.mp3")
    done.checked.append("synthesize")
    try:
        written = (dispatch or _kit_tts)(provider, key, output)
    except Exception as exc:
        fix = (
            "keep synthesize(text, output_path, *, voice=None, model=None, speed=None,"
            " format='mp3', **extra)"
        )
        if not raised_type_error(exc):
            fix = "write the audio for a plain sentence; raise only on a real failure"
        done.broke(
            "synthesize",
            "must write the audio for hermes' text",
            f"raised {type(exc).__name__}: {exc} (text_to_speech answers 'TTS generation failed')",
            fix,
        )
        return
    path = written if isinstance(written, str) and written else output
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        done.broke(
            "synthesize",
            "must write the audio to the path it returns",
            f"{path} is missing or empty: text_to_speech answers 'TTS generation produced"
            " no output'",
            "write the bytes to output_path and return output_path",
        )


def _kit_tts(provider: Any, key: str, output: str) -> Any:
    """0.19.0's call (``tools.tts_tool._dispatch_to_plugin_provider``), no ``tts:`` settings."""
    return provider.synthesize(TEXT, output, voice=None, model=None, speed=None, format="mp3")


def _transcribe(
    done: Drive, provider: Any, key: str, folder: str, dispatch: Dispatch | None
) -> None:
    audio = os.path.join(folder, "speech.wav")
    with wave.open(audio, "wb") as file:  # a tenth of a second of 16 kHz mono silence
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(16_000)
        file.writeframes(b"\0\0" * 1600)
    calls: list[Any] = []
    original = provider.transcribe

    def recorded(*args: Any, **kwargs: Any) -> Any:
        try:
            value = original(*args, **kwargs)
        except Exception as exc:
            calls.append(exc)
            raise
        calls.append(value)
        return value

    provider.transcribe = recorded
    done.checked.append("transcribe")
    try:
        (dispatch or _kit_stt)(provider, key, audio)
    except Exception as exc:  # the kit's model lets it through; hermes' dispatcher does not
        calls.append(exc)
    finally:
        del provider.transcribe
    _judge_transcript(done, calls[-1] if calls else None)


def _kit_stt(provider: Any, key: str, audio: str) -> Any:
    """0.19.0's call (``tools.transcription_tools._dispatch_to_plugin_provider``)."""
    return provider.transcribe(audio, model=None, language=None)


def _judge_transcript(done: Drive, result: Any) -> None:
    if isinstance(result, BaseException):
        fix = "return {'success': False, 'transcript': '', 'error': ...} instead of raising"
        if raised_type_error(result):
            fix = "keep transcribe(file_path, *, model=None, language=None, **extra)"
        done.broke(
            "transcribe",
            "must not raise (hermes answers 'STT plugin raised')",
            f"raised {type(result).__name__}: {result}",
            fix,
        )
        return
    if not isinstance(result, dict):
        done.broke(
            "transcribe",
            "must return the envelope dict",
            f"it returned {type(result).__name__}: hermes answers 'returned a non-dict result'",
            "return {'success': True, 'transcript': text, 'provider': name}",
        )
        return
    envelope: dict[str, Any] = result  # pyright: ignore[reportUnknownVariableType]
    success = envelope.get("success")
    field, shape = ("transcript", "the text") if success else ("error", "what failed")
    if not isinstance(success, bool) or not isinstance(envelope.get(field), str):
        done.broke(
            "transcribe",
            "must return {'success': bool, 'transcript': str} ('error': str on failure)",
            f"it returned {envelope!r}",
            f"set success and {field} ({shape})",
        )


def _dispatcher(kind: str) -> Dispatch | None:
    """hermes' own ``_dispatch_to_plugin_provider`` of ``kind`` for this release."""
    for module in DISPATCHERS[kind]:
        found = function(module, "_dispatch_to_plugin_provider")
        if found is not None:
            if kind == "tts":
                return lambda _provider, key, path: found(TEXT, path, key, {})
            return lambda _provider, key, path: found(path, key, {})
    return None


def drive_registered(kind: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """In hermes' worker: each provider of ``kind`` the plugin gave hermes' registry,
    driven through the release's own dispatcher."""
    module, base_name, registry_module = BASES[kind]
    if attribute(module, base_name) is None:
        return [{"provider": "", "absent": f"this hermes has no {module}.{base_name}"}]
    builtins = frozenset(attribute(registry_module, "_BUILTIN_NAMES") or ())
    listed = function(registry_module, "list_providers")
    owner = str(options.get("module", ""))
    held: list[Any] = list(listed()) if listed is not None else []
    providers = [p for p in held if plugin_owned(p, owner)]
    return [
        {"provider": str(p.name), **drive_kind(kind, p, builtins, _dispatcher(kind))}
        for p in providers
    ]


def _driver(kind: str) -> Callable[[Any, str, frozenset[str]], dict[str, Any]]:
    return lambda provider, _version, builtins: drive_kind(kind, provider, builtins, None)


add_suite("tts", _driver("tts"))
add_suite("transcription", _driver("transcription"))
