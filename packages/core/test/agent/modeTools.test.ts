import { builtinTools, prefersApplyPatch, toolsForRequest } from "@lathe/core";
import { describe, expect, it } from "vitest";

const mutating = [
  "write_file",
  "edit_file",
  "multi_edit",
  "apply_patch",
  "delete_file",
  "run_terminal_cmd",
  "terminal_kill",
];

describe("tools offered per request", () => {
  it("offers apply_patch to OpenAI model families only", () => {
    expect(prefersApplyPatch("openai:gpt-4.1")).toBe(true);
    expect(prefersApplyPatch("openai:o3")).toBe(true);
    expect(prefersApplyPatch("openai-compatible:openai/gpt-oss-120b")).toBe(true);
    expect(prefersApplyPatch("ollama:gpt-oss:20b")).toBe(true);
    expect(prefersApplyPatch("anthropic:claude-sonnet-4-5")).toBe(false);
    expect(prefersApplyPatch("google:gemini-2.5-pro")).toBe(false);
    expect(prefersApplyPatch("deepseek:deepseek-chat")).toBe(false);
    expect(prefersApplyPatch("ollama:qwen2.5-coder")).toBe(false);
  });

  it("never offers a mutating tool in ask or plan mode", () => {
    for (const mode of ["ask", "plan"] as const) {
      const names = toolsForRequest(mode, "openai:gpt-4.1", builtinTools()).map((t) => t.name);
      expect(names.filter((name) => mutating.includes(name))).toEqual([]);
      expect(names).toContain("read_file");
    }
  });
});
