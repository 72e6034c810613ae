"""The one record of what a kit decorator declared, and the one way to read it.

Every object the kit declares (a ``@tool`` function, kit-lifecycle's ``@command``,
``@middleware`` and ``@hook`` callbacks, kit-media's media delivery hooks) carries one
:class:`Declaration` under one attribute. :func:`declaration_of` reads it, and
:func:`declarations_in` finds every declared object of a module the way
``register_all`` and ``register_plugin`` both do.

The records are the spec classes of the packages that declare them, each a
:class:`Declaration` with its ``surface``: :class:`~kit_core.ToolSpec` (``"tool"``),
:class:`HookSpec` (``"hook"``, shared by kit-lifecycle and kit-media, which never import
each other), and kit-lifecycle's ``CommandSpec`` (``"command"``) and ``MiddlewareSpec``
(``"middleware"``).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar, Final, TypeVar, cast, overload

from kit_core._record import Record
from kit_core.errors import RegistrationError

__all__ = [
    "Declaration",
    "HookSpec",
    "declaration_of",
    "declarations_in",
    "declare",
    "resolve_module",
]

_ATTRIBUTE: Final = "_hermes_kit_declaration"
"""The one attribute a declared object carries its :class:`Declaration` under."""

_T = TypeVar("_T")
_D = TypeVar("_D", bound="Declaration")


class Declaration(Record):
    """The base of every declaration record: what one decorated object declares.

    ``surface`` names what the host gets: ``"tool"``, ``"command"``, ``"middleware"`` or
    ``"hook"``. Subclasses are frozen records holding what the host's registrar takes.
    """

    __slots__ = ()
    surface: ClassVar[str] = ""


class HookSpec(Declaration):
    """A hook declaration: the host hook ``name`` and the ``callback`` to register.

    Carried by kit-lifecycle's ``@hook`` callbacks (``callback`` is the kit's wrapper)
    and by kit-media's media delivery hooks (``callback`` is the function itself).
    """

    __slots__ = ("callback", "name")
    surface: ClassVar[str] = "hook"
    _hidden: ClassVar[frozenset[str]] = frozenset({"callback"})
    name: str
    callback: Callable[..., Any]

    def __init__(self, name: str, callback: Callable[..., Any]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "callback", callback)


def declare(target: _T, declaration: Declaration) -> _T:
    """Attach ``declaration`` to ``target`` (replacing any it had) and return ``target``.

    What the kit's decorators do; a plugin can declare a callable it wrote without one
    the same way, e.g. ``declare(fn, HookSpec("on_session_end", fn))``.

    Raises:
        TypeError: ``declaration`` is not a :class:`Declaration`, or ``target`` cannot
            hold attributes (declare a function).
    """
    if not isinstance(declaration, Declaration):
        msg = f"declare() takes a Declaration record, got {type(declaration).__name__}"
        raise TypeError(msg)
    try:
        setattr(target, _ATTRIBUTE, declaration)
    except (AttributeError, TypeError):
        msg = f"a {type(target).__name__} cannot carry a declaration; declare a function"
        raise TypeError(msg) from None
    return target


@overload
def declaration_of(obj: object) -> Declaration | None: ...
@overload
def declaration_of(obj: object, kind: type[_D]) -> _D | None: ...
def declaration_of(obj: object, kind: type[Declaration] = Declaration) -> Declaration | None:
    """The :class:`Declaration` ``obj`` carries, or None for anything undeclared.

    With ``kind`` (a record class such as ``ToolSpec``), only a record of that class is
    returned: ``declaration_of(fn, ToolSpec)`` is the ``ToolSpec`` of a ``@tool``
    function and None for a hook.
    """
    found = getattr(obj, _ATTRIBUTE, None)
    return found if isinstance(found, kind) else None


@overload
def declarations_in(module: ModuleType | str) -> list[tuple[str, object, Declaration]]: ...
@overload
def declarations_in(module: ModuleType | str, kind: type[_D]) -> list[tuple[str, object, _D]]: ...
def declarations_in(
    module: ModuleType | str, kind: type[Declaration] = Declaration
) -> list[tuple[str, object, Any]]:
    """Every declared object of ``module`` as ``(where, object, declaration)``.

    ``where`` is the attribute name. A tuple or list attribute whose items are all
    declared objects (kit-media's ``MEDIA_DELIVERY_HOOKS``, a plugin's own ``HOOKS``
    tuple) contributes each item, as ``NAME[i]``. Attributes are read in name order and
    one object reached twice counts once, where first found. With ``kind``, only records
    of that class.

    Raises:
        RegistrationError: ``module`` is not a module and no module of that name imports.
    """
    resolved = resolve_module(module, "find its declarations")
    found: list[tuple[str, object, Declaration]] = []
    seen: set[int] = set()

    def keep(where: str, value: object, declaration: Declaration) -> None:
        if id(value) not in seen and isinstance(declaration, kind):
            seen.add(id(value))
            found.append((where, value, declaration))

    for attribute, value in sorted(vars(resolved).items()):
        declaration = declaration_of(value)
        if declaration is not None:
            keep(attribute, value, declaration)
        elif isinstance(value, tuple | list) and value:
            items = cast("tuple[object, ...] | list[object]", value)
            if all(declaration_of(item) is not None for item in items):
                for index, item in enumerate(items):
                    keep(f"{attribute}[{index}]", item, cast("Declaration", declaration_of(item)))
    return found


def resolve_module(module: ModuleType | str, purpose: str = "register its tools") -> ModuleType:
    """A module object as it is, or the module of that name (imported when not loaded yet).

    Raises:
        RegistrationError: the name cannot be imported, or ``module`` is neither.
    """
    if isinstance(module, ModuleType):
        return module
    if isinstance(module, str) and module:
        loaded = sys.modules.get(module)
        if loaded is not None:
            return loaded
        try:
            return importlib.import_module(module)
        except ImportError as exc:
            msg = f"cannot import module {module!r} to {purpose}: {exc}"
            raise RegistrationError(msg) from exc
    msg = f"expected a module or a module name, got {type(module).__name__}"
    raise RegistrationError(msg)
