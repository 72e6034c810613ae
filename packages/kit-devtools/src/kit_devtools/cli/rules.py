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
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from kit_core.redaction import redact_text
from kit_devtools.cli.findings import Finding, Severity

__all__ = ["RULES", "Rule", "finding"]


class Rule(NamedTuple):
    """One rule: how bad, what is wrong, the fix, and the hermes behaviour it mirrors."""

    severity: Severity
    message: str
    fix: str
    mirrors: str


E, W, C = Severity.ERROR, Severity.WARNING, Severity.CONVENTION
_VALIDATE = ("upstream's `hermes plugins validate` (hermes_cli/plugin_validate.py"
             " @00067189), the catalogue's admission, fails on it")  # fmt: skip
_SCAN = ("hermes' own install scan (scan_plugin and should_allow_plugin_install,"
         " tools/plugin_guard.py), run on the plugin tree")  # fmt: skip
_NEVER_LOADED = "hermes' general loader never imports the plugin"

RULES: Final[dict[str, Rule]] = {
    # plugin and manifest
    "HPK001": Rule(E, "register() raised {error}: hermes disables the whole plugin and keeps"
                   " whatever it registered before the error", "fix the error; run check again",
                   "_load_plugin catches the exception and records the plugin as not enabled"
                   " with its error (hermes_cli/plugins.py 1748-1830)"),
    "HPK002": Rule(E, "the plugin has no register() function", "define def register(ctx): ...",
                   "_load_plugin records 'no register() function' and does not enable it"
                   " (hermes_cli/plugins.py 1770-1775)"),
    "HPK003": Rule(E, "the plugin could not be imported: {error}", "fix the import error",
                   "an exception while importing the plugin module leaves it not enabled,"
                   " with the error recorded (hermes_cli/plugins.py 1748-1830)"),
    "HPK004": Rule(C, "plugin.yaml has no 'kind': hermes loads it as standalone today, but"
                   " re-kinds a plugin without 'kind' the day the first 8 KB of its"
                   " __init__.py mention MemoryProvider or register_memory_provider (or both"
                   " register_provider and ProviderProfile), and then stops loading it",
                   "add 'kind: standalone' to plugin.yaml",
                   "_parse_manifest's text test on a manifest without 'kind'"
                   " (hermes_cli/plugins.py 1594-1627); without those words hermes loads the"
                   " plugin as standalone"),
    "HPK005": Rule(W, "plugin.yaml key {key!r} is not one hermes reads: hermes-agent 0.19.0"
                   " drops it silently, upstream 0.21 logs it (at debug for a manifest_version"
                   " 1 file, at warning for 2) and ignores it",
                   "remove it (read settings with load_plugin_config)",
                   "_parse_manifest keeps only PluginManifest's fields (hermes_cli/plugins.py"
                   " 1563-1652); upstream's plugins_manifest.py L32-39 @00067189 logs the"
                   " rest: the plugin loads, the setting is lost"),
    "HPK006": Rule(E, "the plugin name {name!r} cannot namespace skills: hermes registers"
                   " them as '{name}:<skill>', but skill_view refuses a namespace outside"
                   " [A-Za-z0-9_-]+, so they can never be loaded",
                   "rename the plugin in plugin.yaml",
                   "register_skill checks only the skill's own name and stores"
                   " '<plugin name>:<skill>' (hermes_cli/plugins.py 1198-1241); skill_view"
                   " answers 'Invalid namespace' for it (tools/skills_tool.py 1002-1016)"),
    "HPK007": Rule(E, "the entry point {name!r} names {value!r}, which has no register:"
                   " hermes loads the entry point, reads register from what it gives, and"
                   " records 'no register() function' (through 0.21.4; from 0.21.5 hermes"
                   " calls a callable it gives)",
                   "point it at the module: {module!r}",
                   "_load_entrypoint_module returns ep.load() and the loader reads"
                   " .register from it, so a function gives 'no register() function' and"
                   " an object with a register loads (hermes_cli/plugins.py 1772,"
                   " 1870-1886); 0.21.5 calls a callable result (plugins_loader.py ~L462)"),
    "HPK008": Rule(E, "the entry point {name!r} is in group {group!r}, which hermes never"
                   " scans", "declare it under [project.entry-points.\"hermes_agent.plugins\"]",
                   "_scan_entry_points reads only the group 'hermes_agent.plugins'"
                   " (hermes_cli/plugins.py 217, 1658-1682)"),
    "HPK009": Rule(E, "hermes does not load this plugin: {reason}", "{fix}",
                   "discovery and _parse_manifest: no plugin.yaml, a manifest that does not"
                   " parse or whose name is not a string, or a kind the general loader"
                   " records without importing (hermes_cli/plugins.py 1380-1476, 1507-1652)"),
    "HPK010": Rule(E, "hermes' own loader disagrees with the in-memory host ({differences})",
                   "trust hermes; please report the difference to hermes-plugin-kit",
                   "--real: PluginManager.list_plugins() after hermes' own discovery, in a"
                   " process of its own"),
    "HPK011": Rule(W, "check --real could not run: {why}",
                   "install hermes-agent beside the plugin, and point check at its directory",
                   "--real could not ask hermes' own loader; the in-memory verdict stands"
                   " alone"),
    "HPK012": Rule(E, "requires_hermes {spec!r} does not parse: upstream's `hermes plugins"
                   " validate` (catalog admission) refuses it, and upstream's loader, which"
                   " skips a clause it cannot parse, enforces nothing",
                   "write version clauses, e.g. requires_hermes: \">={floor}\" (or"
                   " \">={floor}, <1.0\")",
                   "_check_requires_hermes and _requires_hermes_spec_valid"
                   " (hermes_cli/plugin_validate.py L74-121 @00067189)"),
    "HPK013": Rule(W, "requires_hermes is the YAML {kind} {value!r}, which hermes reads as"
                   " {read!r}", "quote it, e.g. requires_hermes: \">={floor}\"",
                   "upstream reads the YAML value with str(): the plugin loads, with a floor"
                   " other than the author meant (hermes_cli/plugins_manifest.py L479 @00067189)"),
    "HPK014": Rule(W, "requires_hermes {spec!r} excludes {host}, which does not read the"
                   " field (hermes enforces it from 0.21.3) and loads the plugin anyway",
                   "make the plugin work there too, or tell its operators which hermes it"
                   " needs", "registry releases drop requires_hermes with the other unknown"
                   " keys (hermes_cli/plugins.py 1563-1652) and load the plugin"),
    "HPK015": Rule(E, "config_schema {problem}: upstream's `hermes plugins validate` refuses"
                   " the plugin (hermes-agent 0.19.0 ignores config_schema)",
                   "declare each setting as {{type: str|int|float|bool|list|dict, default:"
                   " ..., required: true|false, description: ...}}",
                   "_check_config_spec (hermes_cli/plugin_validate.py L124-154 @00067189)"),
    "HPK016": Rule(W, "config_schema.{key}: type {type!r} passes `hermes plugins validate`,"
                   " but upstream's loader does not know it: it warns at every load and never"
                   " checks that setting's type", "write type: dict",
                   "doctor's _check_manifest_v2 and the loader's type table"
                   " (hermes_cli/plugin_dev.py @2a7b56dd): the plugin loads, with a warning"),
    "HPK017": Rule(E, "manifest_version {value!r}: {why}; `hermes plugins install` on"
                   " {release} refuses the plugin (its installer accepts integers up to"
                   " {limit}: 1 through 0.21.3, 2 from 0.21.4; the loader reads up to 2)",
                   "write manifest_version: 1, or leave it out (absent means 1)",
                   "the installer's manifest check (hermes_cli/plugins_cmd.py 507-523 of"
                   " 0.19.0, _check_manifest_version of 0.21.3; the loader's limit from"
                   " 0.21.4, pm/plugin_declarations.py manifest_version_error of 0.22.2);"
                   " the loader itself loads the plugin"),
    "HPK018": Rule(W, "the plugin imports {module}, a hermes module the in-memory host does"
                   " not model, and hermes-agent is not installed here: {error}",
                   "install hermes-agent beside the plugin (pip install hermes-agent) to"
                   " check this plugin",
                   "not a defect: in hermes the module is there; the check could not be"
                   " made here"),
    "HPK019": Rule(E, "the entry point {name!r} of {dist} ({value}) has this plugin's name:"
                   " hermes discovers entry points after plugin directories and keeps the"
                   " last plugin of a name, so beside that package this directory never loads"
                   " (through 0.21.3; from 0.21.4 the directory keeps its name)",
                   "rename the plugin in plugin.yaml, or install only one of the two",
                   "_discover_and_load_inner keeps the last manifest of each key, entry"
                   " points last (winners, hermes_cli/plugins.py 1317-1384 of 0.19.0);"
                   " 0.21.4 drops entry points named in directory_keys"),
    # preflight: the catalogue's admission (hermes plugins validate, doctor)
    "HPK020": Rule(E, "the kit does not read {file}: {why}", "{fix}",
                   "the kit's own bounds (kit_devtools.testing._manifest MAX_BYTES, MAX_VALUES):"
                   " hermes reads plugin.yaml with yaml.safe_load, unbounded, so it gives no"
                   " verdict here; refused so that no check passes unread"),
    "HPK050": Rule(E, "plugin.yaml cannot be read: {why}; `hermes plugins validate` refuses"
                   " the plugin", "add a plugin.yaml mapping with name, version and"
                   " description", f"{_VALIDATE} (validate_plugin_dir L407-455)"),
    "HPK051": Rule(E, "plugin.yaml has no {fields}: `hermes plugins validate` refuses the"
                   " plugin", "add them (name, version and description must all be"
                   " non-empty)", f"{_VALIDATE} (_check_manifest_fields L94-105)"),
    "HPK052": Rule(E, "requires_env {problem}: `hermes plugins validate` refuses the plugin",
                   "list environment variable names in UPPER_SNAKE_CASE, as strings or as"
                   " {{name: ...}} mappings", f"{_VALIDATE} (_check_requires_env L157-178)"),
    "HPK053": Rule(E, "register() did not run for the capability probe ({error}):"
                   " `hermes plugins validate` refuses the plugin",
                   "make the plugin import and register() with no settings and no network",
                   f"{_VALIDATE} (_check_capabilities L319-363)"),
    "HPK054": Rule(E, "registers {kind} that {key} does not declare: {names};"
                   " `hermes plugins validate` refuses the plugin",
                   "declare them in {key} (hermes-plugin-kit preflight --write does it)",
                   f"{_VALIDATE} (_check_capabilities L319-363)"),
    "HPK055": Rule(W, "{key} declares {kind} that register() does not register: {names};"
                   " `hermes plugins validate` warns", "remove them from {key}"
                   " (hermes-plugin-kit preflight --write does it), or register them",
                   "validate warns and admits the plugin (_check_capabilities L319-363,"
                   " hermes_cli/plugin_validate.py @00067189)"),
    "HPK056": Rule(E, "tool names taken by hermes' built-in tools: {names};"
                   " `hermes plugins validate` refuses the plugin",
                   "rename the tools with your plugin's namespace",
                   f"{_VALIDATE} (_check_builtin_collisions L382-401)"),
    "HPK057": Rule(E, "{key} {problem}: `hermes plugins doctor` reports an error",
                   "write {key} as a list of names (hermes-plugin-kit preflight --write)",
                   "doctor_plugin (hermes_cli/plugin_dev.py @2a7b56dd) reports it as an"
                   " error"),
    "HPK058": Rule(E, "hermes' own `{command}` fails: {detail}", "{fix}",
                   "the installed hermes' own command, run on the plugin"),
    "HPK059": Rule(W, "hermes' own `{command}` warns: {detail}", "{fix}",
                   "the installed hermes' own command, run on the plugin"),
    "HPK060": Rule(E, "hermes' install scan finds {pattern} (critical): {description};"
                   " `hermes plugins install` refuses the plugin, and --force does not"
                   " override it", "{fix}", _SCAN),
    "HPK061": Rule(W, "hermes' install scan finds {pattern} (high): {description};"
                   " `hermes plugins install` asks the user to confirm", "{fix}", _SCAN),
    "HPK062": Rule(W, "hermes' install scan: {detail}", "run preflight --scan where a hermes"
                   " with tools/plugin_guard.py is installed, or pass --scan-with 0.22.2",
                   "the install scan is hermes' own (tools/plugin_guard.py); without it the"
                   " verdict is the kit's approximation or missing"),
    "HPK063": Rule(E, "hermes' catalogue loader refuses the entry: {problem}", "{fix}",
                   "hermes_cli/plugin_catalog.py entry_from_mapping (0.21.3 on) logs the"
                   " problem and drops the entry: the plugin is not in the catalogue"),
    "HPK064": Rule(E, "the pin {sha} {problem}", "{fix}", "installing from the catalogue"
                   " clones the repository and checks out exactly the pinned commit"
                   " (plugin-catalog/README.md, admission rule 2): a commit the repository"
                   " does not hold cannot be installed"),
    "HPK065": Rule(W, "the pinned commit is {days} days old; the catalogue asks for a pin at"
                   " least 14 days old", "pin an older pushed commit (--sha), or submit the"
                   " entry on or after {ready}", "a maintainer-reviewed rule of the catalogue"
                   " (plugin-catalog/README.md, rule 3, pin maturity); the loader itself"
                   " does not check it"),
    "HPK066": Rule(W, "{directory} has changes the pinned commit does not: the entry's"
                   " capabilities are what the working tree registers", "commit and push"
                   " them and pin that commit, or run preflight on a checkout of the pin",
                   "validation compares the capabilities with what the plugin registers at"
                   " the pinned commit (plugin-catalog/README.md, rule 6)"),
    "HPK067": Rule(W, "hermes' catalogue loader ignores part of the entry: {problem}",
                   "{fix}", "hermes_cli/plugin_catalog.py entry_from_mapping keeps the entry"
                   " and drops the field it logs (a version label, an image)"),
    "HPK068": Rule(W, "preflight and check could not run on a release requires_hermes"
                   " admits: {why}", "make its environment (check DIR --hermes RELEASE makes"
                   " it), or narrow requires_hermes to the releases the plugin supports",
                   "the catalogue entry claims every release its requires_hermes admits"
                   " (plugin-catalog/README.md); this one was not checked"),
    # tool schema
    "HPK101": Rule(E, "the schema is a {kind}, not the function object hermes sends to the"
                   " model", "pass {{'name', 'description', 'parameters': {{'type': 'object',"
                   " ...}}}}", "register_tool reads the schema with .get(): a str or a list"
                   " raises there, which disables the plugin (HPK001); an object with get()"
                   " that is no mapping is registered, then get_definitions fails on it"
                   " ('not a mapping', tools/registry.py) and no tool reaches the model"),
    "HPK102": Rule(E, "the schema is wrapped twice: hermes adds the {{'type': 'function',"
                   " 'function': ...}} envelope itself", "pass only the inner function object",
                   "get_definitions wraps the schema again (tools/registry.py): the function"
                   " has no name or parameters the model can use"),
    "HPK103": Rule(E, "{keys} stand outside 'parameters': the model receives a tool with no"
                   " arguments", "move them under schema['parameters']",
                   "get_definitions sends schema['parameters'] only (tools/registry.py)"),
    "HPK104": Rule(W, "the schema has no description: the model sees only"
                   " schema['description'] (register_tool's description= never reaches it),"
                   " so it guesses what the tool does", "set schema['description']",
                   "get_definitions sends the schema's own description (tools/registry.py),"
                   " empty: the tool reaches the model and its calls work;"
                   " register_tool's description= is kept for listings only"),
    "HPK105": Rule(E, "'parameters' is not an object schema ({problem}): hermes sends the"
                   " tool with no arguments",
                   "use 'parameters': {{'type': 'object', 'properties': {{...}}}}",
                   "get_definitions normalises a parameters value that is not an object"
                   " schema (tools/registry.py)"),
    "HPK106": Rule(E, "'required' names {names}, which 'properties' does not define; hermes"
                   " drops them, so the model is never told",
                   "define those properties or drop them from 'required'",
                   "get_definitions prunes 'required' to the defined properties"
                   " (tools/registry.py)"),
    "HPK107": Rule(W, "the argument has no description, so the model guesses what to pass",
                   "add a 'description' (str_arg('...') requires one)",
                   "hermes sends the argument as it is: the call works, the model guesses"),
    "HPK108": Rule(W, "$ref is rejected or mangled by some model providers",
                   "inline the referenced schema",
                   "hermes sends $ref through unchanged; some providers refuse the request"),
    "HPK109": Rule(W, "an array without 'items' is rejected by some model providers (Gemini"
                   " among them)", "add 'items', e.g. {{'type': 'string'}}",
                   "hermes sends the array schema unchanged; some providers refuse it"),
    # tool name, toolset, handler
    "HPK111": Rule(E, "model providers accept only letters, digits, '_' and '-' in function"
                   " names, at most 64 characters", "rename it <namespace>_<verb>_<noun>",
                   "hermes registers the name as it is and sends it to the model; the"
                   " provider refuses every request that carries it"),
    "HPK112": Rule(E, "{why}, so the model can never reach the plugin's tool",
                   "give it your plugin's namespace, e.g. {suggestion}",
                   "the agent loop answers these names before the registry"
                   " (model_tools.py 606, 1167-1168; agent/tool_executor.py 1247-1474);"
                   " tool_search, tool_describe and tool_call from 0.16.0, when hermes'"
                   " tool-search bridge came (tools/tool_search.py); before, they were free"),
    "HPK113": Rule(C, "the name is not lowercase snake_case",
                   "use tool_name(namespace, verb, noun)",
                   "the kit's naming convention: hermes accepts any provider-valid name"),
    "HPK114": Rule(C, "the name has no namespace: one registry holds every plugin's tools and"
                   " hermes' own", "name it {suggestion}",
                   "the kit's naming convention: hermes accepts it until another plugin"
                   " takes the same name (the later one is refused)"),
    "HPK115": Rule(W, "toolset {toolset!r} is one of hermes' own: the tool is merged into it"
                   " and switched on and off with it",
                   "use a toolset named after your plugin",
                   "a plugin toolset named like a static one is not a plugin toolset"
                   " (toolsets.py 790-804): the operator cannot switch it on its own"),
    "HPK116": Rule(E, "hermes refused the tool: {message}",
                   "rename it; built-in names are taken",
                   "register_tool refuses a name a built-in or another plugin holds"
                   " (hermes_cli/plugins.py 391-472, tools/registry.py)"),
    "HPK117": Rule(C, "the memory_ prefix is the kit's convention for hermes' own memory"
                   " tools: hermes reserves exact names only and runs this tool, but an"
                   " active memory provider's tool of the same name shadows it",
                   "if the tool is not a memory provider's, name it {suggestion}",
                   "model_tools._AGENT_LOOP_TOOLS (model_tools.py 606) holds exact names;"
                   " the agent loop also answers the active memory provider's tools first"
                   " (agent/tool_executor.py 1247-1474)"),
    "HPK118": Rule(C, "with the tool-search bridge, on by default on {release}, the model"
                   " picks tools from one line each, and this tool's reads {line!r}: {why}",
                   "start the description with one short sentence saying what the tool"
                   " does and to what (the model sees 60 characters of it), details after"
                   " it",
                   "tool_search's description lists each deferred tool as '<name>: <first"
                   " sentence>' clipped to 60 characters (tools/tool_search.py _short_desc,"
                   " 0.20.0 on); the full schema comes only through tool_describe"),
    "HPK121": Rule(E, "the handler cannot take (args, **kwargs): hermes passes the arguments"
                   " positionally and task_id, session_id and user_task as keywords",
                   "define it as def handler(args, **kwargs)",
                   "registry.dispatch calls handler(args, **kwargs) and turns the TypeError"
                   " into a tool error (tools/registry.py 615-644)"),
    "HPK122": Rule(E, "an async def handler registered without is_async=True returns an"
                   " un-awaited coroutine, which hermes turns into an error",
                   "pass is_async=True to register_tool",
                   "registry.dispatch calls the handler without awaiting and rejects the"
                   " coroutine result (tools/registry.py 615-644)"),
    "HPK123": Rule(E, "is_async=True but the handler is not async def: hermes hands its"
                   " result to an event loop, which refuses a string, so every call fails",
                   "drop is_async or make the handler async",
                   "registry.dispatch runs _run_async(handler(...)) for is_async tools"
                   " (tools/registry.py 627-629, model_tools.py 88-140)"),
    "HPK124": Rule(W, "the handler names hermes' keywords ({keywords}) instead of taking"
                   " **kwargs: it works on this hermes, and every call fails on a release"
                   " that passes one more", "add **kwargs to its parameters",
                   "registry.dispatch(name, args, task_id=..., session_id=..., user_task=...)"
                   " (model_tools.py 1272-1278); the keywords grew between releases (the host"
                   " model's tool_keywords)"),
    "HPK125": Rule(E, "the handler returns a dict ({at}: {statement}), not the JSON string"
                   " hermes expects: hermes replaces it with a tool_result_contract error, so"
                   " the model never gets the result",
                   "return json.dumps(...) of it, or declare the tool with @tool (the kit"
                   " encodes what the handler returns)",
                   "_normalize_handler_result refuses a result that is not a string or a"
                   " multimodal envelope (tools/registry.py); before 0.19.0 hermes hands the"
                   " dict itself on where the agent loop expects the tool message's text;"
                   " read from the handler's source, without running it"),
    "HPK131": Rule(E, "called with {called_with} the handler raised {error}: hermes logs a"
                   " traceback and the call fails with its tool error ('Tool execution"
                   " failed: ...')",
                   "validate arguments and return an error envelope",
                   "registry.dispatch catches the exception and answers 'Tool execution"
                   " failed' (tools/registry.py 632-644)"),
    "HPK132": Rule(E, "called with {called_with} the tool returned {kind}, not a JSON string:"
                   " hermes replaces it with a tool_result_contract error",
                   "return json.dumps(...) (kit tools do this for you)",
                   "_normalize_handler_result refuses a result that is not a string or a"
                   " multimodal envelope (tools/registry.py); before 0.19.0 hermes hands the"
                   " object itself on where the agent loop expects the tool message's text"),
    "HPK133": Rule(W, "called with {called_with} the handler raised; the kit answered the"
                   " model with an error envelope: {error}", "if those arguments are valid,"
                   " fix the handler; if it refuses them on purpose, narrow the schema (enum,"
                   " bounds, pattern) or declare an example, so the model is not invited to"
                   " send them", "hermes gets the kit's error envelope, a valid result: the"
                   " call works, the model is told why it failed"),
    "HPK134": Rule(E, "called with {called_with} the handler returned a coroutine, which"
                   " nothing awaits: it is a plain def that calls an async function without"
                   " awaiting it, so every call fails (the kit answers result_not_serializable,"
                   " hermes a tool_result_contract error)",
                   "declare it async def or await the call: async def handler(args,"
                   " **kwargs): return await ... (registered by hand, also pass"
                   " is_async=True to register_tool)",
                   "registry.dispatch calls a handler registered without is_async and does not"
                   " await its result; _normalize_handler_result refuses the coroutine"
                   " (tools/registry.py 615-644); before 0.19.0 hermes hands its repr on"),
    "HPK135": Rule(E, "called with {called_with} the async def handler's result is itself a"
                   " coroutine: an await is missing, so the awaited call never runs and every"
                   " call fails (the kit answers result_not_serializable, hermes a"
                   " tool_result_contract error)",
                   "add the missing await: return await ... where the handler returns the"
                   " call of an async function",
                   "registry.dispatch awaits an is_async handler once (_run_async,"
                   " model_tools.py 88-140) and refuses the coroutine it returned"
                   " (_normalize_handler_result, tools/registry.py 615-644); before 0.19.0"
                   " hermes hands its repr on"),
    # commands
    "HPK201": Rule(E, "'_' in a command name: messaging platforms look commands up with '_'"
                   " turned into '-', so /{name} is unreachable there", "use {suggestion}",
                   "the gateway resolves a slash command with '_' replaced by '-' before"
                   " get_plugin_command_handler (gateway/run.py)"),
    "HPK202": Rule(E, "hermes skipped the command: {message}", "choose another name",
                   "register_command refuses an empty name or a built-in command's"
                   " (hermes_cli/plugins.py 529-581)"),
    "HPK203": Rule(E, "the handler cannot take the {what}", "give it one positional parameter",
                   "hermes calls a slash command's handler(raw_args) and a CLI command's"
                   " handler_fn(args): a TypeError instead of the command"),
    "HPK204": Rule(E, "'hermes {name}' is a built-in subcommand: hermes never runs the"
                   " plugin's, and adding it fails, which hides every plugin terminal command"
                   " added after it", "choose another name",
                   "hermes_cli/main.py skips plugin discovery for a built-in subcommand;"
                   " otherwise it adds the plugins' commands in one loop, where argparse"
                   " raises 'conflicting subparser' (Python 3.11+) and the loop ends"
                   " ('Plugin CLI discovery failed', logged at debug)"),
    "HPK205": Rule(E, "the CLI command has no setup_fn: hermes calls setup_fn(subparser)"
                   " unconditionally and the failure hides the command, and every plugin"
                   " terminal command added after it",
                   "pass setup_fn=lambda parser: None",
                   "the CLI's plugin subcommand wiring calls setup_fn(parser)"
                   " (hermes_cli/main.py; register_cli_command, plugins.py 504-525)"),
    # hooks and middleware
    "HPK301": Rule(E, "the callback does not take **kwargs: hermes adds keywords"
                   " (telemetry_schema_version at least), the TypeError is swallowed and the"
                   " callback silently never runs", "add **kwargs to its parameters",
                   "invoke_hook calls callback(**kwargs) and logs the exception"
                   " (hermes_cli/plugins.py 1892-1927)"),
    "HPK302": Rule(E, "hermes-agent 0.19.0 calls hooks and middleware synchronously: an async"
                   " def body never runs (or its coroutine becomes the result)",
                   "make it a plain def",
                   "invoke_hook and the middleware chains call the callback without awaiting"
                   " (hermes_cli/plugins.py 1892-1927, hermes_cli/middleware.py)"),
    "HPK303": Rule(E, "{surface} {name!r} is not one hermes knows: it is stored and never"
                   " called", "{known}",
                   "register_hook and register_middleware warn on an unknown name and store"
                   " it; nothing invokes it (hermes_cli/plugins.py 1158-1194)"),
    # skills
    "HPK401": Rule(E, "the skill path {path} is not a file hermes can serve ({why})",
                   "point plugin_skill/register_skill at the skill's file itself (its"
                   " SKILL.md)",
                   "register_skill raises FileNotFoundError for a path that does not"
                   " exist, which disables the plugin (hermes_cli/plugins.py 1198-1241); a"
                   " directory is registered, and skill_view fails reading it; a file of"
                   " any name is read (tools/skills_tool.py 857-881)"),
    # exclusive kinds: memory providers and context engines
    "HPK601": Rule(E, "hermes takes the plugin for a memory provider (its __init__.py"
                   " mentions MemoryProvider or register_memory_provider), but it gives"
                   " hermes no provider: {why}", "a memory provider calls"
                   " ctx.register_memory_provider(provider) in register(), with an instance"
                   " of agent.memory_provider.MemoryProvider; a general plugin adds 'kind:"
                   " standalone' to plugin.yaml",
                   "plugins/memory/__init__.py 219-331: register(collector), else a"
                   " MemoryProvider subclass; with neither, load_memory_provider returns None"
                   " and 'memory.provider' activates nothing, while the general loader skips"
                   " the plugin as exclusive (hermes_cli/plugins.py 1396-1410)"),
    "HPK602": Rule(E, "the memory provider {name!r} {problem}",
                   "implement it as agent.memory_provider.MemoryProvider declares",
                   "the memory manager calls the provider's name, is_available(),"
                   " get_tool_schemas() and handle_tool_call() (agent/memory_manager.py);"
                   " a missing or failing one breaks memory for the whole agent"),
    "HPK605": Rule(E, "the memory provider {name!r} breaks its contract on hermes {release}:"
                   " {member}: {contract_rule}: {detail}", "{fix}",
                   "check --probe drives the provider as agent start and each turn drive it"
                   " (kit_devtools.testing.check_memory_provider): hermes' MemoryManager"
                   " catches and logs what a provider raises, so the member's work is lost;"
                   " skips a schema without a name and drops a core tool's name; hands the"
                   " model what handle_tool_call returns (agent/memory_manager.py 394-460,"
                   " 774-837, 1134-1231); a real release's own MemoryManager gives the same"
                   " verdict (tests/host/test_memory_contract.py)"),
    "HPK606": Rule(W, "the memory provider {name!r} holds up the turn on hermes {release}:"
                   " {member}: {detail}", "{fix}",
                   "hermes calls prefetch before each model call (agent/turn_context.py"
                   " 791-800), and sync_turn and queue_prefetch at the turn's end: on the"
                   " agent's thread before 0.17.0 (agent/memory_manager.py 0.13.0 304-326), on"
                   " the manager's single worker thread after it, which every later write"
                   " waits for and shutdown abandons after 5 s (0.19.0 587-720, 1159-1212)"),
    "HPK607": Rule(W, "the memory provider {name!r} was not driven: {member}: {detail}",
                   "{fix}; then run check --probe again",
                   "agent start adds the provider only when is_available() returns True"
                   " (agent/agent_init.py 1460-1461): the contract cannot be driven further"),
    "HPK603": Rule(E, "hermes takes the plugin for a model provider (plugin.yaml's kind, or"
                   " its __init__.py mentions register_provider and ProviderProfile), and its"
                   " providers/ discovery gets no profile from it: {why}",
                   "register the profile while the module imports:"
                   " providers.register_provider(ProviderProfile(...)), and install it in"
                   " $HERMES_HOME/plugins/model-providers/<name>, the one place hermes imports"
                   " it from; a general plugin adds 'kind: standalone' to plugin.yaml",
                   "hermes' general loader records a model-provider plugin as enabled and"
                   " never imports it (hermes_cli/plugins.py 1412-1425); providers/__init__.py"
                   " 102-190 imports each directory under $HERMES_HOME/plugins/model-providers"
                   " and keeps what it registers"),
    "HPK608": Rule(E, "hermes takes the plugin for a cron scheduler provider (its __init__.py"
                   " mentions CronScheduler or register_cron_scheduler), but it gives hermes"
                   " no scheduler: {why}", "a cron scheduler provider calls"
                   " ctx.register_cron_scheduler(scheduler) in register(), with an instance of"
                   " cron.scheduler_provider.CronScheduler, or defines a CronScheduler subclass",
                   "plugins/cron_providers/__init__.py 190-356 (0.18.0 on): register(collector),"
                   " else a CronScheduler subclass; with neither, load_cron_scheduler returns"
                   " None and 'cron.provider' keeps the built-in ticker"
                   " (cron/scheduler_provider.py 122-161)"),
    "HPK609": Rule(E, "the cron scheduler {name!r} {problem}",
                   "implement it as cron.scheduler_provider.CronScheduler declares",
                   "the cron resolver calls the scheduler's is_available() and name, the"
                   " gateway its start() (cron/scheduler_provider.py 122-161): a missing or"
                   " failing one makes hermes fall back to its built-in ticker"),
    "HPK604": Rule(E, "hermes ignores the {kind} registration: {message}",
                   "register an instance of hermes' base class for the kind that its registry"
                   " takes: {fix}",
                   "PluginContext's register_*_provider, register_secret_source and"
                   " register_context_engine log a WARNING and register nothing"
                   " (hermes_cli/plugins.py 616-929): a provider of the wrong type; a TTS or"
                   " speech-to-text name among the built-ins (agent/tts_registry.py 86-96,"
                   " agent/transcription_registry.py 75-86); a dashboard-auth provider"
                   " failing assert_protocol_compliance or already registered, the"
                   " registry's error caught (hermes_cli/plugins.py 675-713,"
                   " hermes_cli/dashboard_auth/registry.py 23-36); a secret source"
                   " register_source rejects (agent/secret_sources/registry.py 94-137)"),
    # provider contracts (check --probe): each kind driven as hermes drives it
    "HPK621": Rule(E, "the context engine {name!r} breaks its contract on hermes {releases}:"
                   " {member}: {broken}: {detail}", "{fix}",
                   "the agent drives the engine context.engine names: its copy, update_model,"
                   " get_tool_schemas, on_session_start, update_from_response,"
                   " should_compress, compress, handle_tool_call, get_status, on_session_end"
                   " (agent/agent_init.py 1822-2041, agent/conversation_compression.py"
                   " 195-240 and 1034-1061, agent/tool_executor.py 1408-1433)"),
    "HPK622": Rule(E, "the TTS provider {name!r} breaks its contract on hermes {releases}:"
                   " {member}: {broken}: {detail}", "{fix}",
                   "text_to_speech dispatches to the provider tts.provider names:"
                   " synthesize(text, output_path, voice=, model=, speed=, format=), then"
                   " needs a non-empty file (tools/tts_tool.py 480-569, 2528-2533)"),
    "HPK623": Rule(E, "the transcription provider {name!r} breaks its contract on hermes"
                   " {releases}: {member}: {broken}: {detail}", "{fix}",
                   "transcribe_audio dispatches to the provider stt.provider names:"
                   " is_available(), transcribe(file_path, model=, language=), the envelope"
                   " dict read (tools/transcription_tools.py 906-1020)"),
    "HPK624": Rule(E, "the model provider {name!r} breaks its contract on hermes {releases}:"
                   " {member}: {broken}: {detail}", "{fix}",
                   "hermes' transports read the ProviderProfile's fields and call its hooks"
                   " (providers/base.py 39-175; providers/__init__.py 53-190)"),
    # compat: what stops a plugin loading on some hermes, and its floor
    "HPK501": Rule(E, "uses {name}, a name upstream hermes moved or deleted (its Sep 2026"
                   " decomposition): from 2026-09-14 upstream's loader skips a plugin whose"
                   " source uses one (hermes_cli/plugin_compat.py), unless the operator sets"
                   " plugins.allow_deprecated_imports: true",
                   "import it from the module it moved to (upstream's compat_manifest.json"
                   " names it), or do without it",
                   "upstream's loader skips the plugin (hermes_cli/plugin_compat.py"
                   " @00067189)"),
    "HPK502": Rule(E, "plugin.yaml has no 'kind' and the first 8192 characters of __init__.py"
                   " contain {marker!r} (line {line}): hermes re-kinds the plugin as {kind!r}"
                   " ({what}) and its general plugin loader never imports it",
                   "add 'kind: standalone' to plugin.yaml (a real one states 'kind:"
                   " {kind}')", f"_parse_manifest's text test (hermes_cli/plugins.py"
                   f" 1594-1627): {_NEVER_LOADED}"),
    "HPK503": Rule(E, "register_skill got a {type} path: hermes calls path.exists() on it, so"
                   " register() raises AttributeError and hermes disables the whole plugin",
                   "pass a pathlib.Path, e.g. Path(__file__).parent / 'skills' / '<name>' /"
                   " 'SKILL.md' (plugin_skill(...) does this for you)",
                   "register_skill calls path.exists() (hermes_cli/plugins.py 1198-1241)"),
    "HPK504": Rule(E, "absolute import of the plugin's own package ({statement}): hermes"
                   " imports a directory plugin as hermes_plugins.{slug}, so {top!r} is not"
                   " importable there (it works only where the plugin's parent folder is on"
                   " sys.path, as in its own tests)", "import it relatively: {suggestion}",
                   "_load_directory_module imports the plugin as hermes_plugins.<slug>"
                   " (hermes_cli/plugins.py 1832-1868)"),
    "HPK506": Rule(E, "{what} is offered by no hermes release the kit knows",
                   "remove it; check the name against hermes' documentation",
                   "no release the host model knows has it: a PluginContext member raises"
                   " AttributeError in register(), which disables the plugin; a hook or"
                   " middleware name is stored with a warning and never called"
                   " (hermes_cli/plugins.py 1158-1194)"),
    "HPK507": Rule(W, "ctx.{member} is not on {release} (it came with {since}): there the"
                   " plugin's call raises AttributeError, or, guarded (hasattr, getattr, try),"
                   " does nothing, and hermes says nothing of it",
                   "require that release (requires_hermes: \">={version}\"), or tell the"
                   " plugin's users what is off on older hermes",
                   "the release's PluginContext lacks the member (the host model's members of"
                   " each release, read from it)"),
    "HPK510": Rule(W, "plugin.yaml has no requires_hermes: upstream hermes loads the plugin on"
                   " any release, and an operator cannot tell that it needs {floor} or later",
                   "add requires_hermes: \">={floor}\"",
                   "upstream enforces requires_hermes only where it is written"
                   " (requires_hermes_error, hermes_cli/plugins_manifest.py L412-420 @00067189)"),
    "HPK511": Rule(W, "requires_hermes {spec!r} admits hermes-agent {below}, older than the"
                   " plugin's floor {floor} ({reason})", "raise it: requires_hermes:"
                   " \">={floor}\"", "upstream admits the plugin on releases below its"
                   " floor, where it then fails"),
}  # fmt: skip


def finding(rule: str, where: str, **details: Any) -> Finding:
    """A finding of ``rule`` at ``where``, its texts filled with ``details``."""
    severity, message, fix, _ = RULES[rule]
    return Finding(  # a detail may quote plugin or hermes text: no secret of it is shown
        rule,
        severity,
        redact_text(where),
        redact_text(message.format(**details)),
        redact_text(fix.format(**details)),
    )
