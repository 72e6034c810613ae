"""MkDocs hooks for the documentation site (named in mkdocs.yml).

The packages' docstrings cross-reference with Sphinx roles (``:func:`tool```), which
mkdocstrings' Google-style parser leaves in the text: the role's name would show before
the code. The reference keeps the code and drops the role's name.

``<!-- rules-table -->`` in a page becomes the table of ``check``'s rules, made from
``kit_devtools.cli.rules.RULES`` (every rule's severity, text and the hermes behaviour it
mirrors, each declared beside its check and collected there).
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):(?=<code>)")


RULES_MARKER = "<!-- rules-table -->"
FIELD = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def _text(template: str) -> str:
    """A rule's message or fix with its details shown as ``…``, ready for a table cell."""
    shown = FIELD.sub(lambda m: {"{{": "{", "}}": "}"}.get(m.group(0), "…"), template)
    return shown.replace("|", "\\|")


def rules_table() -> str:
    from kit_devtools.cli.rules import RULES

    lines = ["| rule | severity | what is wrong | the fix | the hermes behaviour it mirrors |",
             "|---|---|---|---|---|"]  # fmt: skip
    for rule, (severity, message, fix, mirrors) in RULES.items():
        lines.append(
            f"| {rule} | {severity} | {_text(message)} | {_text(fix)} | {_text(mirrors)} |"
        )
    return "\n".join(lines)


def on_page_markdown(markdown: str, **_: Any) -> str:
    if RULES_MARKER in markdown:
        return markdown.replace(RULES_MARKER, rules_table())
    return markdown


def on_page_content(html: str, **_: Any) -> str:
    return ROLE.sub("", html)
