import { readFile } from "node:fs/promises";
import { z } from "zod";

const scriptedToolCallSchema = z
  .strictObject({
    name: z.string().min(1),
    /** Sent as JSON text; defaults to `{}`. */
    arguments: z.record(z.string(), z.unknown()).optional(),
    /** Sent verbatim as the arguments text, so tests can feed the engine malformed JSON. */
    raw_arguments: z.string().optional(),
    /** Absent: the server makes one up. null: omitted wherever the wire format allows it. */
    id: z.string().min(1).nullable().optional(),
  })
  .refine((call) => call.arguments === undefined || call.raw_arguments === undefined, {
    message: "give either arguments or raw_arguments, not both",
  });

const scriptedErrorSchema = z.strictObject({
  status: z.number().int().min(400).max(599),
  retry_after_s: z.number().nonnegative().optional(),
  /** Sent verbatim (objects as JSON); when absent, an error in the provider's own shape. */
  body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  /** The message inside the provider-shaped error body. */
  message: z.string().optional(),
});

const scriptedUsageSchema = z.strictObject({
  prompt_tokens: z.number().int().nonnegative().optional(),
  completion_tokens: z.number().int().nonnegative().optional(),
});

const contentFields = [
  "text",
  "reasoning",
  "tool_calls",
  "usage",
  "chunk_delay_ms",
  "tokens_per_second",
  "drop_after_chunks",
] as const;

export const fakeTurnSchema = z
  .strictObject({
    text: z.string().optional(),
    reasoning: z.string().optional(),
    tool_calls: z.array(scriptedToolCallSchema).optional(),
    usage: scriptedUsageSchema.optional(),
    chunk_delay_ms: z.number().int().nonnegative().optional(),
    /**
     * Stream the output at this steady rate (a token being four characters of reasoning, text or
     * tool arguments), paced against the clock so long answers keep it however late the timers
     * fire; takes the place of chunk_delay_ms.
     */
    tokens_per_second: z.number().positive().optional(),
    /** Send the headers and this many content chunks, then destroy the socket. */
    drop_after_chunks: z.number().int().nonnegative().optional(),
    /**
     * The provider declines to answer: the OpenAI wire finishes with `content_filter`, Anthropic's
     * with `refusal`, Gemini's with `SAFETY`.
     */
    refused: z.boolean().optional(),
    /** Send nothing at all for this long before answering. */
    hang_ms: z.number().int().nonnegative().optional(),
    /**
     * Served only to a request whose body (its JSON text) holds this string: the first turn not
     * served yet that fits is the answer. Lets one script answer requests that arrive in any order
     * (steps of a pipeline on several workers, attempts side by side).
     */
    when: z.string().min(1).optional(),
    error: scriptedErrorSchema.optional(),
  })
  .superRefine((turn, context) => {
    if (turn.error === undefined) return;
    for (const field of contentFields) {
      if (turn[field] !== undefined) {
        context.addIssue({
          code: "custom",
          path: [field],
          message: `an error turn cannot also have ${field}`,
        });
      }
    }
  });

export const fakeScriptSchema = z.strictObject({ turns: z.array(fakeTurnSchema) });

export type FakeTurn = z.input<typeof fakeTurnSchema>;
export type FakeScript = z.input<typeof fakeScriptSchema>;
export type ScriptedToolCall = z.output<typeof scriptedToolCallSchema>;
export type ScriptedError = z.output<typeof scriptedErrorSchema>;
export type ScriptedTurn = z.output<typeof fakeTurnSchema>;

/** Validates a script, naming the offending turn in the error. */
export function parseFakeScript(value: unknown, source: string): ScriptedTurn[] {
  const result = fakeScriptSchema.safeParse(value);
  if (result.success) return result.data.turns;
  const problems = result.error.issues.map((issue) => {
    const [head, index, ...rest] = issue.path;
    const where =
      head === "turns" && typeof index === "number"
        ? `turn ${index} (turns[${index}])${rest.length > 0 ? ` ${formatPath(rest)}` : ""}`
        : formatPath(issue.path) || "script";
    return `${where}: ${issue.message}`;
  });
  throw new Error(`fake-llm: invalid script ${source}:\n  ${problems.join("\n  ")}`);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : `${i > 0 ? "." : ""}${String(key)}`))
    .join("");
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads (when given a path) and validates a script. */
export async function loadFakeScript(script: FakeScript | string): Promise<ScriptedTurn[]> {
  if (typeof script !== "string") return parseFakeScript(script, "(in-process)");
  let text: string;
  try {
    text = await readFile(script, "utf8");
  } catch (error) {
    throw new Error(`fake-llm: cannot read script ${script}: ${errorMessage(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`fake-llm: script ${script} is not JSON: ${errorMessage(error)}`);
  }
  return parseFakeScript(value, script);
}
