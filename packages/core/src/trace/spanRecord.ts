import { type SpanRecord, spanNameSchema } from "@lathe/protocol";
import { type HrTime, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { type Attributes, errorCodeKey } from "./spanHandle.js";

/** A finished OpenTelemetry span flattened into the record the store, the JSONL file and `lathe trace` read. */
export function toSpanRecord(span: ReadableSpan, ids: { sessionId: string; runId: string }): SpanRecord {
  const { [errorCodeKey]: errorCode, ...attributes } = scalarAttributes(span);
  const parentSpanId = span.parentSpanContext?.spanId;
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId,
    sessionId: ids.sessionId,
    runId: ids.runId,
    name: spanNameSchema.parse(span.name),
    startMs: epochMs(span.startTime),
    endMs: epochMs(span.endTime),
    status: span.status.code === SpanStatusCode.ERROR ? "error" : "ok",
    errorCode: errorCode === undefined ? undefined : String(errorCode),
    attributes,
  };
}

/** The tracer only sets scalar attributes; anything else (arrays) has no place in a record. */
function scalarAttributes(span: ReadableSpan): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      out[key] = value;
  }
  return out;
}

function epochMs([seconds, nanos]: HrTime): number {
  return seconds * 1000 + nanos / 1e6;
}
