import { LatheError } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import type { McpResourceSource } from "../../mcpResourceSource.js";
import { defineTool, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

/** Well within the output cap (2,000 lines), so a default page is never cut short. */
const defaultLimit = 1000;

const readMcpResourceSchema = builtinToolSchema("read_mcp_resource", () =>
  z.object({
    server: z.string().min(1),
    uri: z.string().min(1),
    offset: z.number().int().min(1).optional().describe("First line, 1-based."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe(`Lines to show (default ${defaultLimit}).`),
  }),
);

type ReadMcpResourceArgs = z.infer<typeof readMcpResourceSchema>;

/** `read_mcp_resource`: one resource's contents as text, a page of lines at a time. */
export function createReadMcpResourceTool(source: McpResourceSource) {
  return defineTool({
    name: "read_mcp_resource",
    description: toolPrompt(assetUrl("tools/builtin/readMcpResource/readMcpResource.md")),
    schema: readMcpResourceSchema,
    kind: "read",
    risk: () => "safe",
    timeoutMs: 60_000,
    truncation: "head",
    execute: (args, ctx) => readResource(source, args, ctx.signal),
  });
}

async function readResource(
  source: McpResourceSource,
  args: ReadMcpResourceArgs,
  signal: AbortSignal,
): Promise<ToolResult> {
  let text: string;
  try {
    text = await source.readResource(args.server, args.uri, signal);
  } catch (error) {
    if (error instanceof LatheError) return { ok: false, error: error.toInfo() };
    throw error;
  }
  const lines = text.split("\n");
  const first = (args.offset ?? 1) - 1;
  const page = lines.slice(first, first + (args.limit ?? defaultLimit));
  const next = first + page.length;
  const rest =
    next < lines.length
      ? `\n[Lines ${first + 1}–${next} of ${lines.length}. Read on with offset ${next + 1}.]`
      : first > 0 || page.length === 0
        ? `\n[Lines ${Math.min(first + 1, lines.length)}–${next} of ${lines.length}.]`
        : "";
  return {
    ok: true,
    output: `${page.join("\n")}${rest}`,
    metadata: { server: args.server, uri: args.uri, lines: lines.length, shown: page.length },
  };
}
