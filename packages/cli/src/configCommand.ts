import { type FileScope, fileScopes, readSettingsFile } from "@lathe/core";
import { effectiveSettings, type SettingEntry } from "./config/effectiveSettings.js";
import { keySegments, leaves, parseSettingValue, schemaHasPath, valueAt } from "./config/settingPaths.js";
import { changeSettings } from "./config/settingsWrite.js";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { redactSettings } from "./settingsSecrets.js";
import { type CommandIo, parseSubcommand, type SubcommandArgs } from "./subcommandArgs.js";
import { table } from "./textTable.js";
import { userSettingsSchema } from "./userSettings.js";

export const configUsage = `Usage: lathe config [show | get KEY | set KEY VALUE | unset KEY] [options]

Commands:
  show (the default)    every setting in effect and where it comes from: default, env,
                        user ($LATHE_HOME/settings.json), project (.lathe/settings.json),
                        project-local (.lathe/settings.local.json)
  get KEY               one setting in effect (KEY is a dotted path: context.window)
  set KEY VALUE         write it; VALUE is read as JSON when it parses (25, true, ["a"]),
                        else as a string; checked against the settings schema first
  unset KEY             remove it from the scope's file

Options:
      --scope SCOPE     set, unset, get: user (default for set and unset) | project | project-local
      --cwd DIR         project directory (default: the current directory)
      --json            print JSON
  -h, --help            this help

The project's files hold only permissions ({"permissions":{"allow":[],"ask":[],"deny":[]}}); every
other setting is read from $LATHE_HOME/settings.json. LATHE_MODEL overrides "model". Secrets (API
keys, OTLP headers) are shown as [redacted].
Exit codes: 0 done, 1 the key is not set or a file cannot be read or written, 2 misuse or an
invalid value (nothing is written).
`;

type Parsed = Extract<SubcommandArgs<typeof options>, { ok: true }>;

const options = { scope: { type: "string" } } as const;

/** `lathe config show|get|set|unset`. Returns the exit code. */
export async function runConfigCommand(io: CommandIo): Promise<number> {
  const parsed = parseSubcommand(io, "config", configUsage, options);
  if (!parsed.ok) return parsed.code;
  const [command = "show", ...rest] = parsed.positionals;
  const scope = parsed.values.scope;
  if (scope !== undefined && !isScope(scope)) {
    return parsed.misuse(`E_INVALID_ARGS: unknown scope "${scope}"; use ${fileScopes.join(", ")}`);
  }
  const context = {
    io,
    parsed,
    scope,
    places: { latheHome: latheHomeFrom(io.env), projectRoot: parsed.projectRoot, env: io.env },
  };
  switch (command) {
    case "show":
      if (rest.length > 0) return parsed.misuse(`unexpected: ${rest.join(" ")}`);
      if (scope !== undefined) return parsed.misuse("show takes no --scope; it shows every layer");
      return show(context);
    case "get":
      return withKey(context, rest, 1, (segments) => get(context, segments));
    case "set":
      return withKey(context, rest, 2, (segments) => write(context, segments, rest[1]));
    case "unset":
      return withKey(context, rest, 1, (segments) => write(context, segments, undefined));
    default:
      return parsed.misuse(`unknown command "${command}"`);
  }
}

interface Context {
  io: CommandIo;
  parsed: Parsed;
  scope: FileScope | undefined;
  places: { latheHome: string; projectRoot: string; env: Record<string, string | undefined> };
}

function isScope(scope: string): scope is FileScope {
  return (fileScopes as readonly string[]).includes(scope);
}

/** Checks the arguments' count and the key, which must name a setting the schema has. */
function withKey(
  context: Context,
  rest: string[],
  count: number,
  run: (segments: string[]) => Promise<number> | number,
): Promise<number> | number {
  const { parsed } = context;
  const command = parsed.positionals[0];
  if (rest.length < count) return parsed.misuse(`${command} needs ${count === 2 ? "KEY VALUE" : "KEY"}`);
  if (rest.length > count) return parsed.misuse(`unexpected: ${rest.slice(count).join(" ")}`);
  const key = rest[0] ?? "";
  const segments = keySegments(key);
  if (segments === undefined || !schemaHasPath(userSettingsSchema, segments)) {
    return parsed.misuse(`E_INVALID_ARGS: unknown setting "${key}"`);
  }
  return run(segments);
}

function show(context: Context): number {
  const { io } = context;
  const settings = effectiveSettings(context.places);
  for (const error of settings.errors) io.stderr(`lathe config: ${error}\n`);
  if (context.parsed.values.json) {
    io.stdout(`${JSON.stringify(settings)}\n`);
  } else {
    const rows = settings.entries.map((entry) => [entry.key, JSON.stringify(entry.value), sourceText(entry)]);
    io.stdout(`${table([["KEY", "VALUE", "SOURCE"], ...rows])}\n`);
  }
  return settings.errors.length > 0 ? exitCodes.error : exitCodes.completed;
}

