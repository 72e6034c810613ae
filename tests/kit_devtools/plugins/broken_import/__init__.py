"""Imports something that does not exist."""

import no_such_module_anywhere  # noqa: F401  # pyright: ignore[reportMissingImports, reportUnusedImport]
