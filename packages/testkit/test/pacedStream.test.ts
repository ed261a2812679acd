import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { parseFakeScript } from "../src/fakeLlm/script.js";
import { type FakeLlm, startFakeLlm } from "../src/index.js";
import { streamFrom } from "./modelStream.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const openaiModel = (url: string) => createOpenAI({ baseURL: `${url}/v1`, apiKey: "test" }).chat("gpt-4o");

describe("tokens_per_second", () => {
  it("streams a long answer at the scripted rate", async () => {
    // 8,000 characters = 2,000 tokens: one second at 2,000 tokens a second, in 400 chunks.
    const text = "word ".repeat(1_600);
    server = await startFakeLlm({ script: { turns: [{ text, tokens_per_second: 2_000 }] } });
    const started = performance.now();
    const result = await streamFrom(openaiModel(server.url));
    const elapsed = performance.now() - started;
    expect(result.text).toBe(text);
    expect(result.textDeltas).toBe(400);
    // The clock paces the chunks, so late timers do not add up (400 pauses of 2.5 ms each would).
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2_500);
  });

  it("cannot be given to an error turn", () => {
    expect(() =>
      parseFakeScript({ turns: [{ error: { status: 500 }, tokens_per_second: 10 }] }, "(test)"),
    ).toThrow(/turn 0 \(turns\[0\]\) tokens_per_second: an error turn cannot also have tokens_per_second/);
  });
});
