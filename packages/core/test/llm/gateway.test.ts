import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorInfo, LatheError, type Message } from "@lathe/protocol";
import { type FakeLlm, type FakeTurn, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createModelClient,
  type ModelClient,
  type ModelClientSettings,
  type ModelRequest,
  type ModelStreamEvent,
  type RetryNotice,
} from "../../src/llm/index.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const latheHome = mkdtempSync(join(tmpdir(), "lathe-gateway-"));

const protocols = [
  { modelId: "openai:gpt-4.1", basePath: "/v1", requestPath: "/v1/chat/completions", costUsd: 0.006 },
  { modelId: "anthropic:claude-sonnet-4-5", basePath: "/v1", requestPath: "/v1/messages", costUsd: 0.0105 },
  {
    modelId: "google:gemini-2.5-pro",
    basePath: "/v1beta",
    requestPath: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    costUsd: 0.00625,
  },
  {
    modelId: "deepseek:deepseek-chat",
    basePath: "/v1",
    requestPath: "/v1/chat/completions",
    costUsd: 0.00049,
  },
] as const;

/** Fast clocks for tests; each test states the ones it relies on. */
const quickRetry = {
  firstByteTimeoutMs: 2_000,
  firstByteRetryDelayMs: 10,
  idleTimeoutMs: 2_000,
  rateLimitDefaultDelayMs: 10,
  serverErrorDelaysMs: [10, 20, 40],
};

async function clientFor(
  turns: FakeTurn[],
  settings: Partial<ModelClientSettings> & { basePath?: string } = {},
): Promise<ModelClient> {
  server = await startFakeLlm({ script: { turns } });
  const { basePath = "/v1", ...rest } = settings;
  const made = createModelClient({
    modelId: "openai:gpt-4.1",
    baseUrl: `${server.url}${basePath}`,
    apiKey: "test-key",
    env: {},
    latheHome,
    ...rest,
    retry: { ...quickRetry, ...rest.retry },
  });
  if (!made.ok) throw new Error(made.error.message);
  return made.client;
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are a test.",
    messages: [userMessage("hi")],
    tools: [
      {
        name: "read_file",
        description: "Reads a file.",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ],
    signal: new AbortController().signal,
    ...overrides,
  };
}

function userMessage(text: string): Message {
  return { id: "m-user", sessionId: "s", role: "user", parts: [{ type: "text", text }], createdAt: 0 };
}

async function run(
  client: ModelClient,
  overrides: Partial<ModelRequest> = {},
): Promise<{ events: ModelStreamEvent[]; error?: LatheError }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of client.stream(request(overrides))) events.push(event);
  } catch (error) {
    if (!(error instanceof LatheError)) throw error;
    return { events, error };
  }
  return { events };
}

function joined(events: ModelStreamEvent[], type: "text_delta" | "reasoning_delta"): string {
  return events.map((e) => (e.type === type ? e.delta : "")).join("");
}

function ofType<T extends ModelStreamEvent["type"]>(events: ModelStreamEvent[], type: T) {
  return events.filter((e): e is Extract<ModelStreamEvent, { type: T }> => e.type === type);
}

