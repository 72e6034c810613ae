"""Media privacy and suppression, fuzzed: what the host says, which session a delivery
silences, and which paths hermes would read back as another file.

* An id the host names (a home channel, a migrated chat, a user in an error) never
  reaches a result or a log line unmasked, whatever its shape and wherever it stands.
* A secret-shaped target is refused on the text as given and never echoed.
* A delivery arms the suppression of only the session its call names (its
  ``session_id``, or the ``HERMES_SESSION_ID`` bound in its context), never the
  process-wide value, and says when it armed nothing.
* A suppression marker is armed, consumed and cleared under one key: whatever spelling
  of a session id arms it, every spelling that names the same session finds it, and no
  other session does.
* A media path is refused with a ``MediaError`` that says how to fix it, or its
  ``MEDIA:`` line is one hermes 0.19.0 reads back whole (``tests/host`` checks that
  against the real parser): no directive in it, no trailing character hermes strips, no
  backtick, and spaces or quotes only in a name ending in a deliverable extension.
"""

from __future__ import annotations

import contextvars
import json
import re
import string
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_media import (
    MediaError,
    MediaPayload,
    MediaType,
    clear_media_delivery_state,
    deliver_media,
    resolve_delivery_target,
    transform_media_delivery_output,
)
from kit_media._markers import MARKERS
from kit_media._session import NO_SESSION_NOTE

HERMES_SESSION_ID = contextvars.ContextVar[str]("HERMES_SESSION_ID")
"""Plays hermes' ``gateway.session_context._SESSION_ID`` (the kit finds it by its name)."""

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))

# -- ids the host may name ------------------------------------------------------------------

_ALNUM = string.ascii_letters + string.digits
_words = st.text(alphabet=string.ascii_letters + " ", max_size=30)
_separators = st.sampled_from([" ", ": ", " (", "=", " #"])
_closers = st.sampled_from(["", " ", ")", ".", ", ", "; done"])


def _opaque(chars: str) -> str:
    return chars[:3] + "7" + chars[3:6] + "42" + chars[6:]


numeric_ids = st.builds(
    lambda sign, digits: sign + digits,
    st.sampled_from(["", "-", "-100", "+"]),
    st.text(alphabet=string.digits, min_size=5, max_size=19).filter(lambda d: d[0] != "0"),
)
handles = st.text(alphabet=_ALNUM + "_", min_size=4, max_size=32).map(lambda s: "@" + s)
servers = st.lists(
    st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=8), min_size=2, max_size=3
)
sigil_ids = st.builds(
    lambda sigil, local, server: f"{sigil}{local}:{'.'.join(server)}",
    st.sampled_from(["!", "@", "#", "$"]),
    st.text(alphabet=_ALNUM + "_.=-", min_size=1, max_size=16),
    servers,
)
addresses = st.builds(
    lambda local, server: f"{local}@{'.'.join(server)}",
    st.text(alphabet=_ALNUM + "._+", min_size=1, max_size=16),
    servers,
)
opaque_ids = st.text(alphabet=_ALNUM + "_-", min_size=6, max_size=30).map(_opaque)
host_ids = st.one_of(numeric_ids, handles, sigil_ids, addresses, opaque_ids)


def _placed(text: str, where: str) -> dict[str, Any]:
    """A host reply with ``text`` in one of the places hermes puts host text."""
    if where == "error":
        return {"error": text}
    if where == "warnings":
        return {"success": True, "warnings": [text]}
    if where == "note":
        return {"success": True, "note": text}
    if where == "nested":
        return {"success": False, "details": {"attempts": [{"detail": text}]}}
    return {"error": "send failed", "extra": {text: "keyed by it"}}


