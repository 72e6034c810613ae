"""``python -m hermes_plugin_kit``: the command-line tool."""

import sys

from hermes_plugin_kit.cli import main

sys.exit(main())