function sourceText(entry: SettingEntry): string {
  const where = entry.file ?? entry.variable;
  const text = where === undefined ? entry.source : `${entry.source} (${where})`;
  return entry.ignored === undefined ? text : `${text}, ignored: ${entry.ignored}`;
}

function get(context: Context, segments: string[]): number {
  const { io, scope } = context;
  const key = segments.join(".");
  const found = scope === undefined ? inEffect(context, key) : inFile(context, scope, segments);
  if (!found.ok) {
    io.stderr(`lathe config: ${found.message}\n`);
    return exitCodes.error;
  }
  if (context.parsed.values.json) io.stdout(`${JSON.stringify({ key, ...found.value })}\n`);
  else
    io.stdout(
      `${typeof found.value.value === "string" ? found.value.value : JSON.stringify(found.value.value)}\n`,
    );
  return exitCodes.completed;
}

type Found =
  | { ok: true; value: { value: unknown; source: string; file?: string } }
  | { ok: false; message: string };

/**
 * The value a session uses: a leaf's own entry, or the object or rule list its entries make up.
 * Rules of a layer that is ignored are left out, as the session leaves them out.
 */
function inEffect(context: Context, key: string): Found {
  const settings = effectiveSettings(context.places);
  const applied = settings.entries.filter((entry) => entry.ignored === undefined);
  if (key.startsWith("permissions")) {
    const rules = applied.filter((entry) => entry.key === key || entry.key.startsWith(`${key}.`));
    if (rules.length === 0) return { ok: false, message: `${key} is not set` };
    const value =
      key === "permissions"
        ? Object.fromEntries(
            ["allow", "ask", "deny"].map((b) => [
              b,
              rules.filter((r) => r.key.endsWith(b)).map((r) => r.value),
            ]),
          )
        : rules.map((rule) => rule.value);
    return { ok: true, value: { value, source: [...new Set(rules.map((rule) => rule.source))].join(", ") } };
  }
  const exact = applied.find((entry) => entry.key === key);
  if (exact !== undefined)
    return {
      ok: true,
      value: { value: exact.value, source: exact.source, file: exact.file ?? exact.variable },
    };
  const below = applied.filter((entry) => entry.key.startsWith(`${key}.`));
  if (below.length === 0) return { ok: false, message: `${key} is not set` };
  const value: Record<string, unknown> = {};
  for (const entry of below) setNested(value, entry.key.slice(key.length + 1).split("."), entry.value);
  return { ok: true, value: { value, source: [...new Set(below.map((entry) => entry.source))].join(", ") } };
}

function setNested(tree: Record<string, unknown>, segments: string[], value: unknown): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  if (rest.length === 0) {
    tree[head] = value;
    return;
  }
  const inner = (tree[head] ?? {}) as Record<string, unknown>;
  tree[head] = inner;
  setNested(inner, rest, value);
}

function inFile(context: Context, scope: FileScope, segments: string[]): Found {
  const file = effectiveSettings(context.places).files[scope];
  const read = readSettingsFile(file);
  if (!read.ok) return { ok: false, message: read.message };
  const value = read.exists ? valueAt(redactSettings(read.settings), segments) : undefined;
  const key = segments.join(".");
  if (value === undefined) return { ok: false, message: `${key} is not set in ${file}` };
  return { ok: true, value: { value, source: scope, file } };
}

async function write(context: Context, segments: string[], text: string | undefined): Promise<number> {
  const { io, parsed } = context;
  const scope = context.scope ?? "user";
  const key = segments.join(".");
  if (scope !== "user" && segments[0] !== "permissions") {
    return parsed.misuse(
      `E_INVALID_ARGS: ${key} is read from $LATHE_HOME/settings.json only; the project's settings files hold permissions (use --scope user)`,
    );
  }
  const change =
    text === undefined
      ? ({ kind: "unset", segments } as const)
      : ({ kind: "set", segments, value: parseSettingValue(text) } as const);
  const written = await changeSettings(scope, change, context.places);
  if (!written.ok) {
    io.stderr(`lathe config: ${written.code}: ${written.message}\n`);
    return written.problem === "invalid" ? exitCodes.usage : exitCodes.error;
  }
  const shown = change.kind === "set" ? shownValue(segments, change.value) : undefined;
  if (parsed.values.json) {
    io.stdout(
      `${JSON.stringify({ key, ...(change.kind === "set" ? { value: shown } : { removed: true }), scope, file: written.file })}\n`,
    );
  } else if (change.kind === "set") {
    io.stdout(`Set ${key} = ${JSON.stringify(shown)} in ${written.file}\n`);
  } else {
    io.stdout(`Removed ${key} from ${written.file}\n`);
  }
  return exitCodes.completed;
}

/** The value as the file holds it, with a secret written there shown as redacted. */
function shownValue(segments: string[], value: unknown): unknown {
  const wrapped: Record<string, unknown> = {};
  setNested(wrapped, segments, value);
  return leaves(wrapped).length === 0 ? value : valueAt(redactSettings(wrapped), segments);
}
