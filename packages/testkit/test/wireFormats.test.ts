import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type FakeLlm, type FakeTurn, startFakeLlm } from "../src/index.js";
import { callOptions, streamFrom } from "./modelStream.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(turns: FakeTurn[]): Promise<FakeLlm> {
  server = await startFakeLlm({ script: { turns } });
  return server;
}

const readArguments = { path: "a.txt" };
const searchArguments = { pattern: "TODO", paths: ["src", "test"], limit: 5, literal: true };

/** A turn with everything a model can say at once: thinking, prose and two tool calls. */
const fullTurn: FakeTurn = {
  reasoning: "The user wants a file read and a search; both can run together.",
  text: "I will read a.txt and search for TODOs.",
  tool_calls: [
    { name: "read_file", arguments: readArguments },
    { name: "search_files", arguments: searchArguments },
  ],
  usage: { prompt_tokens: 120, completion_tokens: 34 },
};

interface Client {
  name: string;
  /** The client parses the reasoning this wire format carries. */
  readsReasoning: boolean;
  /** The id prefix the server generates on this wire format, or undefined where it sends no ids. */
  idPrefix: string | undefined;
  model(url: string): LanguageModelV3;
}

const clients: Client[] = [
  {
    name: "@ai-sdk/openai chat",
    readsReasoning: false,
    idPrefix: "call",
    model: (url) => createOpenAI({ baseURL: `${url}/v1`, apiKey: "test" }).chat("gpt-4o"),
  },
  {
    name: "@ai-sdk/deepseek",
    readsReasoning: true,
    idPrefix: "call",
    // DeepSeek's own base URL has no /v1, so the server answers /chat/completions too.
    model: (url) => createDeepSeek({ baseURL: url, apiKey: "test" })("deepseek-reasoner"),
  },
  {
    name: "@ai-sdk/openai-compatible",
    readsReasoning: true,
    idPrefix: "call",
    model: (url) =>
      createOpenAICompatible({ name: "local", baseURL: `${url}/v1`, includeUsage: true })("qwen3-coder"),
  },
  {
    name: "@ai-sdk/anthropic",
    readsReasoning: true,
    idPrefix: "toolu",
    model: (url) => createAnthropic({ baseURL: `${url}/v1`, apiKey: "test" })("claude-sonnet-4-5"),
  },
  {
    name: "@ai-sdk/google",
    readsReasoning: true,
    idPrefix: undefined,
    model: (url) => createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: "test" })("gemini-2.5-pro"),
  },
];

describe.each(clients)("streaming to $name", (client) => {
  it("delivers reasoning, text in several chunks, two tool calls in order, and the scripted usage", async () => {
    const { url } = await serve([fullTurn]);
    const result = await streamFrom(client.model(url));

    expect(result.errors).toEqual([]);
    expect(result.text).toBe("I will read a.txt and search for TODOs.");
    expect(result.textDeltas).toBeGreaterThanOrEqual(3);
    expect(result.reasoning).toBe(
      client.readsReasoning ? "The user wants a file read and a search; both can run together." : "",
    );
    if (client.readsReasoning) expect(result.reasoningDeltas).toBeGreaterThanOrEqual(3);
    expect(result.toolCalls.map((call) => call.name)).toEqual(["read_file", "search_files"]);
    expect(result.toolCalls.map((call) => JSON.parse(call.input))).toEqual([readArguments, searchArguments]);
    if (client.idPrefix !== undefined) {
      expect(result.toolCalls.map((call) => call.id)).toEqual([
        `${client.idPrefix}_1_0`,
        `${client.idPrefix}_1_1`,
      ]);
      // Gemini sends each call whole; the others stream arguments in fragments.
      for (const call of result.toolCalls)
        expect(result.toolInputDeltas.get(call.id)).toBeGreaterThanOrEqual(2);
    }
    expect(result.finishReason).toBe("tool-calls");
    expect(result.inputTokens).toBe(120);
    expect(result.outputTokens).toBe(34);
  });

  it("ends a text-only turn with a stop, and derives non-zero usage when none is scripted", async () => {
    const { url } = await serve([{ text: "Done." }]);
    const result = await streamFrom(client.model(url));

    expect(result.errors).toEqual([]);
    expect(result.text).toBe("Done.");
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe("stop");
    expect(result.inputTokens).toBeGreaterThan(0);
    expect(result.outputTokens).toBeGreaterThan(0);
  });

  it("sends malformed arguments as they were scripted (Gemini: wrapped in _raw)", async () => {
    const { url } = await serve([{ tool_calls: [{ name: "read_file", raw_arguments: '{"path": "a.txt"' }] }]);
    const result = await streamFrom(client.model(url));

    expect(result.errors).toEqual([]);
    expect(result.toolCalls.map((call) => call.input)).toEqual([
      client.idPrefix === undefined ? JSON.stringify({ _raw: '{"path": "a.txt"' }) : '{"path": "a.txt"',
    ]);
  });

  it("answers the same turn without streaming through doGenerate", async () => {
    const { url } = await serve([fullTurn]);
    const result = await client.model(url).doGenerate(callOptions());

    const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    const reasoning = result.content
      .flatMap((part) => (part.type === "reasoning" ? [part.text] : []))
      .join("");
    const toolCalls = result.content.flatMap((part) => (part.type === "tool-call" ? [part] : []));
    expect(text).toBe("I will read a.txt and search for TODOs.");
    expect(reasoning).toBe(
      client.readsReasoning ? "The user wants a file read and a search; both can run together." : "",
    );
    expect(toolCalls.map((call) => [call.toolName, JSON.parse(call.input)])).toEqual([
      ["read_file", readArguments],
      ["search_files", searchArguments],
    ]);
    expect(result.finishReason.unified).toBe("tool-calls");
    expect(result.usage.inputTokens.total).toBe(120);
    expect(result.usage.outputTokens.total).toBe(34);
  });
});

