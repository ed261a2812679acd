import { describe, expect, it } from "vitest";
import { refusedSettings } from "../src/worker/stepSettings.js";

describe("refusedSettings: what a worker will not run, whatever the task's row says", () => {
  const cases: [string, string, string | null, string | undefined][] = [
    ["the default", "auto_edit", null, undefined],
    ["manual with a model", "manual", "openai:gpt-4.1", undefined],
    ["auto, the furthest a task may go", "auto", "anthropic:claude-sonnet-4-5", undefined],
    ["yolo", "yolo", null, "E_SECURITY_BLOCKED"],
    ["an unknown mode", "everything", null, "E_SECURITY_BLOCKED"],
    ["a mode that is a flag", "--yolo", null, "E_SECURITY_BLOCKED"],
    ["a model without a provider", "auto_edit", "gpt-4.1", "E_INVALID_ARGS"],
    ["a model that is a flag", "auto_edit", "--base-url=http://127.0.0.1:9/v1", "E_INVALID_ARGS"],
  ];
  it.each(cases)("%s", (_, approvalMode, model, code) => {
    expect(refusedSettings({ approvalMode, model })?.code).toBe(code);
  });
});
