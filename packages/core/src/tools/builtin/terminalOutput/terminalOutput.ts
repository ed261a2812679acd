import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import {
  describeStatus,
  formatTerminalOutput,
  stillRunning,
  terminalUsageHint,
} from "../../terminals/terminalReport.js";
import { unknownTerminalError } from "../../terminals/unknownTerminal.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

const terminalOutputSchema = builtinToolSchema("terminal_output", () =>
  z.object({
    id: z.string().min(1),
    since_last: z.boolean().default(true).describe("false: all kept output."),
  }),
);

type TerminalOutputArgs = z.infer<typeof terminalOutputSchema>;

export const terminalOutputTool = defineTool({
  name: "terminal_output",
  description: toolPrompt(assetUrl("tools/builtin/terminalOutput/terminalOutput.md")),
  schema: terminalOutputSchema,
  kind: "read",
  risk: () => "safe",
  timeoutMs: 10_000,
  // The newest output of a long-running command matters most.
  truncation: "head_tail",
  execute: terminalOutput,
});

async function terminalOutput(args: TerminalOutputArgs, ctx: ToolContext): Promise<ToolResult> {
  const output = ctx.terminals.read(args.id, { sinceLast: args.since_last });
  if (output === undefined) return { ok: false, error: unknownTerminalError(args.id, ctx.terminals) };
  const headline = `Background command ${output.id} (pid ${output.pid}): ${describeStatus(output)}.`;
  const emptyNote = args.since_last ? "(no new output since the last read)" : "(no output)";
  const report = formatTerminalOutput(output, headline, emptyNote);
  const text = stillRunning(output) ? `${report}\n${terminalUsageHint(output.id)}` : report;
  return { ok: true, output: text, metadata: { terminalId: output.id, status: output.status } };
}
