import { parseMcpConfig, readSettingsFile } from "@lathe/core";
import { writeOwnJsonFile } from "../ownFileWrite.js";
import { writableMcpFile } from "./mcpServerLayers.js";

export type McpFileWrite =
  | { ok: true; file: string }
  | { ok: false; problem: "invalid" | "failed"; code: "E_INVALID_ARGS" | "E_STORAGE"; message: string };

interface Places {
  latheHome: string;
  projectRoot: string;
}

/**
 * Adds or removes one entry of `mcpServers` in the user's or the project's `mcp.json`, keeping
 * every other entry and key, atomically. A new entry is checked as a session would read it first;
 * the project's file is Lathe's own write for workspace trust.
 */
export async function changeMcpFile(
  scope: "user" | "project",
  change: { kind: "add"; name: string; entry: Record<string, unknown> } | { kind: "remove"; name: string },
  places: Places,
): Promise<McpFileWrite> {
  const file = writableMcpFile(scope, places);
  const read = readSettingsFile(file);
  if (!read.ok)
    return {
      ok: false,
      problem: "failed",
      code: read.problem === "unreadable" ? "E_STORAGE" : "E_INVALID_ARGS",
      message: read.message,
    };
  const config = read.exists ? read.settings : {};
  const servers = config.mcpServers ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return {
      ok: false,
      problem: "failed",
      code: "E_INVALID_ARGS",
      message: `${file}: "mcpServers" must be an object`,
    };
  }
  const entries = servers as Record<string, unknown>;
  if (change.kind === "remove") {
    if (!(change.name in entries)) {
      return {
        ok: false,
        problem: "failed",
        code: "E_INVALID_ARGS",
        message: `no server "${change.name}" in ${file}`,
      };
    }
  } else {
    if (change.name in entries) {
      return {
        ok: false,
        problem: "invalid",
        code: "E_INVALID_ARGS",
        message: `a server "${change.name}" is already in ${file}; remove it first`,
      };
    }
    const checked = parseMcpConfig({ mcpServers: { [change.name]: change.entry } }, file, {
      workspaceFolder: places.projectRoot,
      env: new Proxy({}, { get: () => "set" }),
    });
    const [problem] = checked.errors;
    if (problem !== undefined)
      return {
        ok: false,
        problem: "invalid",
        code: "E_INVALID_ARGS",
        message: `${change.name}: ${problem.message}`,
      };
  }
  const { [change.name]: _old, ...others } = entries;
  const next = {
    ...config,
    mcpServers: change.kind === "add" ? { ...others, [change.name]: change.entry } : others,
  };
  return writeOwnJsonFile(file, next, { projectFile: scope !== "user", places });
}
