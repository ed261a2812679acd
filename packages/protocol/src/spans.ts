import { z } from "zod";

/** The span names of one run's trace (SPEC §7): run → turn → llm_call / tool_call / approval / compaction. */
export const spanNameSchema = z.enum(["run", "turn", "llm_call", "tool_call", "approval", "compaction"]);
export type SpanName = z.infer<typeof spanNameSchema>;

/**
 * A finished span as Lathe stores and prints it: the same facts an OpenTelemetry exporter gets,
 * flattened so the database, the JSONL files and the web UI read one shape.
 */
export const spanRecordSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  sessionId: z.string(),
  runId: z.string(),
  name: spanNameSchema,
  /** Epoch milliseconds. */
  startMs: z.number(),
  endMs: z.number(),
  status: z.enum(["ok", "error"]),
  errorCode: z.string().optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type SpanRecord = z.infer<typeof spanRecordSchema>;
