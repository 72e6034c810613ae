"""Register a plugin directory with a recording context, show its tools, call one.

Usage: python scripts/show_plugin.py PLUGIN_DIR [TOOL ARGS_JSON]
"""

from __future__ import annotations

import json
import sys

from hermes_plugin_kit.testing import RecordingContext, load_plugin


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 3):
        print(__doc__, file=sys.stderr)
        return 2
    plugin = load_plugin(argv[0])
    ctx = RecordingContext(plugin_name=argv[0].rstrip("/").rsplit("/", 1)[-1])
    plugin.register(ctx)
    print(f"# {len(ctx.tools)} tool(s) as the model receives them")
    print(json.dumps(ctx.definitions(), indent=2, ensure_ascii=False))
    if len(argv) == 3:
        name, raw = argv[1], argv[2]
        print(f"\n# {name}({raw})")
        print(ctx.call(name, json.loads(raw), task_id="example", session_id="example"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
