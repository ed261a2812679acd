import {
  BrowserSessions,
  builtinTools,
  createBrowserUseTool,
  createGenerateImageTool,
  createMcpHub,
  createWebFetchTool,
  createWebSearchTool,
  imageGenerationSettingsFrom,
  loadMcpConfig,
  type McpServerConfig,
  McpSessionFeed,
  ToolRegistry,
  webFetchSettingsFrom,
  webSearchSettingsFrom,
} from "@lathe/core";
import type { UserSettings } from "./userSettings.js";

export interface SessionTools {
  registry: ToolRegistry;
  /** The MCP servers, when some are configured: their notices, prompts and resources. */
  mcp?: McpSessionFeed;
  /** Each configured MCP server and its state: pending, then connected or failed. */
  mcpServers(): { name: string; status: string }[];
  /** Stops what the tools started: the browser, MCP servers. */
  close(): Promise<void>;
}

/**
 * The tools of a CLI session: the built-ins, web search and fetch, the browser, image
 * generation, and the tools of the MCP servers in `$LATHE_HOME/mcp.json` and, in a trusted
 * folder, `.lathe/mcp.json` and `.cursor/mcp.json`. A server that fails to
 * start is reported and left out; the session goes on without it.
 */
export async function sessionTools(inputs: {
  projectRoot: string;
  latheHome: string;
  /**
   * Whether the project's MCP files may start servers (workspace trust: `settleProjectTrust`, or
   * `projectTrusted(checkWorkspaceTrust(…))`); false leaves only the user's own servers.
   */
  projectTrusted: boolean;
  settings: UserSettings;
  env: Record<string, string | undefined>;
  warn?: (message: string) => void;
  /**
   * A session starts its MCP servers in the background: its first request does not wait for them,
   * their tools join as each is ready and failures become the session's notices. Without it
   * (`lathe tool`), every server has started or failed when this returns, failures told to `warn`.
   */
  background?: boolean;
  /** Servers from outside the config files (an editor's): the user's own, so trusted like theirs. */
  extraServers?: readonly McpServerConfig[];
}): Promise<SessionTools> {
  const browsers = new BrowserSessions();
  const { settings, env } = inputs;
  const registry = new ToolRegistry([
    ...builtinTools(),
    createWebSearchTool(() => webSearchSettingsFrom(settings.webSearch, env)),
    createWebFetchTool(() => webFetchSettingsFrom(settings.webFetch)),
    createBrowserUseTool(() => settings.browser ?? {}, browsers),
    createGenerateImageTool(() => imageGenerationSettingsFrom(settings.imageGeneration, env)),
  ]);
  const mcp = loadMcpConfig({
    projectRoot: inputs.projectRoot,
    latheHome: inputs.latheHome,
    env: inputs.env,
    projectTrusted: inputs.projectTrusted,
  });
  for (const problem of mcp.errors) {
    inputs.warn?.(`mcp: ${problem.file}${problem.server ? ` (${problem.server})` : ""}: ${problem.message}`);
  }
  // An editor's server replaces a configured one of the same name: the editor's is the newer word.
  const extra = inputs.extraServers ?? [];
  const servers = [
    ...mcp.servers.filter((server) => !extra.some((own) => own.name === server.name)),
    ...extra,
  ];
  const hub = servers.length > 0 ? await createMcpHub() : undefined;
  const feed = hub && new McpSessionFeed(hub, registry, servers, AbortSignal.timeout(30_000));
  if (feed && !inputs.background) {
    const { failures } = await feed.started;
    for (const failure of failures)
      inputs.warn?.(`mcp: server ${failure.server} did not start: ${failure.error}`);
  }
  const states = new Map(servers.map((server) => [server.name, "pending"]));
  void feed?.started.then(({ failures }) => {
    for (const name of states.keys())
      states.set(name, failures.some((failure) => failure.server === name) ? "failed" : "connected");
  });
  return {
    registry,
    mcp: feed,
    mcpServers: () => [...states].map(([name, status]) => ({ name, status })),
    async close() {
      await Promise.all([browsers.closeAll(), hub?.close()]);
    },
  };
}
