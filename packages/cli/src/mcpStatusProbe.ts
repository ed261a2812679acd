import { createMcpHub, loadMcpConfig, projectTrusted } from "@lathe/core";
import type { McpServerStatusList } from "@lathe/protocol";
import { type ServiceResult, served } from "@lathe/server";
import { projectTrustFor } from "./trustServices.js";

/**
 * `GET /api/mcp/status`: the servers a session in the project would start (the project's own
 * files only in a trusted folder), started together as a session starts them; once each is ready
 * or has failed, what it offers and why it failed are read and every server is stopped again.
 */
export async function probeMcpStatus(
  latheHome: string,
  projectRoot: string,
  env: Record<string, string | undefined>,
): Promise<ServiceResult<McpServerStatusList>> {
  const trust = projectTrustFor(latheHome, projectRoot);
  if (!trust.ok) return trust;
  const { servers } = loadMcpConfig({
    projectRoot,
    latheHome,
    env,
    projectTrusted: projectTrusted(trust.value),
  });
  if (servers.length === 0) return served({ servers: [] });
  const hub = await createMcpHub();
  try {
    await hub.start(servers, AbortSignal.timeout(30_000));
    return served({ servers: hub.status() });
  } finally {
    await hub.close();
  }
}
