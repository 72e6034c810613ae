"""kit-devtools: author tooling for hermes-agent plugins built with hermes-plugin-kit.

Installed only in a plugin's dev environment (``hermes-plugin-kit[dev]``), never loaded
by hermes:

* :mod:`kit_devtools.testing`: the in-memory host (``InMemoryHost``, ``load_plugin``) and
  tool snapshots (``assert_tool_snapshot``);
* ``kit_devtools.testing.pytest_plugin``: the ``plugin_host`` and ``tool_snapshot``
  fixtures, registered with pytest through this package's ``pytest11`` entry point;
* :mod:`kit_devtools.cli`: the ``hermes-plugin-kit`` command (``check``, ``call``,
  ``new``, ``doctor``), also ``python -m kit_devtools``.
"""

__all__: list[str] = []
