import { appendFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { SpanRecord } from "@lathe/protocol";
import { BatchSpanProcessor, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace";

export type SpanSink = (record: SpanRecord) => void;

/** `$LATHE_HOME/traces/<sessionId>.jsonl`: one finished span per line. */
export function traceFilePath(latheHome: string, sessionId: string): string {
  // The id becomes a file name, so it must not be able to point anywhere else.
  if (!/^[\w.-]+$/.test(sessionId) || /^\.+$/.test(sessionId)) {
    throw new Error(`session id ${JSON.stringify(sessionId)} cannot name a trace file`);
  }
  return join(latheHome, "traces", `${sessionId}.jsonl`);
}

/**
 * Appends each record as one JSON line, synchronously, so a crash right after a span ends still
 * leaves it on disk. Owner-only: traces hold tool names and error messages that may quote paths.
 */
export function jsonlSpanWriter(file: string): SpanSink {
  let dirReady = false;
  return (record) => {
    if (!dirReady) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      dirReady = true;
    }
    appendFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  };
}

/**
 * Hands every ended span, as a record, to each sink as it ends. A failing sink is reported and
 * skipped, so one broken destination never keeps a span from the others or breaks the caller.
 */
export class RecordingSpanProcessor implements SpanProcessor {
  constructor(
    private readonly toRecord: (span: ReadableSpan) => SpanRecord,
    private readonly sinks: readonly SpanSink[],
    private readonly report: (error: unknown) => void,
  ) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    let record: SpanRecord;
    try {
      record = this.toRecord(span);
    } catch (error) {
      this.report(error);
      return;
    }
    for (const sink of this.sinks) {
      try {
        sink(record);
      } catch (error) {
        this.report(error);
      }
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** OTLP over HTTP (the exporter sends JSON), batched so a slow collector never slows a run. */
export function otlpSpanProcessor(url: string, headers: Record<string, string> | undefined): SpanProcessor {
  // Loaded only when OTLP is configured: most runs never export and should not pay for it.
  const { OTLPTraceExporter } = createRequire(import.meta.url)(
    "@opentelemetry/exporter-trace-otlp-http",
  ) as typeof import("@opentelemetry/exporter-trace-otlp-http");
  return new BatchSpanProcessor({
    exporter: new OTLPTraceExporter({ url, headers }),
  });
}
