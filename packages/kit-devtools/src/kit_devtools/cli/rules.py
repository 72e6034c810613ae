"""The lint rules of ``hermes-plugin-kit check`` (and ``compat`` and ``preflight``): id ->
severity, what is wrong, the fix, and the host behaviour the rule mirrors.

A rule's severity follows what hermes does with the defect, never the kit's taste:

- **error**: hermes refuses the plugin or the registration, disables the plugin, or the
  thing it registered does not work there (the tool never reaches the model, the call
  fails, the callback never runs);
- **warning**: hermes accepts it and it runs, but the model or the operator suffers (an
  argument the model must guess, a tool some providers reject, a warning at every load);
- **convention**: the kit's own advice; hermes accepts it as it is and nothing breaks.

``mirrors`` says which behaviour, where in hermes (file and lines of hermes-agent 0.19.0
unless another release or upstream commit is named). tests/host/test_rule_severity.py
pins each rule's severity against the real hermes of every registry release. Messages are templates
filled with the details of each finding.

Each rule is declared beside its check, in the module that detects it
(:func:`~kit_devtools.cli.findings.declare`); this module imports every declaring module and
gives the whole table, family by family (:data:`~kit_devtools.cli.findings.FAMILIES`).
"""

from __future__ import annotations

from types import ModuleType
from typing import Final

from kit_devtools.cli import (
    _catalog,
    _commands,
    _compat_source,
    _cron_rules,
    _every_release,
    _load_rules,
    _manifest_rules,
    _memory_contract,
    _preflight,
    _provider_contracts,
    _provider_rules,
    _scan,
    _target,
    _tool_probe,
    _tool_rules,
    _upstream,
    compat,
    lint,
)
from kit_devtools.cli.findings import Rule, declared

__all__ = ["DECLARING", "RULES"]

DECLARING: Final[tuple[ModuleType, ...]] = (
    _load_rules,
    _manifest_rules,
    _target,
    _commands,
    _preflight,
    _upstream,
    _scan,
    _catalog,
    _every_release,
    _tool_rules,
    _tool_probe,
    lint,
    _provider_rules,
    _memory_contract,
    _cron_rules,
    _provider_contracts,
    _compat_source,
    compat,
)
"""The modules that declare rules, each imported here for its declarations."""

RULES: Final[dict[str, Rule]] = declared()
"""Every rule, by id, family by family."""