describe("streaming through each provider", () => {
  it.each(protocols)("streams text and usage with cost over $modelId", async ({
    modelId,
    basePath,
    requestPath,
    costUsd,
  }) => {
    const client = await clientFor(
      [{ text: "Hello there, this is the fake.", usage: { prompt_tokens: 1000, completion_tokens: 500 } }],
      { modelId, basePath },
    );
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    expect(ofType(events, "text_delta").length).toBeGreaterThan(1);
    expect(joined(events, "text_delta")).toBe("Hello there, this is the fake.");
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 1000, outputTokens: 500, cachedInputTokens: 0, reasoningTokens: 0, costUsd },
    });
    expect(server!.requests.map((r) => r.path)).toEqual([requestPath]);
  });

  it.each(
    protocols.filter((p) => p.modelId !== "openai:gpt-4.1"),
  )("streams reasoning before text over $modelId", async ({ modelId, basePath }) => {
    const client = await clientFor([{ reasoning: "Let me think about it.", text: "Done." }], {
      modelId,
      basePath,
    });
    const { events } = await run(client);
    expect(joined(events, "reasoning_delta")).toBe("Let me think about it.");
    expect(joined(events, "text_delta")).toBe("Done.");
    const kinds = events.map((e) => e.type);
    expect(kinds.lastIndexOf("reasoning_delta")).toBeLessThan(kinds.indexOf("text_delta"));
  });

  it("leaves out OpenAI's reasoning_content, which the OpenAI API itself never sends", async () => {
    const client = await clientFor([{ reasoning: "Hidden.", text: "Shown." }]);
    const { events } = await run(client);
    expect(ofType(events, "reasoning_delta")).toEqual([]);
    expect(joined(events, "text_delta")).toBe("Shown.");
  });

  it.each(protocols)("finishes a refused answer with content-filter over $modelId", async ({
    modelId,
    basePath,
  }) => {
    const client = await clientFor([{ text: "I can't help with that.", refused: true }], {
      modelId,
      basePath,
    });
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "finish", finishReason: "content-filter" });
  });

  it.each(protocols)("streams tool calls with their arguments over $modelId", async ({
    modelId,
    basePath,
  }) => {
    const client = await clientFor(
      [
        {
          tool_calls: [
            { name: "read_file", arguments: { path: "src/a.ts" } },
            { name: "read_file", arguments: { path: "b.md" } },
          ],
        },
      ],
      { modelId, basePath },
    );
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    const calls = ofType(events, "tool_call");
    expect(calls.map((c) => [c.name, c.rawArguments])).toEqual([
      ["read_file", '{"path":"src/a.ts"}'],
      ["read_file", '{"path":"b.md"}'],
    ]);
    expect(new Set(calls.map((c) => c.providerCallId)).size).toBe(2);
    for (const call of calls) {
      const starts = ofType(events, "tool_call_start").filter(
        (s) => s.providerCallId === call.providerCallId,
      );
      expect(starts).toEqual([
        { type: "tool_call_start", providerCallId: call.providerCallId, name: "read_file" },
      ]);
      const streamed = ofType(events, "tool_call_delta")
        .filter((d) => d.providerCallId === call.providerCallId)
        .map((d) => d.delta)
        .join("");
      expect(streamed).toBe(call.rawArguments);
    }
    expect(events.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
  });

  it("passes malformed tool arguments through untouched", async () => {
    const client = await clientFor([{ tool_calls: [{ name: "read_file", raw_arguments: "{not json" }] }]);
    const { events } = await run(client);
    expect(ofType(events, "tool_call").map((c) => c.rawArguments)).toEqual(["{not json"]);
  });

  it("follows a redirect to where the API moved, sending the same request there", async () => {
    server = await startFakeLlm({ script: { turns: [{ text: "Answered after the move." }] } });
    const target = server.url;
    const mover = createServer((req, res) => {
      res.writeHead(307, { location: `${target}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => mover.listen(0, "127.0.0.1", resolve));
    try {
      const made = createModelClient({
        modelId: "openai:gpt-4.1",
        baseUrl: `http://127.0.0.1:${(mover.address() as AddressInfo).port}/v1`,
        apiKey: "test-key",
        env: {},
        latheHome,
        retry: quickRetry,
      });
      if (!made.ok) throw new Error(made.error.message);
      const { events, error } = await run(made.client);
      expect(error).toBeUndefined();
      expect(joined(events, "text_delta")).toBe("Answered after the move.");
      expect(server.requests.map((r) => [r.method, r.path])).toEqual([["POST", "/v1/chat/completions"]]);
      expect(server.requests[0]!.body).toMatchObject({
        model: "gpt-4.1",
        messages: [
          { role: "system", content: "You are a test." },
          { role: "user", content: "hi" },
        ],
      });
    } finally {
      mover.closeAllConnections();
      await new Promise((resolve) => mover.close(resolve));
    }
  });

  it("sends the key, the system prompt and the tools in the provider's own format", async () => {
    const client = await clientFor([{ text: "ok" }], { modelId: "anthropic:claude-sonnet-4-5" });
    await run(client);
    const sent = server!.requests[0]!;
    expect(sent.headers["x-api-key"]).toBe("test-key");
    expect(sent.body).toMatchObject({
      model: "claude-sonnet-4-5",
      stream: true,
      system: [{ type: "text", text: "You are a test." }],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      tools: [{ name: "read_file", description: "Reads a file." }],
    });
  });
});

