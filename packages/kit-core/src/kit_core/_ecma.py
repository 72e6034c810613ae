"""JSON Schema ``pattern`` with the semantics JSON Schema gives it: ECMA-262's, not Python's.

The model and the providers that check tool arguments read a ``pattern`` as an ECMA-262
regular expression (JSON Schema 2020-12, section 6.3.3). Where the two dialects differ
on the same text, the kit follows ECMA-262 by rewriting the pattern for Python's ``re``:

==========  ==========================================  =================================
token       ECMA-262 (no flags)                          Python ``re`` (default)
==========  ==========================================  =================================
``$``       the end of the input only                    also before a final ``\\n``
``\\d``      ``[0-9]``                                    every Unicode decimal digit
``\\w \\b``  ASCII letters, digits and ``_``              every Unicode letter and digit
``\\s``      ASCII and Unicode spaces, ``\\ufeff``         Unicode spaces, no ``\\ufeff``
``.``       not ``\\n``, ``\\r``, ``\\u2028``, ``\\u2029``  only not ``\\n``
``(?<n>``   a named group                                a syntax error (``(?P<n>``)
``\\k<n>``   a back-reference to it                       a syntax error (``(?P=n)``)
==========  ==========================================  =================================
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["compile_ecma"]

_SPACES: Final = (
    "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_OUTSIDE: Final = {
    "$": "\\Z",
    ".": "[^\\n\\r\\u2028\\u2029]",
}
_ESCAPED_OUTSIDE: Final = {"s": f"[{_SPACES}]", "S": f"[^{_SPACES}]"}
_ESCAPED_INSIDE: Final = {"s": _SPACES}


def _translate(pattern: str) -> str:
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            nxt = pattern[index + 1]
            table = _ESCAPED_INSIDE if in_class else _ESCAPED_OUTSIDE
            if nxt in table:
                out.append(table[nxt])
            elif nxt == "k" and not in_class and pattern.startswith("<", index + 2):
                end = pattern.find(">", index + 3)
                if end < 0:
                    out.append(pattern[index : index + 2])
                else:
                    out.append(f"(?P={pattern[index + 3 : end]})")
                    index = end + 1
                    continue
            else:
                out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            if char == "]":
                in_class = False
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
            # a "]" right after "[" or "[^" is a literal in Python, and ECMA's "[]" matches
            # nothing: leave both to Python, which refuses what it cannot read
            if pattern.startswith("^", index + 1):
                out.append("^")
                index += 1
        elif pattern.startswith("(?<", index) and pattern[index + 3 : index + 4] not in ("=", "!"):
            out.append("(?P<")
            index += 3
            continue
        else:
            out.append(_OUTSIDE.get(char, char))
        index += 1
    return "".join(out)


def compile_ecma(pattern: str) -> re.Pattern[str]:
    """``pattern`` (ECMA-262, as JSON Schema reads it) compiled for Python's ``re``.

    Raises:
        re.error: the pattern is not a regular expression Python can run.
    """
    return re.compile(_translate(pattern), re.ASCII)
