"""The registrars of hermes 0.20.1+ beyond the six the kit uses and the providers: approval
transports, context references, memory providers, platform handlers, terminal environments,
redaction patterns, system-prompt sections, locales and automation blueprints.

Each validates as the release does (the same exceptions and WARNINGs), records what it took
in ``InMemoryHost.provisions`` under the kind named here, and returns what the release
returns (a ledger handle, a count, or None), as ``PluginContext`` of 0.20.1, 0.20.6,
0.21.3 and 0.22.2 does.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from kit_devtools.testing._context_members import LifecycleMembers
from kit_devtools.testing._upstream_registration import taking_back

__all__ = ["Registrars"]

_TRANSPORT: Final = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_SECTION_ID: Final = re.compile(r"^[a-z0-9][a-z0-9._-]{0,127}$")
_SECTION_POSITIONS: Final = frozenset({"after_memory"})
MAX_SECTION_CHARS: Final = 4000
"""``SYSTEM_PROMPT_SECTION_POSITIONS``, ``MAX_SYSTEM_PROMPT_SECTION_CHARS`` and the id
pattern (0.21.3)."""
_BUILTIN_PREFIXES: Final = frozenset({"diff", "staged", "file", "folder", "git", "url"})
"""``agent.context_references.BUILTIN_PREFIXES``."""
_BUILTIN_TERMINALS: Final = frozenset(
    {"local", "docker", "singularity", "modal", "daytona", "vercel_sandbox", "ssh"}
)
"""The built-in ``terminal.backend`` names a plugin provider may not take (0.21.3's
``_SCOPED_PROVIDER_REGISTRARS`` row for ``register_terminal_environment_provider``)."""


class Registrars(LifecycleMembers):
    """The mixin ``HostContext`` gets these registrars from."""

    def _keep(self, kind: str, key: str, entry: Any) -> Callable[[], None]:
        """Store ``entry`` under ``provisions[kind][key]``; the release that takes it back."""
        provisions = self._state.provisions
        table = provisions.setdefault(kind, {})
        kept = table[key] = (self._plugin, entry)
        return taking_back(table, key, kept, removed=lambda: table or provisions.pop(kind, None))

    def _unclaimed(self, kind: str, key: str, field: str, taken: str) -> None:
        """ValueError ``taken`` (``{owner}``: the entry's ``field``) when ``key`` of ``kind``
        is already held."""
        held = self._state.provisions.get(kind, {}).get(key)
        if held is not None:
            raise ValueError(taken.format(owner=held[1][field]))

    def register_approval_transport(self, name: str, present_fn: Callable[..., Any]) -> None:
        """Checked as the manager checks it: kind ``approval_transport``."""
        clean = str(name).strip().lower()
        if clean == "builtin":
            msg = "approval transport name 'builtin' is reserved"
            raise ValueError(msg)
        if not _TRANSPORT.fullmatch(clean):
            msg = "approval transport name must match [a-z0-9][a-z0-9_-]{0,63}"
            raise ValueError(msg)
        if not callable(present_fn):
            msg = "approval transport present_fn must be callable"
            raise TypeError(msg)
        taken = f"approval transport {clean!r} is already registered by {{owner!r}}"
        self._unclaimed("approval_transport", clean, "plugin_id", taken)
        entry = {"name": clean, "present": present_fn, "plugin_id": self.plugin_id}
        self._track("approval_transport", clean, self._keep("approval_transport", clean, entry))

    def register_context_reference(self, provider: Any) -> None:
        """With the registry's checks: a wrong type or a refused prefix is a WARNING; kind
        ``context_reference``, keyed by the lowered prefix."""
        what = "a context reference provider"
        module, base = "agent.context_references", "ContextReferenceProvider"
        if self._wrong_type("context_reference", provider, what, module, base):
            return
        prefix = str(getattr(provider, "prefix", "")).lower().strip()
        problem = None
        if not prefix:
            problem = "prefix must be a non-empty string"
        elif prefix in _BUILTIN_PREFIXES:
            problem = f"prefix '{prefix}' is reserved for built-in references"
        elif prefix in self._state.provisions.get("context_reference", {}):
            problem = f"prefix '{prefix}' is already registered"
        if problem is not None:
            self._warn(
                "context_reference",
                prefix,
                f"Plugin '{self._plugin}' context reference registration failed: {problem}",
            )
            return
        self._keep("context_reference", prefix, provider)

    def register_memory_provider(self, provider: Any) -> None:
        """Recorded and otherwise inert: a provider not inheriting ``MemoryProvider`` is a
        WARNING; kind ``memory_provider``, keyed by its name."""
        what, module = "a memory provider", "agent.memory_provider"
        if self._wrong_type("memory_provider", provider, what, module, "MemoryProvider"):
            return
        self._keep("memory_provider", str(getattr(provider, "name", "?")), provider)

    def register_platform_handler(self, platform: str, factory: Callable[..., Any]) -> None:
        """Kind ``platform_handler``, keyed by the lowered platform, a list of factories."""
        if not callable(factory):
            raise self._refuse("a platform handler factory with a non-callable factory")
        key = (platform or "").strip().lower()
        if not key:
            raise self._refuse("a platform handler factory with an empty platform name")
        table = self._state.provisions.setdefault("platform_handler", {})
        _, factories = table.get(key, (self._plugin, []))
        table[key] = (self._plugin, [*factories, factory])

    def register_telegram_handler(self, factory: Callable[..., Any]) -> None:
        """``register_platform_handler("telegram", factory)``."""
        self.register_platform_handler("telegram", factory)

    def register_terminal_environment_provider(self, provider: Any) -> Any:
        """A ``terminal.backend`` provider (0.20.6; 0.21.3's scoped registrar row): a wrong
        type is a WARNING, a built-in name is refused with a WARNING; kind
        ``terminal_environment``, keyed by the lowered name; returns the handle."""
        what = "a terminal environment provider"
        module, base = "agent.terminal_env_provider", "TerminalEnvironmentProvider"
        if self._wrong_type("terminal_environment", provider, what, module, base):
            return None
        key = str(getattr(provider, "name", "")).strip().lower()
        if not key or key in _BUILTIN_TERMINALS:
            problem = (
                f"terminal environment provider name {key!r} is a built-in backend"
                if key
                else "terminal environment provider .name must be a non-empty string"
            )
            self._warn(
                "terminal_environment",
                key,
                f"Plugin '{self._plugin}' terminal environment provider rejected: {problem}",
            )
            return None
        release = self._keep("terminal_environment", key, provider)
        return self._track("terminal_environment_provider", key, release)

    def register_redaction_patterns(self, patterns: Any) -> int:
        """Through ``agent.redact.register_redaction_patterns``: each entry a non-empty
        string that compiles and starts with two literal characters, else a WARNING and
        skipped; a duplicate is skipped; returns the count accepted. Kind
        ``redaction_pattern``, keyed by the pattern."""
        source = f"plugin:{self._plugin}"
        held = self._state.provisions.get("redaction_pattern", {})
        accepted: list[str] = []
        given: list[object] = list(patterns or [])
        for raw in given:
            if not isinstance(raw, str) or not raw.strip():
                self._warn(
                    "redaction", "", f"{source}: skipping empty/non-string redaction pattern"
                )
                continue
            pattern = raw.strip()
            try:
                re.compile(pattern)
            except re.error as exc:
                message = f"{source}: skipping invalid redaction pattern {pattern!r} ({exc})"
                self._warn("redaction", pattern, message)
                continue
            if len(re.match(r"[A-Za-z0-9_-]*", pattern)[0]) < 2:  # type: ignore[index]
                message = (
                    f"{source}: skipping redaction pattern {pattern!r}: it must start with at"
                    " least 2 literal characters"
                )
                self._warn("redaction", pattern, message)
                continue
            if pattern in held or pattern in accepted:
                continue
            accepted.append(pattern)
        for pattern in accepted:
            self._keep("redaction_pattern", pattern, source)
        return len(accepted)

    def register_system_prompt_section(
        self,
        id: str,
        content: str | Callable[[Mapping[str, Any]], str],
        *,
        position: str = "after_memory",
        max_chars: int = MAX_SECTION_CHARS,
    ) -> Any:
        """Kind ``system_prompt_section``, keyed by ``id``; returns the handle."""
        if not isinstance(id, str) or not _SECTION_ID.fullmatch(id):
            msg = (
                "system prompt section id must be 1-128 lowercase characters "
                "using letters, numbers, '.', '_', or '-'"
            )
            raise ValueError(msg)
        if not isinstance(content, str) and not callable(content):
            msg = "system prompt section content must be a string or callable"
            raise TypeError(msg)
        if position not in _SECTION_POSITIONS:
            msg = "system prompt section position must be one of: " + ", ".join(
                sorted(_SECTION_POSITIONS)
            )
            raise ValueError(msg)
        if (
            isinstance(max_chars, bool)
            or not isinstance(max_chars, int)
            or not 0 < max_chars <= MAX_SECTION_CHARS
        ):
            msg = f"system prompt section max_chars must be between 1 and {MAX_SECTION_CHARS}"
            raise ValueError(msg)
        taken = f"system prompt section {id!r} is already registered by plugin {{owner!r}}"
        self._unclaimed("system_prompt_section", id, "plugin", taken)
        section = {
            "id": id,
            "content": content,
            "position": position,
            "max_chars": max_chars,
            "plugin": self.plugin_id,
        }
        release = self._keep("system_prompt_section", id, section)
        return self._track("system_prompt_section", id, release)

    def register_locale(
        self,
        lang: str,
        source: str | Path | Mapping[str, Any],
        *,
        endonym: str | None = None,
        rtl: bool = False,
        surface: str = "core",
    ) -> Any:
        """A locale pack (0.22.2) with hermes' own ``agent.i18n_layers`` checks and loader
        (the pack kept by the host, hermes' i18n layers untouched): kind ``locale``, keyed
        ``<lang>.<surface>``."""
        layers: Any = importlib.import_module("agent.i18n_layers")
        lang_id = layers.normalize_language_id(lang)
        if not layers.is_language_id(lang_id):
            raise self._refuse(
                f"locale with invalid language id {lang!r} (expected e.g. 'pl', 'pt-br')"
            )
        if surface not in layers.SURFACES:
            raise self._refuse(
                f"locale {lang_id!r} for unknown surface {surface!r}"
                f" (one of {', '.join(layers.SURFACES)})"
            )
        messages = layers.load_locale_source(source)
        key = f"{lang_id}.{surface}"
        entry = {"messages": messages, "endonym": endonym, "rtl": rtl}
        return self._track("locale", key, self._keep("locale", key, entry))

    def register_locale_dir(
        self, path: str | Path, *, metadata: Mapping[str, Mapping[str, Any]] | None = None
    ) -> list[Any]:
        """Every ``<lang>[.tui|.desktop].yaml`` under ``path`` (0.22.2); a broken file is a
        WARNING and skipped."""
        layers: Any = importlib.import_module("agent.i18n_layers")
        handles: list[Any] = []
        for lang_id, surface, file in layers.scan_locale_dir(Path(path)):
            meta = dict((metadata or {}).get(lang_id) or {})
            try:
                handles.append(
                    self.register_locale(
                        lang_id,
                        file,
                        surface=surface,
                        endonym=meta.get("endonym"),
                        rtl=bool(meta.get("rtl", False)),
                    )
                )
            except Exception as exc:
                message = f"Plugin '{self._plugin}' locale file {file} skipped: {exc}"
                self._warn("locale", str(file), message)
        return handles

    def register_automation_blueprint(
        self,
        key: str,
        *,
        title: str,
        description: str,
        schedule_template: str,
        prompt_template: str,
        category: str = "general",
        slots: Iterable[Any] = (),
        deliver_default: str = "origin",
        skills: Iterable[str] = (),
        tags: Iterable[str] = (),
    ) -> Any:
        """An automation blueprint (0.22.2): kind ``automation_blueprint``, keyed by
        ``key``; returns the handle."""
        entry = {
            "key": key,
            "title": title,
            "description": description,
            "schedule_template": schedule_template,
            "prompt_template": prompt_template,
            "category": category,
            "slots": list(slots),
            "deliver_default": deliver_default,
            "skills": list(skills),
            "tags": list(tags),
            "plugin": self.plugin_id,
        }
        release = self._keep("automation_blueprint", key, entry)
        return self._track("automation_blueprint", key, release)