describe("retries", () => {
  it("honours retry-after on a 429 and then succeeds", async () => {
    const notices: RetryNotice[] = [];
    const client = await clientFor(
      [{ error: { status: 429, retry_after_s: 0.2 } }, { text: "after the wait" }],
      {
        onRetry: (notice) => notices.push(notice),
      },
    );
    const started = Date.now();
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(server!.requests).toHaveLength(2);
    const retries = ofType(events, "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({
      type: "retry",
      attempt: 2,
      delayMs: 200,
      error: { code: "E_LLM_RATE_LIMIT" },
    });
    expect(notices).toEqual([
      { modelId: "openai:gpt-4.1", attempt: 2, delayMs: 200, error: retries[0]!.error },
    ]);
    expect(joined(events, "text_delta")).toBe("after the wait");
  });

  it("waits the configured default when a 429 has no retry-after, and gives up after three retries", async () => {
    const limited: FakeTurn = { error: { status: 429 } };
    const client = await clientFor([limited, limited, limited, limited], {
      retry: { rateLimitDefaultDelayMs: 15 },
    });
    const { events, error } = await run(client);
    expect(ofType(events, "retry").map((r) => [r.attempt, r.delayMs, r.error.code])).toEqual([
      [2, 15, "E_LLM_RATE_LIMIT"],
      [3, 15, "E_LLM_RATE_LIMIT"],
      [4, 15, "E_LLM_RATE_LIMIT"],
    ]);
    expect(error?.code).toBe("E_LLM_RATE_LIMIT");
    expect(error?.message).toContain("still rate limited after 3 retries");
    expect(server!.requests).toHaveLength(4);
  });

  it("falls back to the next model after repeated 429s", async () => {
    const limited: FakeTurn = { error: { status: 429, retry_after_s: 0 } };
    const fallbackTurn: FakeTurn = {
      text: "from the fallback",
      usage: { prompt_tokens: 1000, completion_tokens: 1000 },
    };
    const client = await clientFor([limited, limited, limited, limited, fallbackTurn], {
      fallbackModels: ["openai:gpt-4o-mini"],
    });
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    const bodies = server!.requests.map((r) => (r.body as { model: string }).model);
    expect(bodies).toEqual(["gpt-4.1", "gpt-4.1", "gpt-4.1", "gpt-4.1", "gpt-4o-mini"]);
    const retries = ofType(events, "retry");
    expect(retries.map((r) => [r.attempt, r.delayMs, r.fallbackModelId])).toEqual([
      [2, 0, undefined],
      [3, 0, undefined],
      [4, 0, undefined],
      [5, 0, "openai:gpt-4o-mini"],
    ]);
    expect(retries.at(-1)?.error.code).toBe("E_LLM_RATE_LIMIT");
    expect(joined(events, "text_delta")).toBe("from the fallback");
    // Priced as the fallback model: 1000 × $0.15 + 1000 × $0.60 per million tokens.
    const finish = ofType(events, "finish")[0];
    expect(finish?.usage.costUsd).toBeCloseTo(0.00075, 12);
  });

  it("retries a 500 and then succeeds", async () => {
    const client = await clientFor([{ error: { status: 500 } }, { text: "recovered" }]);
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    expect(server!.requests).toHaveLength(2);
    expect(ofType(events, "retry")).toEqual([
      {
        type: "retry",
        attempt: 2,
        delayMs: 10,
        error: expect.objectContaining({ code: "E_LLM_ERROR", retryable: true }),
      },
    ]);
    expect(joined(events, "text_delta")).toBe("recovered");
  });

  it("gives up on server errors after the configured delays", async () => {
    const failing: FakeTurn = { error: { status: 503 } };
    const client = await clientFor([failing, failing, failing, failing]);
    const { events, error } = await run(client);
    expect(ofType(events, "retry").map((r) => r.delayMs)).toEqual([10, 20, 40]);
    expect(error?.code).toBe("E_LLM_ERROR");
    expect(error?.message).toContain("HTTP 503");
    expect(error?.message).toContain("gave up after 4 attempts");
    expect(server!.requests).toHaveLength(4);
  });

  it("does not retry a 401 and says how to fix the key", async () => {
    const client = await clientFor([{ error: { status: 401 } }, { text: "never sent" }], {
      modelId: "anthropic:claude-sonnet-4-5",
    });
    const { events, error } = await run(client);
    expect(events).toEqual([]);
    expect(error?.code).toBe("E_LLM_AUTH");
    expect(error?.message).toContain("HTTP 401");
    expect(error?.message).toContain("Set ANTHROPIC_API_KEY");
    expect(error?.message).toContain(join(latheHome, "credentials.json"));
    expect(server!.requests).toHaveLength(1);
  });

  it("names the environment variable the rejected key came from", async () => {
    server = await startFakeLlm({ script: { turns: [{ error: { status: 403 } }] } });
    const made = createModelClient({
      modelId: "openai:gpt-4.1",
      baseUrl: `${server.url}/v1`,
      env: { OPENAI_API_KEY: "sk-wrong" },
      latheHome,
    });
    if (!made.ok) throw new Error(made.error.message);
    const { error } = await run(made.client);
    expect(error?.code).toBe("E_LLM_AUTH");
    expect(error?.message).toContain("The key in use came from OPENAI_API_KEY.");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-wrong");
  });

  it("words the fix for a missing or rejected key as the face that made the client says", async () => {
    const advice = (provider: string) => `Add a key for ${provider} in Settings.`;
    const missing = createModelClient({ modelId: "openai:gpt-4.1", env: {}, latheHome, authAdvice: advice });
    expect(missing.ok ? undefined : missing.error.message).toBe(
      "No API key for openai. Add a key for openai in Settings.",
    );
    server = await startFakeLlm({ script: { turns: [{ error: { status: 401 } }] } });
    const made = createModelClient({
      modelId: "openai:gpt-4.1",
      baseUrl: `${server.url}/v1`,
      env: { OPENAI_API_KEY: "sk-wrong" },
      latheHome,
      authAdvice: advice,
    });
    if (!made.ok) throw new Error(made.error.message);
    const { error } = await run(made.client);
    expect(error?.code).toBe("E_LLM_AUTH");
    expect(error?.message).toMatch(/HTTP 401.* Add a key for openai in Settings\.$/);
    expect(error?.message).not.toContain("--api-key");
  });

  it("reports a provider's context overflow without retrying", async () => {
    const client = await clientFor([
      {
        error: {
          status: 400,
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        },
      },
    ]);
    const { error } = await run(client);
    expect(error?.code).toBe("E_CONTEXT_OVERFLOW");
    expect(error?.message).toContain("maximum context length is 128000 tokens");
    expect(server!.requests).toHaveLength(1);
  });

  it("retries once when the first byte does not come in time, then succeeds", async () => {
    const client = await clientFor([{ hang_ms: 5_000 }, { text: "awake now" }], {
      retry: { firstByteTimeoutMs: 150, firstByteRetryDelayMs: 30 },
    });
    const started = Date.now();
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(ofType(events, "retry")).toEqual([
      { type: "retry", attempt: 2, delayMs: 30, error: expect.objectContaining({ code: "E_LLM_TIMEOUT" }) },
    ]);
    expect(joined(events, "text_delta")).toBe("awake now");
    expect(server!.requests).toHaveLength(2);
  });

  it("fails with E_LLM_TIMEOUT when the retry does not answer either", async () => {
    const client = await clientFor([{ hang_ms: 5_000 }, { hang_ms: 5_000 }, { text: "too late" }], {
      retry: { firstByteTimeoutMs: 150, firstByteRetryDelayMs: 10 },
    });
    const { events, error } = await run(client);
    expect(ofType(events, "retry")).toHaveLength(1);
    expect(error?.code).toBe("E_LLM_TIMEOUT");
    expect(error?.message).toBe(
      "openai:gpt-4.1 sent nothing within 0.15 s (firstByteTimeoutMs). (gave up after 2 attempts)",
    );
    expect(server!.requests).toHaveLength(2);
  });

  it("aborts a stream that goes quiet after it started and retries it once", async () => {
    // The response opens at once, then waits five seconds before its first words: the idle clock's case.
    const client = await clientFor(
      [
        { text: "This answer stalls after its opening frame.", chunk_delay_ms: 5_000 },
        { text: "second try" },
      ],
      { retry: { firstByteTimeoutMs: 2_000, idleTimeoutMs: 200 } },
    );
    const started = Date.now();
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(ofType(events, "retry")).toEqual([
      {
        type: "retry",
        attempt: 2,
        delayMs: 0,
        error: expect.objectContaining({
          code: "E_LLM_TIMEOUT",
          message: "openai:gpt-4.1 stopped sending for 0.2 s mid-response (idleTimeoutMs).",
        }),
      },
    ]);
    expect(joined(events, "text_delta")).toBe("second try");
    expect(server!.requests).toHaveLength(2);
  });

  it("fails with E_LLM_TIMEOUT when the stream goes quiet twice", async () => {
    const stalling: FakeTurn = { text: "Stalls.", chunk_delay_ms: 1_000 };
    const client = await clientFor([stalling, stalling], { retry: { idleTimeoutMs: 100 } });
    const { events, error } = await run(client);
    expect(ofType(events, "retry")).toHaveLength(1);
    expect(error?.code).toBe("E_LLM_TIMEOUT");
    expect(server!.requests).toHaveLength(2);
  });

  it.each(protocols)("retries a stream dropped mid-way over $modelId", async ({ modelId, basePath }) => {
    const client = await clientFor(
      [
        { text: "This text will be cut off after a chunk.", drop_after_chunks: 1 },
        { text: "complete answer" },
      ],
      { modelId, basePath },
    );
    const { events, error } = await run(client);
    expect(error).toBeUndefined();
    const kinds = events.map((e) => e.type);
    const retryAt = kinds.indexOf("retry");
    expect(retryAt).toBeGreaterThan(0);
    expect(ofType(events, "retry")).toEqual([
      { type: "retry", attempt: 2, delayMs: 10, error: expect.objectContaining({ code: "E_LLM_ERROR" }) },
    ]);
    expect(joined(events.slice(0, retryAt), "text_delta").length).toBeGreaterThan(0);
    expect(joined(events.slice(retryAt + 1), "text_delta")).toBe("complete answer");
    expect(events.at(-1)?.type).toBe("finish");
    expect(server!.requests).toHaveLength(2);
  });
});

