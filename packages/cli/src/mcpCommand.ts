import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { changeMcpFile } from "./mcp/mcpFileWrite.js";
import {
  activeServers,
  type McpPlaces,
  type McpServerEntry,
  mcpServerEntries,
  probeServers,
} from "./mcp/mcpServerLayers.js";
import { type CommandIo, parseSubcommand, type SubcommandArgs } from "./subcommandArgs.js";
import { table } from "./textTable.js";
import { loadUserSettings } from "./userSettings.js";

export const mcpUsage = `Usage: lathe mcp <command> [options]

Commands:
  list [--status]          the MCP servers of every layer, with their state; --status starts
                           each server a session would start and says whether it runs
  tools [NAME]             start the servers (or one) and list their tools, as a session
                           names them: mcp__<server>__<tool>
  add NAME -- COMMAND [ARGS…]
                           add a stdio server (--env K=V repeatable)
  add NAME --url URL       add a streamable HTTP server (--header 'K: V' repeatable)
  remove NAME              remove a server from the scope's file

Options:
      --scope SCOPE        add, remove: user ($LATHE_HOME/mcp.json, the default for add)
                           | project (.lathe/mcp.json)
      --cwd DIR            project directory (default: the current directory)
      --json               print JSON
  -h, --help               this help

Servers are read from $LATHE_HOME/mcp.json, then .cursor/mcp.json, then .lathe/mcp.json (a later
file's server replaces an earlier one of the same name); the project's files only in a trusted
folder (lathe trust). States: configured, running, failed, untrusted, replaced, invalid.
Exit codes: 0 done, 1 a server is not there or a file cannot be read or written, 2 misuse or an
invalid server entry (nothing is written).
`;

const options = {
  scope: { type: "string" },
  status: { type: "boolean" },
  url: { type: "string" },
  header: { type: "string", multiple: true },
  env: { type: "string", multiple: true },
} as const;

type Parsed = Extract<SubcommandArgs<typeof options>, { ok: true }>;

/** `lathe mcp list|tools|add|remove`. Returns the exit code. */
export async function runMcpCommand(io: CommandIo): Promise<number> {
  const parsed = parseSubcommand(io, "mcp", mcpUsage, options);
  if (!parsed.ok) return parsed.code;
  const latheHome = latheHomeFrom(io.env);
  const settings = loadUserSettings(latheHome);
  if (!settings.ok) return parsed.misuse(`E_INVALID_ARGS: ${settings.message}`);
  const places: McpPlaces = {
    latheHome,
    projectRoot: parsed.projectRoot,
    settings: settings.settings,
    env: io.env,
  };
  const [command, ...rest] = parsed.positionals;
  const scope = parsed.values.scope;
  if (scope !== undefined && scope !== "user" && scope !== "project") {
    return parsed.misuse(`E_INVALID_ARGS: unknown scope "${scope}"; use user or project`);
  }
  const onlyFor = (allowed: string, flags: (keyof Parsed["values"])[]) => {
    const misplaced = flags.filter((flag) => parsed.values[flag] !== undefined);
    return misplaced.length === 0
      ? undefined
      : parsed.misuse(`--${misplaced.join(", --")} only goes with ${allowed}`);
  };
  switch (command) {
    case "list":
      if (rest.length > 0) return parsed.misuse(`unexpected: ${rest.join(" ")}`);
      return onlyFor("add or remove", ["scope", "url", "header", "env"]) ?? list(io, parsed, places);
    case "tools":
      if (rest.length > 1)
        return parsed.misuse(`one server at a time; unexpected: ${rest.slice(1).join(" ")}`);
      return (
        onlyFor("add or remove", ["scope", "url", "header", "env", "status"]) ??
        tools(io, parsed, places, rest[0])
      );
    case "add":
      return onlyFor("list", ["status"]) ?? add(io, parsed, places, rest, scope ?? "user");
    case "remove":
      if (rest.length !== 1) return parsed.misuse("remove needs exactly one server NAME");
      return (
        onlyFor("add or list", ["status", "url", "header", "env"]) ??
        remove(io, parsed, places, rest[0] ?? "", scope)
      );
    default:
      return parsed.misuse(command === undefined ? "no command given" : `unknown command "${command}"`);
  }
}

async function list(io: CommandIo, parsed: Parsed, places: McpPlaces): Promise<number> {
  let entries = mcpServerEntries(places);
  if (parsed.values.status) {
    const outcomes = new Map(
      (await probeServers(activeServers(places))).map((outcome) => [outcome.name, outcome]),
    );
    entries = entries.map((entry) => {
      const outcome = entry.state === "configured" ? outcomes.get(entry.name) : undefined;
      if (outcome === undefined) return entry;
      return outcome.error === undefined
        ? { ...entry, state: "running", tools: outcome.tools }
        : { ...entry, state: "failed", error: outcome.error };
    });
  }
  if (parsed.values.json) {
    io.stdout(`${JSON.stringify({ servers: entries })}\n`);
    return exitCodes.completed;
  }
  if (entries.length === 0) {
    io.stdout("No MCP servers. Add one with: lathe mcp add NAME -- COMMAND [ARGS…]\n");
    return exitCodes.completed;
  }
  const rows = entries.map((entry) => [
    entry.name,
    stateText(entry),
    entry.transport ?? "",
    entry.target ?? "",
    entry.file,
  ]);
  io.stdout(`${table([["NAME", "STATE", "TRANSPORT", "TARGET", "FILE"], ...rows])}\n`);
  for (const entry of entries)
    if (entry.error !== undefined) io.stdout(`  ${entry.name || "(file)"}: ${entry.error}\n`);
  return exitCodes.completed;
}

