import path from "node:path";
import {
  checkWorkspaceTrust,
  createMcpHub,
  loadMcpConfig,
  loadMcpConfigFile,
  type McpServerConfig,
  mcpConfigFiles,
  projectTrusted,
} from "@lathe/core";
import type { UserSettings } from "../userSettings.js";

/**
 * `configured`: a session would start it (not started here); `running` / `failed`: started here;
 * `untrusted`: in a project file of a folder nobody trusted; `replaced`: a later file defines the
 * same name; `invalid`: the entry is wrong and is left out.
 */
export type McpServerState = "configured" | "running" | "failed" | "untrusted" | "replaced" | "invalid";

export interface McpServerEntry {
  name: string;
  /** The file the entry is in. */
  file: string;
  scope: "user" | "project";
  transport?: "stdio" | "http";
  /** The command line or URL, as written: `${env:X}` is not expanded, so no token is shown. */
  target?: string;
  state: McpServerState;
  /** Why it failed, is left out or is replaced. */
  error?: string;
  tools?: { name: string; description: string }[];
}

export interface McpPlaces {
  latheHome: string;
  projectRoot: string;
  settings: UserSettings;
  env: Record<string, string | undefined>;
}

/** Every `${env:NAME}` reads as itself, so listings show what the files say. */
const variablesAsWritten: Readonly<Record<string, string | undefined>> = new Proxy(
  {},
  { get: (_target, name) => (typeof name === "string" ? `\${env:${name}}` : undefined) },
);

/**
 * The servers of every layer, weakest first (`$LATHE_HOME/mcp.json`, `.cursor/mcp.json`,
 * `.lathe/mcp.json`), each with the state a session would give it.
 */
export function mcpServerEntries(places: McpPlaces): McpServerEntry[] {
  const trusted = projectTrusted(checkWorkspaceTrust(places));
  const files = mcpConfigFiles({ ...places, projectTrusted: true });
  const active = new Map(
    loadMcpConfig({ ...places, env: variablesAsWritten, projectTrusted: trusted }).servers.map((server) => [
      server.name,
      server.source,
    ]),
  );
  // With the real environment an entry can still fail (`${env:X}` unset); only the message is kept.
  const unusable = new Map(
    loadMcpConfig({ ...places, projectTrusted: true }).errors.map((error) => [
      `${error.file}\0${error.server}`,
      error.message,
    ]),
  );
  const variables = { workspaceFolder: places.projectRoot, env: variablesAsWritten };
  return files.flatMap((file, index) => {
    const scope = index === 0 ? ("user" as const) : ("project" as const);
    const loaded = loadMcpConfigFile(file, variables);
    const entries: McpServerEntry[] = loaded.servers.map((server) => {
      const entry: McpServerEntry = {
        name: server.name,
        file,
        scope,
        transport: server.transport,
        target: targetOf(server),
        state: "configured",
      };
      if (scope === "project" && !trusted) {
        return { ...entry, state: "untrusted", error: "the folder is not trusted (lathe trust)" };
      }
      const problem = unusable.get(`${file}\0${server.name}`);
      if (problem !== undefined) return { ...entry, state: "invalid", error: problem };
      const winner = active.get(server.name);
      return winner === file ? entry : { ...entry, state: "replaced", error: `replaced by ${winner}` };
    });
    for (const error of loaded.errors) {
      entries.push({ name: error.server ?? "", file, scope, state: "invalid", error: error.message });
    }
    return entries;
  });
}

/** The servers a session would start, expanded with the real environment. */
export function activeServers(places: McpPlaces): McpServerConfig[] {
  const trusted = projectTrusted(checkWorkspaceTrust(places));
  return loadMcpConfig({ ...places, projectTrusted: trusted }).servers;
}

export interface StartOutcome {
  name: string;
  error?: string;
  tools: { name: string; description: string }[];
}

/** Starts each server on its own, lists its tools, and stops it again. */
export async function probeServers(servers: readonly McpServerConfig[]): Promise<StartOutcome[]> {
  return Promise.all(
    servers.map(async (server) => {
      const hub = await createMcpHub();
      try {
        const { failures } = await hub.start([server], AbortSignal.timeout(30_000));
        const tools = hub
          .tools()
          .map((tool) => ({ name: tool.name, description: firstLine(tool.description) }));
        const failure = failures.find((entry) => entry.server === server.name);
        return failure !== undefined && tools.length === 0
          ? { name: server.name, error: failure.error, tools: [] }
          : { name: server.name, tools };
      } finally {
        await hub.close();
      }
    }),
  );
}

function firstLine(description: string): string {
  return (description.split("\n")[0] ?? "").trim();
}

function targetOf(server: McpServerConfig): string {
  if (server.transport === "http") return server.url;
  return [server.command, ...server.args].map(shellWord).join(" ");
}

/** An argument as a shell would need it, so the command line reads unambiguously. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `$LATHE_HOME/mcp.json` or `.lathe/mcp.json`: the files `lathe mcp add` writes. */
export function writableMcpFile(
  scope: "user" | "project",
  places: { latheHome: string; projectRoot: string },
): string {
  return scope === "user"
    ? path.join(places.latheHome, "mcp.json")
    : path.join(places.projectRoot, ".lathe", "mcp.json");
}
