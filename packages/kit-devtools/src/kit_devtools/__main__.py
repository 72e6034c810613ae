"""``python -m kit_devtools``: the ``hermes-plugin-kit`` command."""

from kit_devtools.cli import console

console()