describe("cancellation", () => {
  it("aborts mid-stream promptly with E_CANCELLED", async () => {
    const client = await clientFor([
      // The next chunk is seconds away: an abort that waited for it would show.
      { text: "A slow answer that the user will not wait for.", chunk_delay_ms: 3_000 },
    ]);
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    let caught: unknown;
    let abortedAt = 0;
    try {
      for await (const event of client.stream(request({ signal: controller.signal }))) {
        events.push(event);
        if (events.length === 1) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    } catch (error) {
      caught = error;
    }
    expect(Date.now() - abortedAt).toBeLessThan(1_500);
    expect(caught).toBeInstanceOf(LatheError);
    expect((caught as LatheError).code).toBe("E_CANCELLED");
    expect(events).toHaveLength(1);
  });

  it("cancels a retry wait at once", async () => {
    const client = await clientFor([{ error: { status: 429, retry_after_s: 30 } }]);
    const controller = new AbortController();
    let caught: unknown;
    const started = Date.now();
    try {
      for await (const event of client.stream(request({ signal: controller.signal }))) {
        if (event.type === "retry") controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((caught as LatheError).code).toBe("E_CANCELLED");
  });
});

describe("configuration errors come back as values", () => {
  it("rejects a bad model id", () => {
    const made = createModelClient({ modelId: "gpt-4.1", env: {}, latheHome });
    expect(made).toMatchObject({ ok: false, error: { code: "E_INVALID_ARGS" } });
  });

  it("rejects a provider without a key", () => {
    const made = createModelClient({ modelId: "deepseek:deepseek-chat", env: {}, latheHome });
    expect(made).toEqual({
      ok: false,
      error: errorInfo(
        "E_LLM_AUTH",
        `No API key for deepseek. Set DEEPSEEK_API_KEY, or add {"deepseek": {"apiKey": "…"}} to ${join(latheHome, "credentials.json")} (chmod 600), or pass --api-key.`,
      ),
    });
  });

  it("names the fallback model whose configuration is wrong", () => {
    const made = createModelClient({
      modelId: "openai:gpt-4.1",
      apiKey: "k",
      fallbackModels: ["anthropic:claude-haiku-4-5"],
      env: {},
      latheHome,
    });
    expect(made.ok).toBe(false);
    if (!made.ok)
      expect(made.error.message).toMatch(
        /^Fallback model anthropic:claude-haiku-4-5: No API key for anthropic/,
      );
  });

  it("needs no key for Ollama", () => {
    const made = createModelClient({ modelId: "ollama:qwen3:8b", env: {}, latheHome });
    expect(made.ok && made.client.modelId).toBe("ollama:qwen3:8b");
  });
});
