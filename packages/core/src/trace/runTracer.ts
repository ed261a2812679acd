import type { LatheEvent, SpanRecord } from "@lathe/protocol";
import type { Tracer } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { type ReadableSpan, type SpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { RunSpans, type StartSpan } from "./runSpans.js";
import {
  jsonlSpanWriter,
  otlpSpanProcessor,
  RecordingSpanProcessor,
  traceFilePath,
} from "./spanExporters.js";
import { type Outcome, SpanHandle } from "./spanHandle.js";
import { toSpanRecord } from "./spanRecord.js";

export interface RunTracerSettings {
  latheHome: string;
  sessionId: string;
  /** OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces; absent = no OTLP. */
  otlpEndpoint?: string;
  otlpHeaders?: Record<string, string>;
  /** Called with every finished span (the store writes them to SQLite). */
  onSpan?: (span: SpanRecord) => void;
  /** Applied to every string attribute and error message before any exporter sees it. */
  redact?: (text: string) => string;
  /**
   * Gets the errors of the span sinks (the JSONL file, `onSpan`). Without it they are thrown from
   * the `handle`, `flush` or `shutdown` call during which they happened.
   */
  onError?: (error: unknown) => void;
}

/** What spans still open at shutdown end with: the run never finished. */
const shutdownOutcome: Outcome = {
  status: "error",
  code: "E_CANCELLED",
  message: "Lathe stopped before this span ended.",
};

/**
 * Turns one session's event stream into OpenTelemetry spans (run → turn → llm_call / tool_call →
 * approval), timed by the events themselves. Each span is written to the session's JSONL trace
 * file and given to `onSpan` as it ends, and batched to an OTLP collector when one is configured.
 * It has its own TracerProvider and registers nothing globally, so several sessions never mix.
 */
export class RunTracer {
  private readonly provider: TracerProvider;
  private readonly startSpan: StartSpan;
  private readonly runs = new Map<string, RunSpans>();
  private readonly failures: unknown[] = [];
  private closed = false;

  constructor(private readonly settings: RunTracerSettings) {
    const sinks = [jsonlSpanWriter(traceFilePath(settings.latheHome, settings.sessionId))];
    if (settings.onSpan) sinks.push(settings.onSpan);
    const processors: SpanProcessor[] = [
      new RecordingSpanProcessor(
        (span) => this.record(span),
        sinks,
        (error) => this.fail(error),
      ),
    ];
    if (settings.otlpEndpoint)
      processors.push(otlpSpanProcessor(settings.otlpEndpoint, settings.otlpHeaders));
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": "lathe", "lathe.session_id": settings.sessionId }),
      spanProcessors: processors,
    });
    const tracer: Tracer = this.provider.getTracer("lathe");
    const redact = settings.redact ?? ((text: string) => text);
    this.startSpan = (name, parent, at, attributes) =>
      SpanHandle.start(tracer, redact, name, parent, at, attributes);
  }

  /** Feed every session event, in order (subscribe it to the session). */
  handle(event: LatheEvent): void {
    if (this.closed) return;
    if (event.type === "run_start") {
      this.runs.set(event.runId, new RunSpans(this.startSpan, event));
    } else if (this.runs.get(event.runId)?.handle(event)) {
      this.runs.delete(event.runId);
    }
    this.throwFailures();
  }

  /**
   * Writes out everything finished so far (JSONL is written as each span ends; OTLP is batched).
   * A failed OTLP export is an error like a failed sink: thrown here, or given to `onError`.
   */
  async flush(): Promise<void> {
    await this.provider.forceFlush().catch((reason: unknown) => this.fail(exportError(reason)));
    this.throwFailures();
  }

  /**
   * Ends the spans of unfinished runs with status error and code E_CANCELLED at the current time,
   * exports everything and stops; events handled afterwards are ignored.
   */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const now = Date.now();
    for (const run of this.runs.values()) run.abort(shutdownOutcome, now);
    this.runs.clear();
    await this.provider.shutdown().catch((reason: unknown) => this.fail(exportError(reason)));
    this.throwFailures();
  }

  private record(span: ReadableSpan): SpanRecord {
    const traceId = span.spanContext().traceId;
    const run = [...this.runs.values()].find((r) => r.traceId === traceId);
    if (!run) throw new Error(`span ${span.name} belongs to no known run (trace ${traceId})`);
    return toSpanRecord(span, { sessionId: this.settings.sessionId, runId: run.runId });
  }

  private fail(error: unknown): void {
    if (this.settings.onError) this.settings.onError(error);
    else this.failures.push(error);
  }

  private throwFailures(): void {
    if (this.failures.length === 0) return;
    const errors = this.failures.splice(0);
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, "writing trace spans failed");
  }
}

/** The SDK rejects a flush with the list of its processors' errors. */
function exportError(reason: unknown): unknown {
  if (!Array.isArray(reason)) return reason;
  return reason.length === 1 ? reason[0] : new AggregateError(reason, "exporting spans failed");
}
