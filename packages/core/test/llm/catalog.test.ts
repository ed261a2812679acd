import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { shippedCatalogSchema } from "../../src/llm/catalog.js";
import { catalogWith, costOf, lookupModel, shippedCatalog, unknownModelInfo } from "../../src/llm/index.js";

describe("the model catalog", () => {
  it("ships a models.json that holds to its schema, since it is not checked as it loads", () => {
    const text = readFileSync(new URL("../../src/llm/models.json", import.meta.url), "utf8");
    const checked = shippedCatalogSchema.safeParse(JSON.parse(text));
    expect(checked.error?.issues).toBeUndefined();
    expect(Object.fromEntries(shippedCatalog())).toEqual(checked.data);
  });

  it("ships the main models of every hosted provider", () => {
    const ids = [...shippedCatalog().keys()];
    for (const id of [
      "openai:gpt-4o",
      "openai:gpt-4.1",
      "openai:gpt-5",
      "openai:gpt-5-mini",
      "openai:o3",
      "openai:o4-mini",
      "anthropic:claude-sonnet-4-5",
      "anthropic:claude-opus-4-1",
      "anthropic:claude-haiku-4-5",
      "google:gemini-2.5-pro",
      "google:gemini-2.5-flash",
      "deepseek:deepseek-chat",
      "deepseek:deepseek-reasoner",
    ]) {
      expect(ids).toContain(id);
    }
  });

  it("looks up a model and its dated snapshots", () => {
    const sonnet = {
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPerMTok: 3,
      outputPerMTok: 15,
      cachedInputPerMTok: 0.3,
      known: true,
    };
    expect(lookupModel("anthropic:claude-sonnet-4-5")).toEqual(sonnet);
    expect(lookupModel("anthropic:claude-sonnet-4-5-20250929")).toEqual(sonnet);
    expect(lookupModel("openai:gpt-4o-mini-2024-07-18")).toMatchObject({ inputPerMTok: 0.15, known: true });
  });

  it("gives unknown models a conservative default and flags them", () => {
    expect(lookupModel("ollama:qwen3:8b")).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 8192,
      inputPerMTok: 0,
      outputPerMTok: 0,
      cachedInputPerMTok: 0,
      known: false,
    });
    expect(
      costOf("ollama:qwen3:8b", { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 0 }),
    ).toBe(0);
  });

  it("prices input, cached input and output", () => {
    // gpt-4.1: $2 in, $0.50 cached in, $8 out per million tokens.
    expect(costOf("openai:gpt-4.1", { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 0 })).toBe(
      2,
    );
    expect(
      costOf("openai:gpt-4.1", { inputTokens: 1_000_000, outputTokens: 500_000, cachedInputTokens: 400_000 }),
    ).toBe((600_000 * 2 + 400_000 * 0.5 + 500_000 * 8) / 1_000_000);
    expect(
      costOf("openai:gpt-4.1", { inputTokens: 1_000_000, outputTokens: 500_000, cachedInputTokens: 400_000 }),
    ).toBe(5.4);
  });

  it("takes extra entries and partial corrections", () => {
    const catalog = catalogWith({
      "ollama:qwen3:8b": { contextWindow: 40_960 },
      "openai:gpt-4.1": { inputPerMTok: 1 },
    });
    expect(lookupModel("ollama:qwen3:8b", catalog)).toEqual({
      ...unknownModelInfo,
      contextWindow: 40_960,
      known: true,
    });
    expect(lookupModel("openai:gpt-4.1", catalog)).toMatchObject({
      inputPerMTok: 1,
      outputPerMTok: 8,
      known: true,
    });
    expect(
      costOf("openai:gpt-4.1", { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 0 }, catalog),
    ).toBe(1);
    expect(() => catalogWith({ "openai:x": { contextWindow: -1 } })).toThrow();
  });
});