describe("tool-call ids", () => {
  it("uses scripted ids verbatim, so one id can be sent twice", async () => {
    const { url } = await serve([
      {
        tool_calls: [
          { name: "read_file", arguments: { path: "a.txt" }, id: "call_same" },
          { name: "read_file", arguments: { path: "b.txt" }, id: "call_same" },
        ],
      },
    ]);
    // The DeepSeek client passes wire ids through untouched (the OpenAI client renames repeats).
    const result = await streamFrom(createDeepSeek({ baseURL: url, apiKey: "test" })("deepseek-chat"));
    expect(result.toolCalls.map((call) => [call.id, JSON.parse(call.input)])).toEqual([
      ["call_same", { path: "a.txt" }],
      ["call_same", { path: "b.txt" }],
    ]);
  });

  it("omits the id on the OpenAI wire when it is scripted as null, and makes one up on Anthropic's", async () => {
    const turn: FakeTurn = { tool_calls: [{ name: "read_file", arguments: { path: "a.txt" }, id: null }] };
    const { url, requests } = await serve([turn, turn]);

    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "gpt-4o", stream: true, messages: [] }),
    });
    const events = (await response.text()).split("\n\n").filter((event) => event.startsWith("data: {"));
    const toolDeltas = events.flatMap(
      (event) => JSON.parse(event.slice("data: ".length)).choices[0]?.delta?.tool_calls ?? [],
    );
    expect(toolDeltas[0]).toEqual({
      index: 0,
      type: "function",
      function: { name: "read_file", arguments: "" },
    });

    const anthropic = await streamFrom(
      createAnthropic({ baseURL: `${url}/v1`, apiKey: "test" })("claude-sonnet-4-5"),
    );
    expect(anthropic.toolCalls.map((call) => call.id)).toEqual(["toolu_2_0"]);
    expect(requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/messages"]);
  });
});

const geminiChunksSchema = z.array(
  z.object({
    candidates: z.array(
      z.object({
        content: z.object({ parts: z.array(z.record(z.string(), z.unknown())) }),
        finishReason: z.string().optional(),
      }),
    ),
  }),
);

describe("requests", () => {
  it("are recorded with path, headers and parsed body, one turn consumed per model request", async () => {
    const { url, requests, turnsServed } = await serve([{ text: "one" }, { text: "two" }]);
    await streamFrom(createOpenAI({ baseURL: `${url}/v1`, apiKey: "sk-test" }).chat("gpt-4o"));
    await streamFrom(
      createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: "g-test" })("gemini-2.5-pro"),
    );

    expect(turnsServed()).toBe(2);
    expect(requests.map((request) => [request.method, request.path])).toEqual([
      ["POST", "/v1/chat/completions"],
      ["POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"],
    ]);
    expect(requests[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(requests[1]?.headers["x-goog-api-key"]).toBe("g-test");
    expect(requests[0]?.body).toMatchObject({
      model: "gpt-4o",
      stream: true,
      messages: [{ role: "user", content: "Read a.txt and find the TODOs." }],
    });
    expect(requests[1]?.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "Read a.txt and find the TODOs." }] }],
    });
  });

  it("streams Gemini as one JSON array when alt=sse is absent", async () => {
    const { url } = await serve([
      { text: "Hello from the array", tool_calls: [{ name: "ls", arguments: { dir: "." } }] },
    ]);
    const response = await fetch(`${url}/v1beta/models/gemini-2.5-pro:streamGenerateContent`, {
      method: "POST",
      body: JSON.stringify({ contents: [] }),
    });
    const chunks = geminiChunksSchema.parse(await response.json());
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    expect(parts.map((part) => part.text ?? "").join("")).toBe("Hello from the array");
    expect(parts.filter((part) => "functionCall" in part)).toEqual([
      { functionCall: { name: "ls", args: { dir: "." } } },
    ]);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe("STOP");
  });

  it("with a body that is not JSON get a provider-shaped 400, are recorded as text, and consume no turn", async () => {
    const { url, requests, turnsServed } = await serve([{ text: "unused" }]);
    const response = await fetch(`${url}/v1/messages`, { method: "POST", body: "not json" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "fake-llm: the request body is not a JSON object" },
    });
    expect(requests.map((request) => request.body)).toEqual(["not json"]);
    expect(turnsServed()).toBe(0);
  });

  it("that match no endpoint get a 404 and consume no turn", async () => {
    const { url, turnsServed } = await serve([{ text: "unused" }]);
    const response = await fetch(`${url}/v1/responses`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(turnsServed()).toBe(0);
  });
});
