"""``python -m kit_devtools``: the ``hermes-plugin-kit`` command."""

from kit_devtools._console import console

console()