@HARDENING
@given(
    raw=host_ids,
    before=_words,
    sep=_separators,
    after=_closers,
    where=st.sampled_from(["error", "warnings", "note", "nested", "key"]),
    target=st.sampled_from(["telegram", "origin", "telegram:-100123456:77"]),
)
def test_an_id_the_host_names_never_reaches_a_result_or_a_log_unmasked(
    raw: str,
    before: str,
    sep: str,
    after: str,
    where: str,
    target: str,
    media_host: Any,
    media_file: Path,
    capture: Callable[..., Any],
    tally: Any,
) -> None:
    text = f"{before}{sep}{raw}{after}"
    media_host.reply = lambda args: json.dumps(_placed(text, where))
    media_host.block = None
    with media_host.installed(), capture() as logs:
        media_host.in_chat("-100999888", "5")
        result = deliver_media(MediaPayload(media_file), target, session_id="s-ids")
    shown_result = json.dumps({**result.as_dict(), "path": ""}, ensure_ascii=False)
    seen = [shown_result, repr(result), *logs.texts()]
    seen = [s.replace(str(media_file), "<file>") for s in seen]
    for shown in seen:
        assert raw not in shown, (raw, shown)
    tally.fuzz("media host ids")


# -- secret-shaped targets --------------------------------------------------------------------


def _target_forms(core: str) -> list[str]:
    return [core, f"telegram:{core}", f"{core}:12345", f" {core} "]


@pytest.mark.parametrize("form", range(4))
def test_a_secret_shaped_target_is_refused_and_never_echoed(
    form: int,
    corpus: list[Any],
    media_host: Any,
    media_file: Path,
    capture: Callable[..., Any],
    no_leaks: Callable[..., None],
    tally: Any,
) -> None:
    texts: list[str] = []
    media_host.sends.clear()
    with media_host.installed(), capture() as logs:
        for secret in corpus:
            if secret.where != "anywhere":
                continue
            target = _target_forms(secret.text)[form]
            with pytest.raises(MediaError) as refused:
                resolve_delivery_target(target)
            texts.append(str(refused.value))
            with pytest.raises(MediaError) as refused:
                deliver_media(MediaPayload(media_file), target, session_id="s-1")
            texts.append(str(refused.value))
            tally.fuzz("media secret targets")
    assert media_host.sends == []
    no_leaks(logs, texts, path="media targets")


# -- one key for the markers ------------------------------------------------------------------

_padding = st.text(alphabet=" \t\n\r\x0b\x0c\u00a0\u2003", max_size=3)
_session_ids = st.text(st.characters(exclude_categories=("Cs",)), max_size=24)


@HARDENING
@given(
    session=_session_ids,
    other=_session_ids,
    pads=st.tuples(_padding, _padding, _padding, _padding),
    end_with=st.sampled_from(["reply", "session end"]),
)
def test_a_marker_is_found_by_every_spelling_of_its_session_and_by_no_other(
    session: str,
    other: str,
    pads: tuple[str, str, str, str],
    end_with: str,
    media_host: Any,
    media_file: Path,
    tally: Any,
) -> None:
    MARKERS.clear_all()
    armed_as = f"{pads[0]}{session}{pads[1]}"
    found_as = f"{pads[2]}{session}{pads[3]}"
    named = bool(session.strip())
    media_host.reply = lambda args: json.dumps({"success": True})
    media_host.block = None
    with media_host.installed():
        media_host.in_chat("-100123456")
        result = deliver_media(MediaPayload(media_file), "origin", session_id=armed_as)
    assert result.success
    assert len(MARKERS) == (1 if named else 0)
    if other.strip() != session.strip():
        assert transform_media_delivery_output(response_text="x", session_id=other) is None
        clear_media_delivery_state(session_id=other)
    if end_with == "reply":
        expected = "NO_REPLY" if named else None
        assert transform_media_delivery_output(response_text="x", session_id=found_as) == expected
    else:
        clear_media_delivery_state(session_id=found_as)
    assert transform_media_delivery_output(response_text="x", session_id=found_as) is None
    assert len(MARKERS) == 0
    tally.fuzz("media marker keys")


# -- which session a delivery silences --------------------------------------------------------


