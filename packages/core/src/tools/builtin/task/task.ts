import { readFileSync } from "node:fs";
import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool } from "../../tool.js";

const description = readFileSync(assetUrl("tools/builtin/task/task.md"), "utf8").trim();

const schema = builtinToolSchema("task", () =>
  z.object({
    description: z.string().min(3).max(80).describe("A few words, shown to the user."),
    prompt: z.string().min(1).max(20_000),
    agent: z
      .string()
      .min(1)
      .max(40)
      .optional()
      .describe('"explore" (read-only), "general" (default) or a project agent.'),
  }),
);

/** `task`: runs a sub-agent (SPEC §4). Its own calls go through the policy and approvals as usual. */
export const taskTool = defineTool({
  name: "task",
  description,
  schema,
  // The sub-agent's own calls are judged one by one; delegating itself changes nothing, and
  // independent explorations may run side by side.
  kind: "think",
  risk: () => "safe",
  timeoutMs: 11 * 60_000,
  truncation: "head",
  async execute(args, ctx) {
    if (!ctx.subagents) {
      return {
        ok: false,
        error: errorInfo(
          "E_TOOL_EXECUTION",
          "Sub-agents are not available here (a sub-agent cannot start more at this depth).",
        ),
      };
    }
    const result = await ctx.subagents.run(
      {
        agent: args.agent ?? "general",
        description: args.description,
        prompt: args.prompt,
        callId: ctx.callId,
        emit: ctx.emitEvent,
      },
      ctx.signal,
    );
    if (!result.ok) return { ok: false, error: result.error, output: result.output || undefined };
    return {
      ok: true,
      output: result.output || "(the sub-agent finished without a report)",
      metadata: { partial: result.partial, iterations: result.iterations },
    };
  },
});
