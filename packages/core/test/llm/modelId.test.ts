import { describe, expect, it } from "vitest";
import { parseModelId } from "../../src/llm/index.js";

describe("parseModelId", () => {
  it.each([
    ["openai:gpt-4.1", "openai", "gpt-4.1"],
    ["anthropic:claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5"],
    ["google:gemini-2.5-pro", "google", "gemini-2.5-pro"],
    ["deepseek:deepseek-reasoner", "deepseek", "deepseek-reasoner"],
    ["openai-compatible:qwen/qwen3-coder-30b", "openai-compatible", "qwen/qwen3-coder-30b"],
    ["ollama:qwen3:8b", "ollama", "qwen3:8b"],
    ["  openai:gpt-4o  ", "openai", "gpt-4o"],
  ])("parses %s", (id, provider, model) => {
    expect(parseModelId(id)).toEqual({ ok: true, modelId: { provider, model, id: `${provider}:${model}` } });
  });

  it("rejects an unknown provider, naming the valid ones", () => {
    expect(parseModelId("mistral:large")).toEqual({
      ok: false,
      error: {
        code: "E_INVALID_ARGS",
        retryable: true,
        hint: expect.any(String),
        message:
          'Unknown provider "mistral" in model id "mistral:large". Valid providers: openai, anthropic, google, deepseek, openai-compatible, ollama.',
      },
    });
  });

  it("rejects an id without a provider", () => {
    const parsed = parseModelId("gpt-4.1");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe("E_INVALID_ARGS");
      expect(parsed.error.message).toBe(
        'Model id "gpt-4.1" has no provider. Write it as provider:model, e.g. anthropic:claude-sonnet-4-5. Valid providers: openai, anthropic, google, deepseek, openai-compatible, ollama.',
      );
    }
  });

  it("rejects an empty model name", () => {
    const parsed = parseModelId("openai:");
    expect(parsed.ok || parsed.error.message).toBe('Model id "openai:" names no model after "openai:".');
  });
});