@HARDENING
@given(
    turns=st.lists(
        st.sampled_from(["keyword", "bound", "keyword and bound", "neither"]), max_size=12
    ),
    environment=st.text(alphabet=string.ascii_letters, min_size=1, max_size=12),
)
def test_a_delivery_silences_only_the_session_its_call_names(
    turns: list[str], environment: str, media_host: Any, media_file: Path, tally: Any
) -> None:
    MARKERS.clear_all()
    media_host.reply = lambda args: json.dumps({"success": True})
    media_host.block = None

    def turn(index: int, how: str) -> tuple[str, Any]:
        own = f"turn-{index}"
        # get_session_env answers the process-wide value, as hermes' os.environ fallback
        # does for whichever agent was set up last
        media_host.in_chat(f"-100{index:06d}", "", session_id=environment)
        if "bound" in how:
            HERMES_SESSION_ID.set(own if how == "bound" else f"{own}-context")
        kwargs = {"session_id": own} if "keyword" in how else {}
        return own, deliver_media(MediaPayload(media_file), "origin", **kwargs)

    with media_host.installed(), ThreadPoolExecutor(max_workers=4) as pool:
        futures = [
            pool.submit(contextvars.copy_context().run, turn, index, how)
            for index, how in enumerate(turns)
        ]
        outcomes = [future.result() for future in futures]

    named = {own for (own, _), how in zip(outcomes, turns, strict=True) if how != "neither"}
    for (_, result), how in zip(outcomes, turns, strict=True):
        assert result.success
        assert result.suppression_armed is (how != "neither")
        assert result.suppression_note == (NO_SESSION_NOTE if how == "neither" else None)
    assert len(MARKERS) == len(named)
    assert transform_media_delivery_output(response_text="x", session_id=environment) is None
    for own in named:
        assert transform_media_delivery_output(response_text="x", session_id=own) == "NO_REPLY"
    assert len(MARKERS) == 0
    tally.fuzz("media sessions", len(turns))


# -- paths hermes reads back as another file ---------------------------------------------------

_DELIVERABLE = re.compile(r"(?<=[^\s/])\.(?:png|jpe?g|ogg|pdf|txt|gz)\Z", re.IGNORECASE)
"""A few of hermes' deliverable extensions, after a name (gateway/platforms/base.py:1499)."""

_name_parts = st.sampled_from(
    [
        *"abXY09 _-.,;:)]}([{'\"`~!@#$%^&+=",
        *("\u00a0", "\u2003", "\t", "\u2028", "ſ", ".png", ".pdf", ".bin"),
        *("MEDIA:", "media:", "[[as_document]]", "[[AUDIO_AS_VOICE]]"),
    ]
)
_endings = st.sampled_from([".png", ".jpg", ".ogg", ".pdf", ".txt", ".bin", "", ".tar.gz"])


@HARDENING
@given(
    parts=st.lists(_name_parts, min_size=1, max_size=8),
    ending=_endings,
    kind=st.sampled_from(list(MediaType)),
    other_file=st.booleans(),
)
def test_a_media_path_is_refused_or_hermes_reads_its_media_line_whole(
    parts: list[str],
    ending: str,
    kind: MediaType,
    other_file: bool,
    tmp_path_factory: pytest.TempPathFactory,
    tally: Any,
) -> None:
    name = "".join(parts) + ending
    if "/" in name or name in (".", ".."):
        return
    folder = tmp_path_factory.mktemp("media-names")
    path = folder / name
    path.write_bytes(b"media")
    head = re.split(r"[\s\"']", name, maxsplit=1)[0].rstrip("`\"',.;:)}]")
    if other_file and head and head != name:
        (folder / head).write_bytes(b"another file")
    tally.fuzz("media path names")
    payload = _built(path, kind)
    if isinstance(payload, str):
        refused = payload
        assert "rename" in refused or "voice media" in refused
        return
    text = str(payload.path)
    assert payload.to_message().split("\n")[-1] == f"MEDIA:{text}"
    assert not any(d in text.lower() for d in ("media:", "[[as_document]]", "[[audio_as_voice]]"))
    assert not text[-1].isspace()
    assert text[-1] not in "`\"',.;:)}]"
    assert "`" not in text
    if re.search(r"[\s\"']", name):
        assert _DELIVERABLE.search(name), f"hermes ends {name!r} at its first space or quote"
        assert not (folder / head).is_file() or head.lower().endswith((".png", ".pdf"))


def _built(*args: Any, **kwargs: Any) -> MediaPayload | str:
    """The payload, or the message of the MediaError that refused it."""
    try:
        return MediaPayload(*args, **kwargs)
    except MediaError as refused:
        return str(refused)
