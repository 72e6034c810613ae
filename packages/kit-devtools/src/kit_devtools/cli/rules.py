"""The lint rules of ``hermes-plugin-kit check``: id -> severity, what is wrong, the fix.

Messages are templates filled with the details of each finding.
"""

from __future__ import annotations

from typing import Any, Final

from kit_devtools.cli.findings import Finding, Severity

__all__ = ["RULES", "finding"]

E, W = Severity.ERROR, Severity.WARNING

RULES: Final[dict[str, tuple[Severity, str, str]]] = {
    # plugin and manifest
    "HPK001": (E, "register() raised {error}: hermes disables the whole plugin and keeps"
               " whatever it registered before the error", "fix the error; run check again"),
    "HPK002": (E, "the plugin has no register() function", "define def register(ctx): ..."),
    "HPK003": (E, "the plugin could not be imported: {error}", "fix the import error"),
    "HPK004": (W, "plugin.yaml has no 'kind': hermes re-kinds a plugin whose __init__.py"
               " mentions MemoryProvider or register_provider, and then never loads it",
               "add 'kind: standalone' to plugin.yaml"),
    "HPK005": (W, "plugin.yaml key {key!r} is not one hermes reads: hermes-agent 0.19.0"
               " drops it silently, upstream 0.21 logs it (at debug for a manifest_version 1"
               " file, at warning for 2) and ignores it",
               "remove it (read settings with load_plugin_config)"),
    "HPK006": (E, "the plugin name {name!r} cannot namespace skills: hermes needs"
               " [A-Za-z0-9_-]+", "rename the plugin in plugin.yaml"),
    "HPK007": (E, "the entry point {name!r} names {value!r}, a function: hermes loads the"
               " entry point and expects a module exposing register",
               "point it at the module: {module!r}"),
    "HPK008": (E, "the entry point {name!r} is in group {group!r}, which hermes never scans",
               "declare it under [project.entry-points.\"hermes_agent.plugins\"]"),
    "HPK009": (E, "hermes does not load this plugin: {reason}", "{fix}"),
    "HPK010": (E, "hermes' own loader disagrees with the in-memory host ({differences})",
               "trust hermes; please report the difference to hermes-plugin-kit"),
    "HPK011": (W, "check --real could not run: {why}",
               "install hermes-agent beside the plugin, and point check at its directory"),
    "HPK012": (E, "requires_hermes {spec!r} does not parse: upstream's `hermes plugins"
               " validate` (catalog admission) refuses it, and upstream's loader, which skips"
               " a clause it cannot parse, enforces nothing",
               "write version clauses, e.g. requires_hermes: \">={floor}\" (or"
               " \">={floor}, <1.0\")"),
    "HPK013": (W, "requires_hermes is the YAML {kind} {value!r}, which hermes reads as"
               " {read!r}", "quote it, e.g. requires_hermes: \">={floor}\""),
    "HPK014": (W, "requires_hermes {spec!r} excludes {host}, which does not read the field"
               " (only upstream 0.21 enforces it) and loads the plugin anyway",
               "make the plugin work there too, or tell its operators which hermes it needs"),
    "HPK015": (E, "config_schema {problem}: upstream's `hermes plugins validate` refuses the"
               " plugin (hermes-agent 0.19.0 ignores config_schema)",
               "declare each setting as {{type: str|int|float|bool|list|dict, default: ...,"
               " required: true|false, description: ...}}"),
    "HPK016": (W, "config_schema.{key}: type {type!r} passes `hermes plugins validate`, but"
               " upstream's loader does not know it: it warns at every load and never checks"
               " that setting's type", "write type: dict"),
    "HPK017": (E, "manifest_version {value!r}: {why}; `hermes plugins install` refuses the"
               " plugin on every release through 0.21.3 (its installer accepts integers up"
               " to 1; the loader reads up to 2)",
               "write manifest_version: 1, or leave it out (absent means 1)"),
    # preflight: the catalogue's admission (hermes plugins validate, doctor)
    "HPK050": (E, "plugin.yaml cannot be read: {why}; `hermes plugins validate` refuses the"
               " plugin", "add a plugin.yaml mapping with name, version and description"),
    "HPK051": (E, "plugin.yaml has no {fields}: `hermes plugins validate` refuses the plugin",
               "add them (name, version and description must all be non-empty)"),
    "HPK052": (E, "requires_env {problem}: `hermes plugins validate` refuses the plugin",
               "list environment variable names in UPPER_SNAKE_CASE, as strings or as"
               " {{name: ...}} mappings"),
    "HPK053": (E, "register() did not run for the capability probe ({error}):"
               " `hermes plugins validate` refuses the plugin",
               "make the plugin import and register() with no settings and no network"),
    "HPK054": (E, "registers {kind} that {key} does not declare: {names};"
               " `hermes plugins validate` refuses the plugin",
               "declare them in {key} (hermes-plugin-kit preflight --write does it)"),
    "HPK055": (W, "{key} declares {kind} that register() does not register: {names};"
               " `hermes plugins validate` warns", "remove them from {key}"
               " (hermes-plugin-kit preflight --write does it), or register them"),
    "HPK056": (E, "tool names taken by hermes' built-in tools: {names};"
               " `hermes plugins validate` refuses the plugin",
               "rename the tools with your plugin's namespace"),
    "HPK057": (E, "{key} {problem}: `hermes plugins doctor` reports an error",
               "write {key} as a list of names (hermes-plugin-kit preflight --write)"),
    "HPK058": (E, "hermes' own `{command}` fails: {detail}", "{fix}"),
    "HPK059": (W, "hermes' own `{command}` warns: {detail}", "{fix}"),
    # tool schema
    "HPK101": (E, "the schema is a {kind}, not the function object hermes sends to the model",
               "pass {{'name', 'description', 'parameters': {{'type': 'object', ...}}}}"),
    "HPK102": (E, "the schema is wrapped twice: hermes adds the {{'type': 'function',"
               " 'function': ...}} envelope itself", "pass only the inner function object"),
    "HPK103": (E, "{keys} stand outside 'parameters': the model receives a tool with no"
               " arguments", "move them under schema['parameters']"),
    "HPK104": (E, "the schema has no description: the model sees only schema['description']"
               " (register_tool's description= never reaches it)", "set schema['description']"),
    "HPK105": (E, "'parameters' is not an object schema ({problem}): hermes sends the tool"
               " with no arguments",
               "use 'parameters': {{'type': 'object', 'properties': {{...}}}}"),
    "HPK106": (E, "'required' names {names}, which 'properties' does not define; hermes"
               " drops them, so the model is never told",
               "define those properties or drop them from 'required'"),
    "HPK107": (W, "the argument has no description, so the model guesses what to pass",
               "add a 'description' (str_arg('...') requires one)"),
    "HPK108": (W, "$ref is rejected or mangled by some model providers",
               "inline the referenced schema"),
    "HPK109": (W, "an array without 'items' is rejected by some model providers (Gemini among"
               " them)", "add 'items', e.g. {{'type': 'string'}}"),
    # tool name, toolset, handler
    "HPK111": (E, "model providers accept only letters, digits, '_' and '-' in function"
               " names, at most 64 characters", "rename it <namespace>_<verb>_<noun>"),
    "HPK112": (E, "{why}, so the model can never reach the plugin's tool",
               "give it your plugin's namespace, e.g. {suggestion}"),
    "HPK113": (W, "the name is not lowercase snake_case", "use tool_name(namespace, verb, noun)"),
    "HPK114": (W, "the name has no namespace: one registry holds every plugin's tools and"
               " hermes' own", "name it {suggestion}"),
    "HPK115": (W, "toolset {toolset!r} is one of hermes' own: the tool is merged into it and"
               " switched on and off with it", "use a toolset named after your plugin"),
    "HPK116": (E, "hermes refused the tool: {message}", "rename it; built-in names are taken"),
    "HPK121": (E, "the handler cannot take (args, **kwargs): hermes passes the arguments"
               " positionally and task_id, session_id and user_task as keywords",
               "define it as def handler(args, **kwargs)"),
    "HPK122": (E, "an async def handler registered without is_async=True returns an"
               " un-awaited coroutine, which hermes turns into an error",
               "pass is_async=True to register_tool"),
    "HPK123": (W, "is_async=True but the handler is not async def",
               "drop is_async or make the handler async"),
    "HPK131": (E, "called with {called_with} the handler raised {error}: the model sees"
               " hermes' generic tool error", "validate arguments and return an error envelope"),
    "HPK133": (W, "called with {called_with} the handler raised; the kit answered the model"
               " with an error envelope: {error}", "if those arguments are valid, fix the"
               " handler; if it refuses them on purpose, narrow the schema (enum, bounds,"
               " pattern) or declare an example, so the model is not invited to send them"),
    "HPK132": (E, "called with {called_with} the tool returned {kind}, not a JSON string:"
               " hermes replaces it with a tool_result_contract error",
               "return json.dumps(...) (kit tools do this for you)"),
    # commands
    "HPK201": (E, "'_' in a command name: messaging platforms look commands up with '_'"
               " turned into '-', so /{name} is unreachable there", "use {suggestion}"),
    "HPK202": (E, "hermes skipped the command: {message}", "choose another name"),
    "HPK203": (E, "the handler cannot take the {what}", "give it one positional parameter"),
    "HPK204": (E, "'hermes {name}' is a built-in subcommand: hermes never looks for a plugin"
               " command with that name", "choose another name"),
    "HPK205": (E, "the CLI command has no setup_fn: hermes calls setup_fn(subparser)"
               " unconditionally and the failure hides the command",
               "pass setup_fn=lambda parser: None"),
    # hooks and middleware
    "HPK301": (E, "the callback does not take **kwargs: hermes adds keywords"
               " (telemetry_schema_version at least), the TypeError is swallowed and the"
               " callback silently never runs", "add **kwargs to its parameters"),
    "HPK302": (E, "hermes-agent 0.19.0 calls hooks and middleware synchronously: an async def"
               " body never runs (or its coroutine becomes the result)", "make it a plain def"),
    "HPK303": (E, "{surface} {name!r} is not one hermes knows: it is stored and never called",
               "{known}"),
    # skills
    "HPK401": (E, "the skill path {path} is not a SKILL.md file hermes can register ({why})",
               "point plugin_skill/register_skill at the SKILL.md file itself"),
    # compat: what stops a plugin loading on some hermes, and its floor
    "HPK501": (E, "uses {name}, a name upstream hermes moved or deleted (its Sep 2026"
               " decomposition): from 2026-09-14 upstream's loader skips a plugin whose"
               " source uses one (hermes_cli/plugin_compat.py), unless the operator sets"
               " plugins.allow_deprecated_imports: true",
               "import it from the module it moved to (upstream's compat_manifest.json names"
               " it), or do without it"),
    "HPK502": (E, "plugin.yaml has no 'kind' and the first 8192 characters of __init__.py"
               " contain {marker!r} (line {line}): hermes re-kinds the plugin as {kind!r}"
               " ({what}) and its general plugin loader never imports it",
               "add 'kind: standalone' to plugin.yaml (a real {what} states 'kind: {kind}')"),
    "HPK503": (E, "register_skill got a {type} path: hermes calls path.exists() on it, so"
               " register() raises AttributeError and hermes disables the whole plugin",
               "pass a pathlib.Path, e.g. Path(__file__).parent / 'skills' / '<name>' /"
               " 'SKILL.md' (plugin_skill(...) does this for you)"),
    "HPK504": (E, "absolute import of the plugin's own package ({statement}): hermes"
               " imports a directory plugin as hermes_plugins.{slug}, so {top!r} is not"
               " importable there (it works only where the plugin's parent folder is on"
               " sys.path, as in its own tests)", "import it relatively: {suggestion}"),
    "HPK505": (W, "{what} is offered by no release of the package registry, only by {label}",
               "require that release (requires_hermes: \">={version}\") or do without it"),
    "HPK506": (E, "{what} is offered by no hermes release the kit knows",
               "remove it; check the name against hermes' documentation"),
    "HPK510": (W, "plugin.yaml has no requires_hermes: upstream hermes loads the plugin on"
               " any release, and an operator cannot tell that it needs {floor} or later",
               "add requires_hermes: \">={floor}\""),
    "HPK511": (W, "requires_hermes {spec!r} admits hermes-agent {below}, older than the"
               " plugin's floor {floor} ({reason})",
               "raise it: requires_hermes: \">={floor}\""),
}  # fmt: skip


def finding(rule: str, where: str, **details: Any) -> Finding:
    """A finding of ``rule`` at ``where``, its texts filled with ``details``."""
    severity, message, fix = RULES[rule]
    return Finding(rule, severity, where, message.format(**details), fix.format(**details))
