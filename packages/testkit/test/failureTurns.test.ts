import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeLlm, type FakeTurn, startFakeLlm } from "../src/index.js";
import { streamFrom } from "./modelStream.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(turns: FakeTurn[]): Promise<FakeLlm> {
  server = await startFakeLlm({ script: { turns } });
  return server;
}

const openaiModel = (url: string) => createOpenAI({ baseURL: `${url}/v1`, apiKey: "test" }).chat("gpt-4o");

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("error turns", () => {
  it("answer with the scripted status, retry-after header and body", async () => {
    const body = '{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}';
    const { url } = await serve([
      { error: { status: 429, retry_after_s: 1, body } },
      { text: "after the wait" },
    ]);

    const error = await rejection(streamFrom(openaiModel(url)));
    expect(APICallError.isInstance(error)).toBe(true);
    if (!APICallError.isInstance(error)) return;
    expect(error.statusCode).toBe(429);
    expect(error.isRetryable).toBe(true);
    expect(error.responseHeaders?.["retry-after"]).toBe("1");
    expect(error.responseBody).toBe(body);
    expect(error.message).toBe("slow down");

    expect((await streamFrom(openaiModel(url))).text).toBe("after the wait");
  });

  it("default to an error body in each provider's own shape", async () => {
    const { url } = await serve([
      { error: { status: 429 } },
      { error: { status: 401, message: "bad key" } },
      { error: { status: 503 } },
    ]);
    const post = async (path: string) => {
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        body: JSON.stringify({ stream: true }),
      });
      return {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        body: await response.json(),
      };
    };

    expect(await post("/v1/chat/completions")).toEqual({
      status: 429,
      retryAfter: null,
      body: {
        error: {
          message: "fake-llm: scripted HTTP 429 Too Many Requests",
          type: "requests",
          code: "rate_limit_exceeded",
          param: null,
        },
      },
    });
    expect(await post("/v1/messages")).toEqual({
      status: 401,
      retryAfter: null,
      body: { type: "error", error: { type: "authentication_error", message: "bad key" } },
    });
    expect(await post("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse")).toEqual({
      status: 503,
      retryAfter: null,
      body: {
        error: {
          code: 503,
          message: "fake-llm: scripted HTTP 503 Service Unavailable",
          status: "UNAVAILABLE",
        },
      },
    });
  });

  it("are parsed by the Anthropic and Google clients as API errors with the provider's message", async () => {
    const { url } = await serve([{ error: { status: 529 } }, { error: { status: 500, message: "boom" } }]);

    const anthropic = await rejection(
      streamFrom(createAnthropic({ baseURL: `${url}/v1`, apiKey: "test" })("claude-sonnet-4-5")),
    );
    expect(APICallError.isInstance(anthropic) && [anthropic.statusCode, anthropic.message]).toEqual([
      529,
      "fake-llm: scripted HTTP 529 error",
    ]);
    const google = await rejection(
      streamFrom(createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: "test" })("gemini-2.5-pro")),
    );
    expect(APICallError.isInstance(google) && [google.statusCode, google.message]).toEqual([500, "boom"]);
  });
});

describe("hang turns", () => {
  it("send nothing, survive the client giving up after 100 ms, and serve the next turn", async () => {
    const { url, turnsServed } = await serve([{ hang_ms: 60_000 }, { text: "still serving" }]);
    const started = Date.now();

    const error = await rejection(streamFrom(openaiModel(url), AbortSignal.timeout(100)));
    expect(error).toMatchObject({ name: "TimeoutError" });
    expect(Date.now() - started).toBeLessThan(5_000);

    const next = await streamFrom(openaiModel(url));
    expect(next.text).toBe("still serving");
    expect(turnsServed()).toBe(2);
  });

  it("answer with the turn's text once the hang is over", async () => {
    const { url } = await serve([{ hang_ms: 150, text: "sorry for the wait" }]);
    const started = Date.now();
    const result = await streamFrom(openaiModel(url));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(result.text).toBe("sorry for the wait");
    expect(result.finishReason).toBe("stop");
  });

  it("do not hold close() open", async () => {
    const fake = await startFakeLlm({ script: { turns: [{ hang_ms: 60_000 }] } });
    const pending = fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ stream: true }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await fake.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(pending).rejects.toThrow();
  });
});

