import { errorInfo, newId } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

const askUserSchema = builtinToolSchema("ask_user", () =>
  z.object({
    questions: z
      .array(
        z.object({
          question: z.string().trim().min(1),
          options: z
            .array(z.string().trim().min(1))
            .min(2)
            .max(6)
            .optional()
            .describe("Choices; the user may still answer freely."),
        }),
      )
      .min(1)
      .max(4),
  }),
);

type AskUserArgs = z.infer<typeof askUserSchema>;

/** The run waits on a person, who may be away for a while; a cancel still stops it at once. */
const answerWaitMs = 24 * 60 * 60 * 1000;

const headlessMessage =
  "No one can answer questions in this run (headless). Decide yourself and say what you assumed, or stop and report what you need.";

export const askUserTool = defineTool({
  name: "ask_user",
  description: toolPrompt(assetUrl("tools/builtin/askUser/askUser.md")),
  schema: askUserSchema,
  kind: "think",
  risk: () => "safe",
  timeoutMs: answerWaitMs,
  truncation: "head",
  execute: askUser,
});

async function askUser(args: AskUserArgs, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.questions === undefined) {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", headlessMessage) };
  }
  const questionId = newId();
  // Announced on the session's stream like an approval, so every client sees the run is waiting.
  ctx.emitEvent?.({ type: "user_question", questionId, callId: ctx.callId, questions: args.questions });
  const answered = await ctx.questions.ask(args.questions, {
    callId: ctx.callId,
    questionId,
    signal: ctx.signal,
  });
  if (!answered.ok) return answered;
  const blocks = args.questions.map((item, index) => {
    const answer = answered.answers[index]?.trim() || "(no answer)";
    return `Question ${index + 1}: ${item.question}\nAnswer: ${answer}`;
  });
  return { ok: true, output: blocks.join("\n\n"), metadata: { answers: answered.answers } };
}
