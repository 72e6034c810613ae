"""What ``@tool`` checks and works out when a tool is declared, before its wrapper is
made: its options (:func:`check_options`), its description (:func:`resolve_description`)
and the argument check of its schema, with the examples and defaults checked against it
(:func:`compile_checks`). Each refusal is a :class:`~kit_core.errors.ToolDefinitionError`
naming the tool, the rule broken and the fix.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, cast

from kit_core._annotations import signature_of
from kit_core._argument_check import default_filler
from kit_core._env import check_requires_env
from kit_core._shared import argument_check, example_misfit
from kit_core.errors import ToolDefinitionError

__all__ = ["check_options", "compile_checks", "resolve_description"]


def check_options(label: str, opts: dict[str, Any]) -> tuple[str, ...]:
    toolset = opts["toolset"]
    if not isinstance(toolset, str) or not toolset.strip():
        msg = f"{label}: toolset is required, e.g. @tool(toolset='myplugin'); got {toolset!r}"
        raise ToolDefinitionError(msg)
    if opts["params"] is not None and opts["schema"] is not None:
        msg = f"{label}: schema and params are mutually exclusive; pass one of them"
        raise ToolDefinitionError(msg)
    for key in ("allow_undocumented", "validate_required"):
        if not isinstance(opts[key], bool):
            msg = f"{label}: {key} must be a bool, got {opts[key]!r}"
            raise ToolDefinitionError(msg)
    if not isinstance(opts["emoji"], str):
        msg = f"{label}: emoji must be a str, got {opts['emoji']!r}"
        raise ToolDefinitionError(msg)
    check_fn = opts["check_fn"]
    if check_fn is not None:
        try:
            signature_of(check_fn).bind()
        except TypeError:
            msg = (
                f"{label}: check_fn must be callable with no arguments (the host calls check_fn())"
            )
            raise ToolDefinitionError(msg) from None
        except ValueError:
            pass
    return check_requires_env(label, opts["requires_env"], ToolDefinitionError)


def resolve_description(
    label: str, fn: Callable[..., Any], opts: dict[str, Any], doc: str | None = None
) -> str:
    """``description=``, a supplied schema's, or the docstring's (``doc``: a typed
    handler's, without its Args section)."""
    given = opts["description"]
    if given is not None and not isinstance(given, str):
        msg = f"{label}: description must be a str, got {type(given).__name__}"
        raise ToolDefinitionError(msg)
    supplied: object = opts["schema"]
    from_schema: object = (
        cast("Mapping[str, object]", supplied).get("description")
        if isinstance(supplied, Mapping)
        else None
    )
    for candidate in (given, from_schema):
        if isinstance(candidate, str) and candidate.strip():
            return candidate.strip()
    if doc is None:
        doc = getattr(fn, "__doc__", None)
        if type(doc) is not str or "\n" in doc or "\t" in doc:  # one line: what getdoc gives
            doc = inspect.getdoc(fn)
    if isinstance(doc, str) and doc.strip():
        return doc.strip()
    msg = f"{label}: a description is required (docstring or description=)."
    raise ToolDefinitionError(msg)


def compile_checks(
    label: str, parameters: Mapping[str, Any], examples: Mapping[str, Any], validate: bool
) -> Any:
    """The call check (None without validation and defaults), after checking the examples
    and the defaults against it.

    A supplied schema can hold property schemas no check can be made of (``"type": true``,
    ``"enum": null``, a broken ``pattern``): that is a declaration error too.
    """
    try:
        defaults = _defaults(label, parameters)
        misfit = example_misfit(parameters, defaults)
        if misfit is not None:
            msg = f"{label}: the default of {misfit.replace(' must ', ' does not fit: must ', 1)}"
            raise ToolDefinitionError(msg)
        if validate:
            check, misfit = argument_check(parameters, examples, defaults)
        else:
            misfit = example_misfit(parameters, examples)
            check = _fill_only(default_filler(defaults)) if defaults else None
    except ToolDefinitionError:
        raise
    except Exception as exc:
        msg = (
            f"{label}: the schema's properties cannot be turned into argument checks"
            f" ({type(exc).__name__}: {exc}); give each property a JSON Schema 'type' (a name"
            " or a list of names), 'enum' as a list, and 'pattern' as a valid regular expression"
        )
        raise ToolDefinitionError(msg) from exc
    if misfit is not None:
        msg = f"{label}: the example of {misfit.replace(' must ', ' does not fit: must ', 1)}"
        raise ToolDefinitionError(msg)
    return check


def _defaults(label: str, parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The ``default`` of each top-level property that has one (``None`` counts as none:
    an optional argument sent as null is taken as absent anyway). A required argument
    with a default is refused: the model must send it, so its default would never apply."""
    required = parameters.get("required") or ()
    found: dict[str, Any] = {}
    properties: Mapping[str, Any] = parameters["properties"]
    for name, schema in properties.items():
        default: Any = (
            cast("Mapping[str, Any]", schema).get("default")
            if isinstance(schema, Mapping)
            else None
        )
        if default is not None:
            if name in required:
                msg = (
                    f"{label}: argument {name!r} is required and has a default, which would"
                    " never apply (a call without it is refused); drop required=True to let"
                    " the default fill it, or drop the default"
                )
                raise ToolDefinitionError(msg)
            found[name] = default
    return found


def _fill_only(
    fill: Callable[[dict[str, Any]], dict[str, Any]],
) -> Callable[[dict[str, Any]], tuple[dict[str, Any], None]]:
    """The check of a tool declared with ``validate_required=False`` that has defaults:
    nothing is checked, absent defaulted arguments are filled in."""

    def check(args: dict[str, Any]) -> tuple[dict[str, Any], None]:
        return fill(args), None

    return check