describe("drop_after_chunks", () => {
  it.each([
    ["OpenAI", openaiModel],
    [
      "Anthropic",
      (url: string) => createAnthropic({ baseURL: `${url}/v1`, apiKey: "test" })("claude-sonnet-4-5"),
    ],
    [
      "Gemini",
      (url: string) =>
        createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: "test" })("gemini-2.5-pro"),
    ],
  ])("cuts the %s stream after N content chunks, without a finish", async (_name, model) => {
    const text = "this answer will be cut off in the middle of a sentence";
    const { url } = await serve([{ text, drop_after_chunks: 2 }, { text: "complete answer" }]);

    const cut = await streamFrom(model(url));
    expect(cut.errors.length).toBeGreaterThan(0);
    expect(cut.finishReason).toBeUndefined();
    expect(cut.textDeltas).toBe(2);
    expect(text.startsWith(cut.text)).toBe(true);
    expect(cut.text.length).toBeLessThan(text.length);

    const next = await streamFrom(model(url));
    expect(next.text).toBe("complete answer");
  });
});

describe("chunk_delay_ms", () => {
  it("spaces the chunks out", async () => {
    const { url } = await serve([{ text: "one two three", chunk_delay_ms: 60 }]);
    const started = Date.now();
    const result = await streamFrom(openaiModel(url));
    expect(result.text).toBe("one two three");
    // Three text chunks and the finishing chunks each wait once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 60 - 20);
  });
});

describe("an exhausted script", () => {
  it("answers 400 with a provider-shaped error and counts no further turns", async () => {
    const { url, turnsServed } = await serve([{ text: "only one" }]);
    await streamFrom(openaiModel(url));

    const error = await rejection(streamFrom(openaiModel(url)));
    expect(APICallError.isInstance(error) && [error.statusCode, error.message, error.isRetryable]).toEqual([
      400,
      "fake-llm: script exhausted after 1 turns",
      false,
    ]);
    const anthropic = await fetch(`${url}/v1/messages`, { method: "POST", body: "{}" });
    expect(anthropic.status).toBe(400);
    expect(await anthropic.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "fake-llm: script exhausted after 1 turns" },
    });
    expect(turnsServed()).toBe(1);
  });
});

describe("script validation", () => {
  const dir = mkdtempSync(join(tmpdir(), "fake-llm-script-"));
  const scriptFile = (name: string, contents: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof contents === "string" ? contents : JSON.stringify(contents));
    return path;
  };

  it("names the bad turn", async () => {
    const path = scriptFile("nameless.json", {
      turns: [{ text: "fine" }, { tool_calls: [{ arguments: { path: "a" } }] }],
    });
    await expect(startFakeLlm({ script: path })).rejects.toThrow(
      /turn 1 \(turns\[1\]\) tool_calls\[0\]\.name/,
    );
  });

  it("rejects an error turn that also has content, and unknown fields", async () => {
    await expect(
      startFakeLlm({ script: { turns: [{ error: { status: 500 }, text: "x" }] } }),
    ).rejects.toThrow("turn 0 (turns[0]) text: an error turn cannot also have text");
    const typo = scriptFile("typo.json", { turns: [{ txt: "typo" }] });
    await expect(startFakeLlm({ script: typo })).rejects.toThrow(
      /turn 0 \(turns\[0\]\): Unrecognized key: "txt"/,
    );
  });

  it("reads a script file and reports a file that is not JSON", async () => {
    server = await startFakeLlm({ script: scriptFile("good.json", { turns: [{ text: "from a file" }] }) });
    expect((await streamFrom(openaiModel(server.url))).text).toBe("from a file");
    await expect(startFakeLlm({ script: scriptFile("bad.json", "{ turns: ") })).rejects.toThrow(
      /bad\.json is not JSON/,
    );
  });
});
