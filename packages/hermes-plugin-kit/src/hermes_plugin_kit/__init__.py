"""hermes-plugin-kit: the one import a hermes-agent plugin author needs.

Re-exports the public API of the kit packages, so ``from hermes_plugin_kit import
tool, command, deliver_media, register_plugin`` works whichever package a name lives in.
"""

# pyright: reportWildcardImportFromLibrary=false
from hermes_plugin_kit._versions import check_versions

check_versions()  # several plugins share one environment: refuse a mix of kit versions

import kit_core  # noqa: E402
import kit_lifecycle  # noqa: E402
import kit_media  # noqa: E402
from kit_core import *  # noqa: E402, F403 - the façade is exactly the packages' public names
from kit_lifecycle import *  # noqa: E402, F403
from kit_media import *  # noqa: E402, F403

__all__: list[str] = []
__all__ += kit_core.__all__
__all__ += kit_lifecycle.__all__
__all__ += kit_media.__all__
