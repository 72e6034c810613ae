"""The unit tests' one stand-in for hermes' ``PluginContext``: a context of one modelled
release (``kit_core.hermes``) whose members are that release's, each registrar with the
release's own signature (what ``inspect.signature`` and a bad call see), recording every
call with its arguments bound to hermes' parameter names, defaults applied.

What a test needs of a host beyond recording (hermes' tool registry, its plugin manager,
the gateway) is the in-memory host's (``kit_devtools.testing``) or the real host's
(``tests/host``); this double only stands where the kit talks to a context.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from typing import Any

from kit_core.hermes import HostRelease, registry_release

DEFAULT_RELEASE = "0.19.0"
"""The release a context stands for unless a test names another: the one the unit tests'
expectations were first read from (the real-host suite runs every release)."""


@cache
def signature_of(text: str) -> inspect.Signature:
    """A signature as the model stores it, ``"(self, name: 'str') -> 'None'"``, without
    ``self``."""
    namespace: dict[str, Any] = {}
    exec(f"def member{text}: pass", namespace)  # the model's text: quoted annotations
    parameters = list(inspect.signature(namespace["member"]).parameters.values())
    return inspect.Signature(parameters[1:])


def _needs_a_file(arguments: dict[str, Any]) -> None:
    # hermes' register_skill reads path.exists(): a str fails, a missing file is refused
    if not arguments["path"].exists():
        raise FileNotFoundError(arguments["path"])


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {"register_skill": _needs_a_file}
"""What hermes itself checks of a registrar's arguments before it keeps them."""


class RecordingContext:
    """A ``PluginContext`` of ``release``: its methods (``register_*``, ``dispatch_tool``,
    ...) record ``(member, arguments)`` in :attr:`calls` and return None; a member the
    release lacks is an AttributeError, as on that release."""

    def __init__(self, manifest: Any = None, release: str = DEFAULT_RELEASE) -> None:
        found = registry_release(release)
        assert found is not None, f"hermes {release} is not modelled"
        self.release: HostRelease = found
        self.manifest = manifest
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.given: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        """Each call as it was made: (member, positional arguments, keyword arguments)."""

    def __getattr__(self, name: str) -> Any:
        if name == "release" or name.startswith("__"):  # not set yet (a copy), or a probe
            raise AttributeError(name)
        text = self.release.context.get(name)
        if text is None or not text.startswith("("):
            raise AttributeError(name)
        signature = signature_of(text)

        def member(*args: Any, **kwargs: Any) -> None:
            self.given.append((name, args, kwargs))
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            if name in CHECKS:
                CHECKS[name](arguments)
            self.calls.append((name, arguments))

        member.__name__ = name
        member.__signature__ = signature
        return member

    def called(self, member: str) -> list[dict[str, Any]]:
        """The arguments of each call of ``member``, in order."""
        return [arguments for name, arguments in self.calls if name == member]

    @property
    def tools(self) -> dict[str, dict[str, Any]]:
        """Each registered tool's arguments, by its name."""
        return {call["name"]: call for call in self.called("register_tool")}

    @property
    def hooks(self) -> list[tuple[str, Callable[..., Any]]]:
        """``(hook name, callback)`` of each registered hook."""
        return [(call["hook_name"], call["callback"]) for call in self.called("register_hook")]

    def names(self) -> list[tuple[str, str]]:
        """``(member, what it registered)`` of each call: the name, a hook's or
        middleware's kind."""
        keys = {"register_middleware": "kind", "register_hook": "hook_name"}
        return [
            (member, str(arguments[keys.get(member, "name")])) for member, arguments in self.calls
        ]
