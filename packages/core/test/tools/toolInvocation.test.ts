import { readFileSync } from "node:fs";
import path from "node:path";
import { LatheError } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runTerminalCmdTool } from "../../src/tools/builtin/runTerminalCmd/runTerminalCmd.js";
import { type AnyTool, defineTool, type ToolContext, type ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

function testTool(execute: (ctx: ToolContext) => Promise<ToolResult>): AnyTool {
  return defineTool({
    name: "test_tool",
    description: "A tool for tests.",
    schema: z.object({}),
    kind: "other",
    risk: () => "safe",
    timeoutMs: 60_000,
    truncation: "head",
    execute: (_args, ctx) => execute(ctx),
  });
}

/** Waits for the signal, then reports a cancel with what it had, as a well-behaved tool does. */
const waitsForAbort = testTool(
  (ctx) =>
    new Promise((resolve) =>
      ctx.signal.addEventListener("abort", () =>
        resolve({
          ok: false,
          error: { code: "E_CANCELLED", message: "stopped", retryable: false, hint: "" },
          output: "partial",
        }),
      ),
    ),
);

describe("runTool", () => {
  it("returns a tool's result as it is when within the limits", async () => {
    const tool = testTool(async () => ({ ok: true, output: "fine", metadata: { a: 1 } }));
    expect(await runTool(tool, {}, bed.context())).toEqual({ ok: true, output: "fine", metadata: { a: 1 } });
  });

  it("turns a timeout into E_TOOL_TIMEOUT, keeping the output the tool returned on abort", async () => {
    const result = await runTool(waitsForAbort, {}, bed.context(), { timeoutMs: 50 });
    expect(result).toMatchObject({ ok: false, error: { code: "E_TOOL_TIMEOUT" }, output: "partial" });
  });

  it("abandons a tool that ignores its signal after the grace period", async () => {
    const ignoresAbort = testTool(() => new Promise(() => undefined));
    const started = Date.now();
    const result = await runTool(ignoresAbort, {}, bed.context(), { timeoutMs: 50, abortGraceMs: 50 });
    expect(result).toMatchObject({ ok: false, error: { code: "E_TOOL_TIMEOUT" } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("passes a cancel on to the tool and returns its answer", async () => {
    const controller = new AbortController();
    const pending = runTool(waitsForAbort, {}, bed.context({ signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: "E_CANCELLED" }, output: "partial" });
  });

  it("does not start a tool when already cancelled", async () => {
    let ran = false;
    const tool = testTool(async () => {
      ran = true;
      return { ok: true, output: "" };
    });
    const controller = new AbortController();
    controller.abort();
    expect(await runTool(tool, {}, bed.context({ signal: controller.signal }))).toMatchObject({
      ok: false,
      error: { code: "E_CANCELLED" },
    });
    expect(ran).toBe(false);
  });

  it("turns a thrown error into E_TOOL_EXECUTION, and a thrown LatheError into its own code", async () => {
    const throws = testTool(async () => {
      throw new Error("disk on fire");
    });
    expect(await runTool(throws, {}, bed.context())).toMatchObject({
      ok: false,
      error: { code: "E_TOOL_EXECUTION", message: "test_tool failed: disk on fire" },
    });
    const throwsLathe = testTool(async () => {
      throw new LatheError("E_FILE_TOO_LARGE", "too big");
    });
    expect(await runTool(throwsLathe, {}, bed.context())).toMatchObject({
      ok: false,
      error: { code: "E_FILE_TOO_LARGE", message: "too big" },
    });
  });

  it("caps shell output head and tail, spilling the full text", async () => {
    const result = await runTool(
      runTerminalCmdTool,
      { command: "seq 1 5000" },
      bed.context({ callId: "call-seq" }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const spillPath = path.join(bed.latheHome, "tool-output", "session-1", "call-seq.txt");
    expect(result.metadata).toMatchObject({ exitCode: 0, outputTruncated: true, spillPath });
    const full = ["Exit code: 0", "--- stdout ---", ...Array.from({ length: 5000 }, (_, i) => String(i + 1))];
    expect(readFileSync(spillPath, "utf8")).toBe(full.join("\n"));
    const lines = result.output.split("\n");
    // 2,000 lines kept: the first 400 and the last 1,600.
    expect(lines.slice(0, 400)).toEqual(full.slice(0, 400));
    expect(lines.slice(401)).toEqual(full.slice(-1600));
    expect(lines[400]).toContain("3,002 lines");
    expect(lines[400]).toContain(spillPath);
  });

  it("caps the output of an error result too", async () => {
    const tool = testTool(async () => ({
      ok: false,
      error: { code: "E_TOOL_EXECUTION", message: "failed", retryable: true, hint: "" },
      output: "x\n".repeat(10),
    }));
    const result = await runTool(tool, {}, bed.context({ outputLimits: { maxLines: 3, maxBytes: 1000 } }));
    expect(result.ok).toBe(false);
    expect(result.output?.split("\n").slice(0, 3)).toEqual(["x", "x", "x"]);
    expect(result.output).toContain("7 lines");
  });
});
