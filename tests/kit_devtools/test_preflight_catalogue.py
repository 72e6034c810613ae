"""``preflight`` on the manifests of real plugins: those of ``scripts/corpus.py``.

``catalogue_manifests/`` holds each ``plugin.yaml`` (or several, for a wheel with several
plugin directories) exactly as the wheel on the package registry ships it, named
``<wheel>__<directory>.yaml``; three of the fifteen wheels ship none (hermes-evolve,
hermes-plugin-murf-tts, rtk-hermes: entry-point plugins only). Each is paired with what its
real ``register()`` registered when ``hermes-plugin-kit preflight`` loaded the unpacked
wheel here (2026-12-01; docs/cli.md tables it), replayed by a stand-in ``__init__.py``, so
the verdict is pinned without the plugins' code or dependencies.

What upstream's rules say for each, by hand from ``hermes_cli/plugin_validate.py`` at
``00067189dfecf833d4d009c2dd977ae85cf800e0``: every manifest has name, version and
description (L94-105), none declares ``requires_hermes`` or ``config_schema`` (L108-154
pass), every ``requires_env`` name is UPPER_SNAKE (L157-178; the mappings' ``name``); the
capability probe (L319-363) fails hermes-band and MiniMax's music plugin, which register
tools their manifest does not declare, and hermes-vk-community, whose ``register()``
imports its own package by its absolute name, which the probe's module name
(``hermes_validate_probe_plugin``, L238-241) does not provide unless the wheel is installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_devtools.cli._preflight import preflight_directory

MANIFESTS = Path(__file__).parent / "catalogue_manifests"

BAND = (
    "band_create_room", "band_find_room", "band_find_contact", "band_send_message",
    "band_add_participant", "band_remove_participant", "band_get_participants",
)  # fmt: skip
YANDEX = tuple(
    f"yandex_calendar_{verb}"
    for verb in ("list_calendars", "list_events", "create_event", "update_event",
                 "respond_event", "move_event", "delete_event")
)  # fmt: skip
SERPAPI = tuple(
    f"serpapi_{what}_search" for what in ("maps", "news", "shopping", "hotels", "flights",
                                           "travel_explore")
)  # fmt: skip

CASES: dict[str, tuple[tuple[str, ...], tuple[str, ...], list[str]]] = {
    # manifest file -> (tools, hooks its register() registered, preflight's rules)
    "camofox_web_search_hermes-0.0.6__camofox_web_search_hermes": ((), (), []),
    "hermes_band-0.1.0__hermes_band_platform": (BAND, (), ["HPK054"]),
    "hermes_memori-0.1.8__memori_hermes": ((), (), []),
    "hermes_minimax_media-0.3.0__hermes_minimax_media_plugins_image_gen_minimax": ((), (), []),
    "hermes_minimax_media-0.3.0__hermes_minimax_media_plugins_music_gen_minimax": (
        ("music_generate",),
        (),
        ["HPK054"],
    ),
    "hermes_minimax_media-0.3.0__hermes_minimax_media_plugins_video_gen_minimax": ((), (), []),
    "hermes_stepfun_imagegen-0.3.0__hermes_stepfun_imagegen": ((), (), []),
    "hermes_stepfun_imagegen-0.3.0__hermes_stepfun_imagegen_chain": ((), (), []),
    "hermes_tweet-0.1.16__hermes_tweet": (("tweet_explore", "tweet_read", "tweet_action"), (), []),
    "hermes_vk_community-1.1.4__hermes_vk_community": ((), (), ["HPK053"]),
    "hermes_voicebox-0.1.0__hermes_voicebox": ((), (), []),
    "hermes_yandex_calendar-0.6.4__hermes_yandex_calendar": (YANDEX, (), []),
    "noisegate_hermes-0.3.3__noisegate": (
        (),
        ("transform_tool_result", "transform_terminal_output"),
        [],
    ),
    "scythe_hermes_plugin-0.20.0__scythe_hermes_plugin": ((), (), []),
    "serpapi_hermes_plugin-1.1.1__serpapi_hermes_plugin": (SERPAPI, (), []),
}


def stand_in(name: str, tools: tuple[str, ...], hooks: tuple[str, ...]) -> str:
    if name.startswith("hermes_vk_community"):  # its register(), as shipped (line 14)
        return (
            "def register(ctx):\n"
            "    from hermes_vk_community.plugin import register as register_plugin\n"
            "    return register_plugin(ctx)\n"
        )
    head = (
        '"""Replays register(); memori\'s mentions MemoryProvider."""\n' if "memori" in name else ""
    )
    return (
        head
        + f"""\
TOOLS = {tools!r}
HOOKS = {hooks!r}


def _tool(args, **kwargs):
    return "{{}}"


def _hook(**kwargs):
    return None


def register(ctx):
    for name in TOOLS:
        schema = {{"name": name, "description": "d",
                   "parameters": {{"type": "object", "properties": {{}}}}}}
        ctx.register_tool(name=name, toolset="x", schema=schema, handler=_tool)
    for name in HOOKS:
        ctx.register_hook(name, _hook)
"""
    )


def test_every_collected_manifest_is_a_case() -> None:
    assert sorted(p.stem for p in MANIFESTS.glob("*.yaml")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_manifest_alone_passes_upstreams_static_checks(tmp_path: Path, name: str) -> None:
    """No ``__init__.py``: the probe is skipped (L327-332), only the manifest is judged."""
    directory = tmp_path / "plugin"
    directory.mkdir()
    (directory / "plugin.yaml").write_bytes((MANIFESTS / f"{name}.yaml").read_bytes())
    assert preflight_directory(directory).findings == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_preflight_verdict_with_what_register_registered(tmp_path: Path, name: str) -> None:
    tools, hooks, expected = CASES[name]
    directory = tmp_path / "plugin"
    directory.mkdir()
    (directory / "plugin.yaml").write_bytes((MANIFESTS / f"{name}.yaml").read_bytes())
    (directory / "__init__.py").write_text(stand_in(name, tools, hooks), encoding="utf-8")
    report = preflight_directory(directory)
    assert [f.rule for f in report.findings] == expected
    if expected != ["HPK053"]:
        assert report.registered is not None
        assert (report.registered["tools"], report.registered["hooks"]) == (
            list(tools),
            list(hooks),
        )
