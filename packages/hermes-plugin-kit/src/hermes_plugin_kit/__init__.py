"""hermes-plugin-kit: the one import a hermes-agent plugin author needs.

Re-exports the public API of the kit packages, so ``from hermes_plugin_kit import
tool, str_arg, register_all`` works whichever package a name lives in.
"""

# pyright: reportWildcardImportFromLibrary=false
import kit_core
from kit_core import *  # noqa: F403 - the façade is exactly the packages' public names

__all__: list[str] = []
__all__ += kit_core.__all__
