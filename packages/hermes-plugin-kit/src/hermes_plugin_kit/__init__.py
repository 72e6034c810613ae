"""hermes-plugin-kit: the one import a hermes-agent plugin author needs.

Re-exports the public API of the kit packages, so ``from hermes_plugin_kit import
tool, command, deliver_media, register_plugin`` works whichever package a name lives in.
"""

# pyright: reportWildcardImportFromLibrary=false
import kit_core
import kit_lifecycle
import kit_media
from kit_core import *  # noqa: F403 - the façade is exactly the packages' public names
from kit_lifecycle import *  # noqa: F403
from kit_media import *  # noqa: F403

__all__: list[str] = []
__all__ += kit_core.__all__
__all__ += kit_lifecycle.__all__
__all__ += kit_media.__all__
