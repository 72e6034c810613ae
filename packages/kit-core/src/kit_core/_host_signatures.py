"""The signatures the host model stores (``HostRelease.context``, ``.functions``), read.

The model keeps each signature as text, ``"(self, name: 'str', *, x: int = 0) -> 'None'"``
(``str(inspect.signature(...))`` of the release's own object): these read which arguments
it takes, for ``compat``'s floor and for the in-memory host, which passes a release's
functions only what they take.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["accepts", "parameters"]

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_BRACKETED = re.compile(r"\[[^\[\]]*\]")


def parameters(signature: str) -> tuple[list[str], set[str], bool, bool]:
    """(positional parameter names, keyword names, takes ``*args``, takes ``**kwargs``) of a
    signature as the host model stores it, ``"(self, name: 'str', ...) -> 'None'"``."""
    inner = _QUOTED.sub("''", signature)
    while _BRACKETED.search(inner):  # Dict[str, Any]: its comma parts no parameter
        inner = _BRACKETED.sub("", inner)
    inner = inner[inner.index("(") + 1 : inner.rindex(")")] if "(" in inner else ""
    positional: list[str] = []
    keywords: set[str] = set()
    var_pos = var_kw = keyword_only = False
    for raw in inner.split(","):
        part = raw.strip().split(":")[0].split("=")[0].strip()
        if not part or part == "self" or part == "/":
            continue
        if part == "*":
            keyword_only = True
        elif part.startswith("**"):
            var_kw = True
        elif part.startswith("*"):
            var_pos = keyword_only = True
        else:
            keywords.add(part)
            if not keyword_only:
                positional.append(part)
    return positional, keywords, var_pos, var_kw


def accepts(signature: str, positional: int, keywords: Iterable[str]) -> bool:
    """Whether a member of this signature takes ``positional`` arguments and ``keywords``
    (``"property"``: read, never called)."""
    if signature == "property":
        return positional == 0 and not tuple(keywords)
    names, known, var_pos, var_kw = parameters(signature)
    if positional > len(names) and not var_pos:
        return False
    return var_kw or all(k in known for k in keywords)
