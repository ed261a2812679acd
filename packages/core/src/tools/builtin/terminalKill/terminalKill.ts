import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { describeStatus } from "../../terminals/terminalReport.js";
import { unknownTerminalError } from "../../terminals/unknownTerminal.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

const terminalKillSchema = builtinToolSchema("terminal_kill", () =>
  z.object({
    id: z.string().min(1),
  }),
);

type TerminalKillArgs = z.infer<typeof terminalKillSchema>;

export const terminalKillTool = defineTool({
  name: "terminal_kill",
  description: toolPrompt(assetUrl("tools/builtin/terminalKill/terminalKill.md")),
  schema: terminalKillSchema,
  kind: "execute",
  risk: () => "low",
  timeoutMs: 15_000,
  truncation: "head",
  execute: terminalKill,
});

async function terminalKill(args: TerminalKillArgs, ctx: ToolContext): Promise<ToolResult> {
  const before = ctx.terminals.get(args.id);
  if (before === undefined) return { ok: false, error: unknownTerminalError(args.id, ctx.terminals) };
  const after = (await ctx.terminals.kill(args.id)) ?? before;
  const what = `Background command ${after.id} (pid ${after.pid}, \`${after.command}\`)`;
  const outcome =
    before.status.state === "running"
      ? `${what} was stopped with everything it started: ${describeStatus(after)}.`
      : `${what} had already ended: ${describeStatus(after)}.${before.childrenRunning ? " The processes it left running were stopped." : ""}`;
  const text = `${outcome}\nIts last output can still be read with terminal_output {"id":"${after.id}"}.`;
  return { ok: true, output: text, metadata: { terminalId: after.id, status: after.status } };
}
