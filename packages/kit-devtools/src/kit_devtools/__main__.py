"""``python -m kit_devtools``: the ``hermes-plugin-kit`` command."""

import sys

from kit_devtools.cli import main

sys.exit(main())
