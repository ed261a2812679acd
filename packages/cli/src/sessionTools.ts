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
  ToolRegistry,
  webFetchSettingsFrom,
  webSearchSettingsFrom,
} from "@lathe/core";
import type { UserSettings } from "./userSettings.js";

export interface SessionTools {
  registry: ToolRegistry;
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
  const hub = mcp.servers.length > 0 ? await createMcpHub() : undefined;
  if (hub) {
    const { failures } = await hub.start(mcp.servers, AbortSignal.timeout(30_000));
    for (const failure of failures)
      inputs.warn?.(`mcp: server ${failure.server} did not start: ${failure.error}`);
    for (const tool of hub.tools()) registry.register(tool);
  }
  return {
    registry,
    async close() {
      await Promise.all([browsers.closeAll(), hub?.close()]);
    },
  };
}
