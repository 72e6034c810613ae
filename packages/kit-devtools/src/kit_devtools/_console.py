"""The ``hermes-plugin-kit`` entry point: the command, or why the kit cannot start.

A mix of kit builds is refused when ``kit_core`` is imported, and the command imports it:
the refusal (naming each build and the fix) is then the command's whole answer, status 2,
not a traceback; ``doctor`` still reports each kit package's build (read without
importing ``kit_core``: ``kit_devtools._builds``) with that refusal, status 1.
"""

from __future__ import annotations

import sys
from typing import NoReturn


def console() -> NoReturn:
    try:
        from kit_devtools.cli import console as command
    except ImportError as exc:
        if "cannot start" not in str(exc):
            raise
        if sys.argv[1:] == ["doctor"]:
            from kit_devtools._builds import report

            lines, _ = report()
            print("\n".join(lines))
            print(f"error: {exc}")
            sys.exit(1)
        print(f"hermes-plugin-kit: {exc}", file=sys.stderr)
        sys.exit(2)
    command()
