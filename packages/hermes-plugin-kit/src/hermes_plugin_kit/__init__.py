"""hermes-plugin-kit: the one import a hermes-agent plugin author needs.

``from hermes_plugin_kit import tool, command, deliver_media, register_plugin`` works
whichever kit package a name lives in. kit-core is loaded with the façade; kit-lifecycle
and kit-media load on first use of one of their names (PEP 562), so a tool-only plugin
never pays for them. The names are each package's own ``__all__``, read from the package:
kit-core's when the façade loads, the others' when a name that is not kit-core's is
first asked for (``dir()`` and ``__all__`` load both). Type checkers see every name, and
``from hermes_plugin_kit import *`` every name but kit-media's hooks
(``MEDIA_DELIVERY_HOOKS``, ``transform_media_delivery_output`` and
``clear_media_delivery_state``): ``register_plugin`` registers the declared objects a module
registered as a whole holds, so a plugin module that star-imports the kit would register
both hooks unasked. Import them by name where the plugin wants them.

Author tooling (the in-memory host, the pytest plugin, the ``hermes-plugin-kit``
command) is not here: it is ``kit-devtools``, installed with ``hermes-plugin-kit[dev]``.
"""

from typing import TYPE_CHECKING

from hermes_plugin_kit._foreign_core import refuse as _refuse_a_foreign_kit_core

_refuse_a_foreign_kit_core()  # kit_core's import then refuses siblings of another build

from kit_core._build import confirm as _confirm  # noqa: E402 - after the foreign-core check

_confirm(__name__, __file__)  # the folder really imported is of kit_core's build

from kit_core import *  # noqa: E402, F403  # pyright: ignore[reportWildcardImportFromLibrary]

if TYPE_CHECKING:
    from types import ModuleType

    from kit_lifecycle import *  # noqa: F403  # pyright: ignore[reportWildcardImportFromLibrary]
    from kit_media import *  # noqa: F403  # pyright: ignore[reportWildcardImportFromLibrary]
    from kit_media import MEDIA_DELIVERY_HOOKS as MEDIA_DELIVERY_HOOKS
    from kit_media import clear_media_delivery_state as clear_media_delivery_state
    from kit_media import transform_media_delivery_output as transform_media_delivery_output

__all__: list[str]  # every package's, made on first use by __getattr__ below

_HELD = ("MEDIA_DELIVERY_HOOKS", "clear_media_delivery_state", "transform_media_delivery_output")
"""kit-media's names importable by name and left out of every ``__all__`` (see above)."""


def _packages() -> "tuple[ModuleType, ...]":
    """The kit packages whose ``__all__`` the façade serves, in that order."""
    import kit_core
    import kit_lifecycle
    import kit_media

    return kit_core, kit_lifecycle, kit_media


def __getattr__(name: str) -> object:
    """Load kit-lifecycle and kit-media the first time a name that is not kit-core's is
    asked for: a name in a package's ``__all__`` (or one of kit-media's hooks), and
    ``__all__``, every package's."""
    if name == "__all__":
        value: object = [n for package in _packages() for n in package.__all__]
    elif name.startswith("__"):  # a probe of the module (__path__, __wrapped__): not a name
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    else:  # kit-lifecycle first: nearly every plugin asks for one of its names
        import kit_lifecycle

        if name in kit_lifecycle.__all__:
            value = getattr(kit_lifecycle, name)
        else:
            import kit_media

            if name not in kit_media.__all__ and name not in _HELD:
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
            value = getattr(kit_media, name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *(n for p in _packages() for n in p.__all__), *_HELD})
