"""MkDocs hooks for the documentation site (named in mkdocs.yml).

The packages' docstrings cross-reference with Sphinx roles (``:func:`tool```), which
mkdocstrings' Google-style parser leaves in the text: the role's name would show before
the code. The reference keeps the code and drops the role's name.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):(?=<code>)")


def on_page_content(html: str, **_: Any) -> str:
    return ROLE.sub("", html)
