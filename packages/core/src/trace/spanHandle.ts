import type { SpanName } from "@lathe/protocol";
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

/**
 * Where a span's error code lives among its OpenTelemetry attributes: `error.type` is the
 * semantic-convention key backends group errors by; the span record lifts it into `errorCode`.
 */
export const errorCodeKey = "error.type";
export const errorMessageKey = "lathe.error.message";

/**
 * How something ended. A code without error status is how a rejected or cancelled tool call
 * is recorded: nothing broke, but the reason is kept.
 */
export interface Outcome {
  status: "ok" | "error";
  code?: string;
  message?: string;
}

/**
 * One OpenTelemetry span as the tracer drives it: times come from events (never the clock),
 * every string attribute passes through the redactor before any processor can see it, and the
 * end can be noted before it is final, because the event that says how a step went (a
 * `tool_failed`, a failed `run_complete`) arrives after the event that says when it ended.
 */
export class SpanHandle {
  private endAt: number | undefined;

  private constructor(
    private readonly span: Span,
    private readonly redact: (text: string) => string,
  ) {}

  static start(
    tracer: Tracer,
    redact: (text: string) => string,
    name: SpanName,
    parent: SpanHandle | undefined,
    at: number,
    attributes: Attributes,
  ): SpanHandle {
    const context = parent ? parent.context() : ROOT_CONTEXT;
    const span = tracer.startSpan(
      name,
      { startTime: new Date(at), attributes: redacted(attributes, redact), root: parent === undefined },
      context,
    );
    return new SpanHandle(span, redact);
  }

  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  /** True once the end time is known but the span still waits for how it went. */
  get ending(): boolean {
    return this.endAt !== undefined;
  }

  set(attributes: Attributes): void {
    this.span.setAttributes(redacted(attributes, this.redact));
  }

  settle(outcome: Outcome): void {
    if (outcome.code !== undefined) this.set({ [errorCodeKey]: outcome.code });
    if (outcome.message !== undefined) this.set({ [errorMessageKey]: outcome.message });
    if (outcome.status === "error") {
      const message = outcome.message ?? outcome.code;
      this.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: message === undefined ? undefined : this.redact(message),
      });
    }
  }

  /** Notes when the span ended; the first note wins. */
  endsAt(at: number): void {
    this.endAt ??= at;
  }

  /** Ends the span at the noted time, or at `at` when none was noted. */
  end(at: number): void {
    // A Date, not a number: the SDK reads small numbers as performance.now() offsets.
    this.span.end(new Date(this.endAt ?? at));
  }

  private context(): Context {
    return trace.setSpan(ROOT_CONTEXT, this.span);
  }
}

function redacted(attributes: Attributes, redact: (text: string) => string): Attributes {
  return Object.fromEntries(
    Object.entries(attributes).map(([key, value]) => [
      key,
      typeof value === "string" ? redact(value) : value,
    ]),
  );
}
