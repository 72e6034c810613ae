"""The README stays the pitch, the two commands, install and one example; its links and the
package READMEs' links lead somewhere."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def repository_url() -> str:
    # mkdocs.yml names the repository once (repo_url); the package READMEs link to it
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    url = config["repo_url"]
    assert isinstance(url, str)
    return url


def test_the_readme_is_under_200_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) < 200


def test_the_readme_starts_with_the_two_commands_then_install_and_an_example() -> None:
    text = README.read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert sections[:3] == ["The two commands", "Install", "A complete plugin"]
    first_block = re.search(r"```sh\n(.*?)```", text, re.DOTALL)
    assert first_block
    commands = [line.split()[0] for line in first_block.group(1).splitlines()]
    assert commands == ["./scripts/example", "./scripts/test"]


def test_the_readme_first_screen_is_for_authors() -> None:
    # the install lines and the start of the example within the first 50 lines (issue 24)
    lines = README.read_text(encoding="utf-8").splitlines()
    first = "\n".join(lines[:50])
    assert "hermes-plugin-kit new" in first
    assert 'uv add "hermes-plugin-kit @ git+' in first
    assert "## A complete plugin" in first


def test_every_relative_link_of_the_readme_and_the_pages_leads_to_a_file() -> None:
    pages = [README, *(ROOT / "docs").rglob("*.md")]
    checked = 0
    for page in pages:
        prose = re.sub(r"```.*?```|`[^`\n]*`", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in LINK.findall(prose):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.partition("#")[0]).resolve()
            assert path.exists(), f"{page.relative_to(ROOT)}: {target}"
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    "readme", sorted((ROOT / "packages").glob("*/README.md")), ids=lambda p: p.parent.name
)
def test_a_package_readme_links_absolutely_into_the_repository(readme: Path) -> None:
    """A package's README is its page on an index, where a relative link leads nowhere."""
    links = LINK.findall(readme.read_text(encoding="utf-8"))
    assert links
    url = repository_url()
    for target in links:
        assert target == url or target.startswith(f"{url}/"), target
        relative = target.removeprefix(f"{url}/blob/main/")
        if relative != target:
            assert (ROOT / relative).is_file(), target


def test_the_site_hook_drops_sphinx_role_names_before_code_and_nothing_else() -> None:
    spec = importlib.util.spec_from_file_location(
        "mkdocs_hooks", ROOT / "scripts" / "mkdocs_hooks.py"
    )
    assert spec is not None
    assert spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    html = "Use :func:<code>tool</code> or :class:<code>ToolSpec</code>; a:b:<em>c</em>, :func: x"
    assert hooks.on_page_content(html) == (
        "Use <code>tool</code> or <code>ToolSpec</code>; a:b:<em>c</em>, :func: x"
    )


def api_page(page: str) -> str:
    return (ROOT / "docs" / "api" / page).read_text(encoding="utf-8")


def test_the_facade_page_lists_every_name_it_exports_once_linked_to_its_package() -> None:
    import hermes_plugin_kit

    links = re.findall(r"\[`(\w+)`\]\[kit_\w+\.(\w+)\]", api_page("hermes_plugin_kit.md"))
    assert all(shown == target for shown, target in links)  # each leads to the name it shows
    public = set(hermes_plugin_kit.__all__) | set(hermes_plugin_kit._HELD)
    assert sorted(shown for shown, _ in links) == sorted(public)  # __all__ and kit-media's hooks
    assert set(hermes_plugin_kit.__all__) < public


def test_kit_core_page_shows_every_name_tool_first() -> None:
    import kit_core
    import kit_core.hermes

    page, model = api_page("kit_core.md").split("## `kit_core.hermes`")
    members = re.findall(r"^        - (\w+)$", page, re.MULTILINE)
    assert members[0] == "tool"
    assert sorted(members) == sorted(kit_core.__all__)
    shown = re.findall(r"^        - (\w+)$", model, re.MULTILINE)
    assert "HostRelease" in shown
    assert set(shown) <= set(kit_core.hermes.__all__)


EVERY_RELEASE = re.compile(
    r"every\b[^.;:]{0,40}?\breleases?,?\s+(0\.\d+\.\d+)(?:-|\s+to\s+)(0\.\d+\.\d+)"
)
"""A claim about every supported release, with the range it names."""


def test_every_claim_about_every_release_names_the_models_range() -> None:
    """A page that says "every registry release, 0.13.0 to 0.22.2" is stale once the host
    model holds another release: the range must be the model's oldest and newest."""
    from kit_core.hermes import registry_releases

    releases = registry_releases()
    wanted = (releases[0].version, releases[-1].version)
    claims: list[tuple[str, tuple[str, str]]] = []
    for page in [README, *sorted((ROOT / "docs").rglob("*.md"))]:
        text = " ".join(page.read_text(encoding="utf-8").split())
        claims += [(page.name, (m[1], m[2])) for m in EVERY_RELEASE.finditer(text)]
    assert len(claims) >= 4  # the README's two, status, results, media
    stale = [(name, found) for name, found in claims if found != wanted]
    assert not stale, f"ranges that are not the model's {wanted}: {stale}"


def test_a_page_that_counts_the_modelled_releases_counts_the_models() -> None:
    from kit_core.hermes import registry_releases

    counts = [
        (page.name, int(m[1]))
        for page in [README, *sorted((ROOT / "docs").rglob("*.md"))]
        for m in re.finditer(r"\bholds (\d+) releases\b", page.read_text(encoding="utf-8"))
    ]
    assert counts  # docs/status.md says how many
    assert all(n == len(registry_releases()) for _, n in counts), counts
