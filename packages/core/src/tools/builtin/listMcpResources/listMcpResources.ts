import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import type { McpResourceInfo, McpResourceSource } from "../../mcpResourceSource.js";
import { defineTool, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

const defaultLimit = 100;

const listMcpResourcesSchema = builtinToolSchema("list_mcp_resources", () =>
  z.object({
    server: z.string().min(1).optional().describe("Only this server."),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(500).optional().describe(`Entries to show (default ${defaultLimit}).`),
  }),
);

type ListMcpResourcesArgs = z.infer<typeof listMcpResourcesSchema>;

/** `list_mcp_resources`: offered once some MCP server that declared resources is running. */
export function createListMcpResourcesTool(source: McpResourceSource) {
  return defineTool({
    name: "list_mcp_resources",
    description: toolPrompt(assetUrl("tools/builtin/listMcpResources/listMcpResources.md")),
    schema: listMcpResourcesSchema,
    kind: "read",
    risk: () => "safe",
    timeoutMs: 60_000,
    truncation: "head",
    execute: (args, ctx) => listResources(source, args, ctx.signal),
  });
}

async function listResources(
  source: McpResourceSource,
  args: ListMcpResourcesArgs,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (args.server !== undefined && !source.hasServer(args.server)) {
    const message = `No MCP server named ${args.server} is configured; leave out server to list every server's resources.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  const listing = await source.resources(signal, args.server);
  const offset = args.offset ?? 0;
  const limit = args.limit ?? defaultLimit;
  const page = listing.items.slice(offset, offset + limit);
  const lines = page.map(resourceLine);
  const total = listing.items.length;
  const next = offset + page.length;
  if (total === 0) lines.push("No MCP resources are available.");
  else if (page.length === 0) lines.push(`No entries from offset ${offset}; there are ${total}.`);
  else
    lines.push(`Entries ${offset + 1}–${next} of ${total}.${next < total ? ` More: offset ${next}.` : ""}`);
  for (const failure of listing.failures)
    lines.push(`MCP server ${failure.server} could not list: ${failure.error}`);
  return {
    ok: true,
    output: lines.join("\n"),
    metadata: { total, offset, shown: page.length, failures: listing.failures.length },
  };
}

function resourceLine(resource: McpResourceInfo): string {
  const about = [resource.title ?? resource.name, resource.mimeType, resource.description]
    .filter((part) => part !== undefined && part !== "")
    .join(" · ");
  return `${resource.server} ${resource.uri}${about === "" ? "" : ` — ${about}`}`;
}
