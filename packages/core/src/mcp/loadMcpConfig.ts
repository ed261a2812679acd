import { readFileSync } from "node:fs";
import path from "node:path";
import type { ConfigVariables } from "./configVariables.js";
import { type LoadedMcpConfig, type McpServerConfig, parseMcpConfig } from "./mcpConfig.js";

export interface McpConfigLocations {
  projectRoot: string;
  /** `$LATHE_HOME`, where the user's own `mcp.json` lives. */
  latheHome: string;
  /** For `${env:X}`; Lathe's environment unless given. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * False: the project's files are left out, since their servers are programs the folder's
   * author chose (workspace trust). Absent means the caller has already decided for it.
   */
  projectTrusted?: boolean;
}

/** The project's MCP files, weakest first; the user's own file comes before both. */
export const projectMcpFiles = [".cursor/mcp.json", ".lathe/mcp.json"] as const;

/**
 * The files read, weakest first: the user's, then the project's Cursor file, then the project's
 * Lathe file, so a project can redefine a server it shares with Cursor for Lathe alone.
 */
export function mcpConfigFiles(
  locations: Pick<McpConfigLocations, "projectRoot" | "latheHome" | "projectTrusted">,
): string[] {
  const user = path.join(locations.latheHome, "mcp.json");
  if (locations.projectTrusted === false) return [user];
  return [user, ...projectMcpFiles.map((file) => path.join(locations.projectRoot, ...file.split("/")))];
}

/**
 * Every configured MCP server: a later file replaces an earlier one's server of the same name. An
 * entry that is wrong is reported and leaves any earlier definition of that name in place.
 */
export function loadMcpConfig(locations: McpConfigLocations): LoadedMcpConfig {
  const variables: ConfigVariables = {
    workspaceFolder: locations.projectRoot,
    env: locations.env ?? process.env,
  };
  const servers = new Map<string, McpServerConfig>();
  const errors: LoadedMcpConfig["errors"] = [];
  for (const file of mcpConfigFiles(locations)) {
    const loaded = loadMcpConfigFile(file, variables);
    for (const server of loaded.servers) servers.set(server.name, server);
    errors.push(...loaded.errors);
  }
  return { servers: [...servers.values()], errors };
}

/** One file; a missing file is simply no servers. */
export function loadMcpConfigFile(file: string, variables: ConfigVariables): LoadedMcpConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], errors: [] };
    return { servers: [], errors: [{ file, message: `cannot read the file: ${messageOf(error)}` }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { servers: [], errors: [{ file, message: `not JSON (${messageOf(error)})` }] };
  }
  return parseMcpConfig(json, file, variables);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
