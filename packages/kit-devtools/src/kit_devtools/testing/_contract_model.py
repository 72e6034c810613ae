"""The model-provider contract: a ``providers.base.ProviderProfile`` as hermes' transports
read it.

Every release (0.13.0 on) has ``providers/``: a plugin under
``$HERMES_HOME/plugins/model-providers/<name>/`` is imported by
``providers._discover_providers`` after hermes' bundled ones, and calls
``register_provider(profile)`` while it imports; the registry keys the profile by ``name``
and its ``aliases`` (later wins: a user profile of a bundled name replaces hermes' own).
hermes then reads the profile's fields (``name``, ``aliases``, ``api_mode``, ``base_url``,
``env_vars``, ``auth_type`` ...; ``providers.base.ProviderProfile``) and calls its hooks
from the transports: ``get_hostname()``, ``prepare_messages(messages)``,
``build_extra_body(session_id=...)``, ``build_api_kwargs_extras(reasoning_config=...)`` (a
pair of dicts), ``default_vision_model()`` and ``get_max_tokens(model)`` (each release's
base declares its own: 0.13.0 has the first four). The suite calls the hooks the release's
base declares; ``fetch_models`` (network) is not called.
"""

from __future__ import annotations

from typing import Any, Final

from kit_devtools.testing._provider_drive import (
    Drive,
    add_suite,
    base_of,
    function,
    hermes_version,
)

KIND: Final = "model-provider"
MESSAGES: Final = ({"role": "user", "content": "Hello"},)
HOOKS: Final[dict[str, tuple[tuple[Any, ...], dict[str, Any], tuple[type[Any], ...], str]]] = {
    "get_hostname": ((), {}, (str,), "a hostname str ('' for none)"),
    "prepare_messages": ((list(MESSAGES),), {}, (list,), "the message list"),
    "build_extra_body": ((), {"session_id": "hpk-contract-session"}, (dict,), "a dict"),
    "build_api_kwargs_extras": ((), {"reasoning_config": None}, (tuple,), "(extra_body, kwargs)"),
    "default_vision_model": ((), {}, (str, type(None)), "a model id or None"),
    "get_max_tokens": (("hpk-contract-model",), {}, (int, type(None)), "an int or None"),
}  # fmt: skip
"""Hook -> (positional and keyword arguments hermes passes, the types it reads, what)."""
FIELDS: Final = {
    "api_mode": str,
    "base_url": str,
    "env_vars": tuple,
    "aliases": tuple,
    "auth_type": str,
}
"""Fields hermes reads -> the type it reads them as."""


def drive(profile: Any, version: str, builtins: frozenset[str]) -> dict[str, Any]:
    """Read ``profile`` as hermes does; ``builtins``: the bundled profiles' names."""
    done = Drive()
    base = base_of(profile, "providers.base", "ProviderProfile")
    if isinstance(base, type) and not isinstance(profile, base):
        done.broke(
            "class",
            "must be a providers.base.ProviderProfile",
            f"{type(profile).__name__} is not: hermes' transports read its fields and hooks",
            "register ProviderProfile(name=...) or an instance of a subclass",
        )
        return done.result()
    name = getattr(profile, "name", None)
    done.checked.append("name")
    why = "no provider setting selects it"
    if not done.blank("name", name, why, "name the provider ('acme-llm')") and name in builtins:
        done.broke(
            "name",
            "must not be a bundled provider's name",
            f"{name!r} is hermes' own: registered later, the plugin's replaces it",
            "pick another name (an alias cannot take a bundled name either)",
        )
    for field, shape in FIELDS.items():
        done.checked.append(field)
        value = getattr(profile, field, None)
        if value is not None and not isinstance(value, shape):
            done.broke(
                field,
                f"must be a {shape.__name__}",
                f"it is {type(value).__name__} {value!r}",
                f"give {field} a {shape.__name__}",
            )
    for alias in getattr(profile, "aliases", ()) or ():
        if alias in builtins:
            done.broke(
                "aliases",
                "must not be a bundled provider's name",
                f"the alias {alias!r} is hermes' own provider",
                "drop or rename the alias",
            )
    for hook, (args, kwargs, shapes, what) in HOOKS.items():
        if base is not None and not hasattr(base, hook):
            continue  # the release's transports do not call it
        value = done.call(
            hook,
            lambda h=hook, a=args, k=kwargs: getattr(profile, h)(*a, **k),
            rule="must take hermes' arguments and not raise (the request fails otherwise)",
            fix="keep the base's signature, with **context for what later releases add",
        )
        if value is None and type(None) not in shapes:
            continue
        if not isinstance(value, shapes) or (hook == "build_api_kwargs_extras" and _no_pair(value)):
            done.broke(hook, f"must return {what}", f"it returned {value!r}", f"return {what}")
    return done.result()


def _no_pair(value: Any) -> bool:
    return len(value) != 2 or not all(isinstance(part, dict) for part in value)


HERMES_PROFILE_PACKAGES: Final = ("providers", "plugins")
"""Where hermes' own profiles' classes live on every release (``providers.base`` and
``plugins.model-providers.<name>``)."""


def bundled_names() -> frozenset[str]:
    """The names and aliases of hermes' own profiles (none where hermes is absent)."""
    listed = function("providers", "list_providers")
    if listed is None:
        return frozenset()
    names: set[str] = set()
    for profile in listed():
        if type(profile).__module__.split(".")[0] not in HERMES_PROFILE_PACKAGES:
            continue  # a plugin's own profile class this process imported (its tests did)
        names.add(str(profile.name))
        names.update(str(alias) for alias in getattr(profile, "aliases", ()) or ())
    return frozenset(names)


def drive_registered(kind: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """In hermes' worker: the plugin's folder imported as ``_discover_providers`` imports a
    user model provider (afresh, where hermes' discovery already imported it), and each
    profile it registered read by this release."""
    import os
    import sys
    from pathlib import Path

    providers: Any = __import__("providers")
    bundled_names()  # hermes' own discovery runs first
    registry: dict[str, Any] = providers._REGISTRY
    before = dict(registry)
    folder = Path(os.environ["HERMES_HOME"], "plugins", str(options.get("folder", "")))
    safe = folder.name.replace("-", "_")
    for name in [n for n in sys.modules if n.startswith("_hermes_user_provider") and safe in n]:
        del sys.modules[name]
    providers._import_plugin_dir(folder, "user")
    found = [p for name, p in registry.items() if before.get(name) is not p]
    mine = {str(p.name) for p in found if before.get(p.name) == p}  # found before, by hermes
    builtins = frozenset(n for n in before if n not in mine)
    return [{"provider": str(p.name), **drive(p, hermes_version(), builtins)} for p in found]


add_suite(KIND, drive)
