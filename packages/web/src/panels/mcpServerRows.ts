import type { McpServerList, McpServerStatusList } from "@lathe/protocol";

type Status = McpServerStatusList["servers"][number];

export type McpServerTone = "ok" | "error" | "busy" | "idle";

/** One configured server as the MCP panel shows it. */
export interface McpServerRow {
  name: string;
  transport: string;
  target: string;
  source: string;
  /** In the user's own `mcp.json`, which Settings may change. */
  removable: boolean;
  /** running, failed, stopped (ran, then died), starting, checking (the probe has not answered), not started. */
  state: string;
  tone: McpServerTone;
  /** The start error, or why it stopped: shown for every server that is not healthy. */
  error?: string;
  tools: Status["tools"];
  resources: Status["resources"];
  prompts: Status["prompts"];
}

const tones: Record<Status["state"], McpServerTone> = {
  running: "ok",
  failed: "error",
  stopped: "error",
  starting: "busy",
};

/**
 * The configured servers with what starting them showed. A server that failed or died is marked
 * as an error with its reason and offers nothing, so it never reads like a healthy one; a server
 * the probe did not report on (the probe still running, or it failed) says so rather than "running".
 */
export function mcpServerRows(
  configured: McpServerList,
  status: { checking: true } | { checking: false; reply?: McpServerStatusList; error?: string },
): McpServerRow[] {
  return configured.servers.map((server) => {
    const base = {
      name: server.name,
      transport: server.transport,
      target: server.target,
      source: server.source,
      removable: server.removable,
    };
    const found = status.checking
      ? undefined
      : status.reply?.servers.find((entry) => entry.name === server.name);
    if (found === undefined) {
      const unknown = status.checking
        ? { state: "checking", tone: "busy" as const }
        : { state: "not started", tone: "idle" as const, error: status.error };
      return { ...base, ...unknown, tools: [], resources: [], prompts: [] };
    }
    const healthy = found.state === "running";
    return {
      ...base,
      state: found.state,
      tone: tones[found.state],
      error: found.error,
      tools: healthy ? found.tools : [],
      resources: healthy ? found.resources : [],
      prompts: healthy ? found.prompts : [],
    };
  });
}
