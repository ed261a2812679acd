import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SpanRecord } from "@lathe/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { secretRedactor } from "../../src/secrets/index.js";
import { RunTracer } from "../../src/trace/index.js";
import { secret, sessionId, t0, twoRuns } from "./traceEvents.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server | undefined;
let home: string | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

/** A stand-in OTLP/HTTP collector on a free local port that keeps every request. */
async function collector(status = 200): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.writeHead(status, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, received };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** The spans of OTLP/HTTP JSON export requests. */
function exportedSpans(received: readonly Received[]): OtlpSpan[] {
  return received.flatMap((request) => {
    const body = JSON.parse(request.body) as {
      resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
    };
    return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  });
}

describe("OTLP export", () => {
  it("posts the spans as OTLP/HTTP JSON to the configured endpoint on flush", async () => {
    const { url, received } = await collector();
    home = mkdtempSync(join(tmpdir(), "lathe-otlp-"));
    const records: SpanRecord[] = [];
    const tracer = new RunTracer({
      latheHome: home,
      sessionId,
      otlpEndpoint: url,
      otlpHeaders: { "x-collector-token": "token-123" },
      redact: secretRedactor([secret]),
      onSpan: (span) => records.push(span),
    });
    for (const event of twoRuns()) tracer.handle(event);
    await tracer.flush();

    expect(received.length).toBeGreaterThan(0);
    for (const request of received) {
      expect(request.method).toBe("POST");
      expect(request.url).toBe("/v1/traces");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["x-collector-token"]).toBe("token-123");
      expect(request.body).not.toContain(secret);
    }
    const spans = exportedSpans(received);
    expect(spans.map((s) => s.name).sort()).toEqual(records.map((r) => r.name).sort());
    expect(new Set(spans.map((s) => s.name))).toEqual(
      new Set(["run", "turn", "llm_call", "tool_call", "approval"]),
    );
    // The same spans, ids and parent links as the records.
    expect(spans.map((s) => `${s.traceId}/${s.spanId}/${s.parentSpanId ?? ""}`).sort()).toEqual(
      records.map((r) => `${r.traceId}/${r.spanId}/${r.parentSpanId ?? ""}`).sort(),
    );
    // Times are the events' own, not the clock's.
    const firstRun = spans.find((s) => s.name === "run" && s.spanId === records[9]?.spanId);
    expect(firstRun?.startTimeUnixNano).toBe(String(BigInt(t0) * 1_000_000n));
    const failedTool = spans.find((s) => s.attributes.some((a) => a.value.stringValue === "read_file"));
    expect(failedTool?.attributes).toContainEqual({
      key: "lathe.error.message",
      value: { stringValue: "No file /home/u/[redacted]/notes.txt" },
    });
    await tracer.shutdown();
  });

  it("exports spans that shutdown had to end", async () => {
    const { url, received } = await collector();
    home = mkdtempSync(join(tmpdir(), "lathe-otlp-"));
    const tracer = new RunTracer({ latheHome: home, sessionId, otlpEndpoint: url });
    const events = twoRuns();
    for (const event of events.slice(
      0,
      events.findIndex((e) => e.type === "usage"),
    ))
      tracer.handle(event);
    await tracer.shutdown();
    expect(
      exportedSpans(received)
        .map((s) => s.name)
        .sort(),
    ).toEqual(["llm_call", "run", "tool_call", "tool_call", "tool_call", "turn"]);
  });

  it("rejects flush when the collector refuses the spans, or hands the error to onError", async () => {
    const { url, received } = await collector(400);
    home = mkdtempSync(join(tmpdir(), "lathe-otlp-"));
    const failing = new RunTracer({ latheHome: home, sessionId, otlpEndpoint: url });
    for (const event of twoRuns()) failing.handle(event);
    await expect(failing.flush()).rejects.toThrow();
    expect(received.length).toBeGreaterThan(0);

    const errors: unknown[] = [];
    const reporting = new RunTracer({
      latheHome: home,
      sessionId,
      otlpEndpoint: url,
      onError: (error) => errors.push(error),
    });
    for (const event of twoRuns()) reporting.handle(event);
    await reporting.flush();
    expect(errors).toHaveLength(1);
    await reporting.shutdown();
    await failing.shutdown();
  });
});