function stateText(entry: McpServerEntry): string {
  return entry.state === "running" ? `running (${entry.tools?.length ?? 0} tools)` : entry.state;
}

async function tools(
  io: CommandIo,
  parsed: Parsed,
  places: McpPlaces,
  name: string | undefined,
): Promise<number> {
  const servers = activeServers(places).filter((server) => name === undefined || server.name === name);
  if (name !== undefined && servers.length === 0) {
    const known = mcpServerEntries(places).find((entry) => entry.name === name);
    const why =
      known === undefined ? "is not configured" : `is ${known.state}${known.error ? `: ${known.error}` : ""}`;
    return parsed.misuse(`E_INVALID_ARGS: server "${name}" ${why}`);
  }
  const outcomes = await probeServers(servers);
  if (parsed.values.json) {
    io.stdout(
      `${JSON.stringify({ servers: outcomes.map((outcome) => ({ server: outcome.name, state: outcome.error === undefined ? "running" : "failed", ...outcome })) })}\n`,
    );
  } else {
    for (const outcome of outcomes) {
      if (outcome.error !== undefined) {
        io.stdout(`${outcome.name}: failed: ${outcome.error}\n`);
        continue;
      }
      io.stdout(`${outcome.name}: ${outcome.tools.length} tools\n`);
      if (outcome.tools.length > 0) {
        io.stdout(`${table(outcome.tools.map((tool) => [`  ${tool.name}`, tool.description]))}\n`);
      }
    }
    if (outcomes.length === 0) io.stdout("No MCP servers a session would start.\n");
  }
  return outcomes.some((outcome) => outcome.error !== undefined) ? exitCodes.error : exitCodes.completed;
}

async function add(
  io: CommandIo,
  parsed: Parsed,
  places: McpPlaces,
  rest: string[],
  scope: "user" | "project",
): Promise<number> {
  const [name, ...command] = rest;
  if (name === undefined) return parsed.misuse("add needs a server NAME");
  const { url, header = [], env = [] } = parsed.values;
  if ((url === undefined) === (command.length === 0)) {
    return parsed.misuse("add needs either -- COMMAND [ARGS…] (stdio) or --url URL (HTTP), not both");
  }
  const pairs = (items: string[], separator: string, flag: string) => {
    const split = items.map((item) => {
      const at = item.indexOf(separator);
      return at <= 0 ? undefined : [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    });
    return split.includes(undefined)
      ? `--${flag} takes KEY${separator}VALUE`
      : Object.fromEntries(split as string[][]);
  };
  let entry: Record<string, unknown>;
  if (url !== undefined) {
    if (env.length > 0) return parsed.misuse("--env goes with a stdio server; an HTTP server takes --header");
    const headers = pairs(header, ":", "header");
    if (typeof headers === "string") return parsed.misuse(headers);
    entry = header.length > 0 ? { url, headers } : { url };
  } else {
    if (header.length > 0) return parsed.misuse("--header goes with --url");
    const variables = pairs(env, "=", "env");
    if (typeof variables === "string") return parsed.misuse(variables);
    const [program, ...args] = command;
    entry = { command: program, args, ...(env.length > 0 ? { env: variables } : {}) };
  }
  const written = await changeMcpFile(scope, { kind: "add", name, entry }, places);
  if (!written.ok) return refused(io, parsed, written);
  if (parsed.values.json) io.stdout(`${JSON.stringify({ added: name, scope, file: written.file })}\n`);
  else io.stdout(`Added MCP server ${name} to ${written.file}\n`);
  return exitCodes.completed;
}

async function remove(
  io: CommandIo,
  parsed: Parsed,
  places: McpPlaces,
  name: string,
  scope: "user" | "project" | undefined,
): Promise<number> {
  const written = await changeMcpFile(scope ?? scopeOf(places, name), { kind: "remove", name }, places);
  if (!written.ok) return refused(io, parsed, written);
  if (parsed.values.json) io.stdout(`${JSON.stringify({ removed: name, file: written.file })}\n`);
  else io.stdout(`Removed MCP server ${name} from ${written.file}\n`);
  return exitCodes.completed;
}

/** Without --scope: the project's `.lathe/mcp.json` when it defines the server, else the user's file. */
function scopeOf(places: McpPlaces, name: string): "user" | "project" {
  const project = mcpServerEntries(places).some(
    (entry) =>
      entry.name === name && entry.scope === "project" && entry.file.endsWith(`.lathe${"/"}mcp.json`),
  );
  return project ? "project" : "user";
}

function refused(
  io: CommandIo,
  parsed: Parsed,
  written: { problem: "invalid" | "failed"; code: string; message: string },
): number {
  if (written.problem === "invalid") return parsed.misuse(`${written.code}: ${written.message}`);
  io.stderr(`lathe mcp: ${written.code}: ${written.message}\n`);
  return exitCodes.error;
}
