import { readFileSync } from "node:fs";
import { errorInfo } from "@lathe/protocol";
import { fakeKeys } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { secretRedactor } from "../../src/secrets/index.js";
import { defineTool, type ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { createToolTestBed, type ToolTestBed } from "../tools/toolTestContext.js";

const known = ["known", "-value-", "0123456789"].join("");

function toolReturning(result: ToolResult) {
  return defineTool({
    name: "echo_result",
    description: "returns a fixed result",
    schema: z.object({}),
    kind: "read",
    risk: () => "safe",
    timeoutMs: 5000,
    truncation: "head",
    execute: async () => result,
  });
}

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

describe("runTool's redaction", () => {
  it("redacts the output and the error message with the engine's redactor", async () => {
    const ctx = { ...bed.context(), redact: secretRedactor([known]) };
    const ok = await runTool(
      toolReturning({ ok: true, output: `value ${known} and ${fakeKeys.github}` }),
      {},
      ctx,
    );
    expect(ok).toEqual({ ok: true, output: "value [redacted] and [redacted]" });
    const failed = await runTool(
      toolReturning({
        ok: false,
        error: errorInfo("E_TOOL_EXECUTION", `refused ${known}`),
        output: `partial ${known}`,
      }),
      {},
      ctx,
    );
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.message).toBe("refused [redacted]");
    expect(failed.output).toBe("partial [redacted]");
  });

  it("writes the spill file redacted, with a key near the cut whole", async () => {
    const ctx = {
      ...bed.context({ outputLimits: { maxLines: 5, maxBytes: 10_000 } }),
      redact: secretRedactor([known]),
    };
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i} ${known}`);
    const result = await runTool(toolReturning({ ok: true, output: lines.join("\n") }), {}, ctx);
    if (!result.ok) throw new Error(result.error.message);
    const spillPath = result.metadata?.spillPath as string;
    expect(readFileSync(spillPath, "utf8")).toBe(
      lines.map((line) => line.replace(known, "[redacted]")).join("\n"),
    );
    expect(result.output).not.toContain(known);
  });

  it("without a redactor from the engine, redacts this process's secret variables and key formats", async () => {
    const saved = process.env.SOME_SERVICE_TOKEN;
    process.env.SOME_SERVICE_TOKEN = known;
    try {
      const result = await runTool(
        toolReturning({ ok: true, output: `${known} ${fakeKeys.aws}` }),
        {},
        bed.context(),
      );
      expect(result).toEqual({ ok: true, output: "[redacted] [redacted]" });
    } finally {
      if (saved === undefined) delete process.env.SOME_SERVICE_TOKEN;
      else process.env.SOME_SERVICE_TOKEN = saved;
    }
  });
});
