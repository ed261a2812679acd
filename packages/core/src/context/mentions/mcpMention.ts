import { errorInfo, LatheError } from "@lathe/protocol";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";

/**
 * `@server:uri` (or `@mcp server:uri`): the resource read from that MCP server. Written bare, a
 * server name nobody configured leaves the text as it is (`@localhost:3000`).
 */
export async function resolveMcpResource(
  mention: Mention,
  context: ResolverContext,
): Promise<MentionOutcome> {
  const colon = mention.argument.indexOf(":");
  const server = colon === -1 ? mention.argument : mention.argument.slice(0, colon);
  const uri = colon === -1 ? "" : mention.argument.slice(colon + 1);
  const source = context.mcpResources;
  if (source === undefined || !source.hasServer(server)) {
    if (mention.bare) return { type: "ignored" };
    return {
      type: "error",
      error: errorInfo("E_INVALID_ARGS", `No MCP server named ${server} is configured.`),
    };
  }
  if (uri === "") {
    return {
      type: "error",
      error: errorInfo("E_INVALID_ARGS", `${mention.raw} names no resource: write @${server}:<uri>.`),
    };
  }
  try {
    const text = await source.readResource(server, uri, context.signal);
    return { type: "attachment", title: `MCP resource ${uri} of ${server}`, text };
  } catch (error) {
    if (error instanceof LatheError) return { type: "error", error: error.toInfo() };
    throw error;
  }
}
