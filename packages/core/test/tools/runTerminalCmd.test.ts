import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { processGoneWithin } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTerminalCmdTool } from "../../src/tools/builtin/runTerminalCmd/runTerminalCmd.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

type ShellArgs = { command: string; working_directory?: string; timeout_ms?: number };
const run = (args: ShellArgs, signal?: AbortSignal) =>
  runTerminalCmdTool.execute(args, bed.context(signal ? { signal } : {}));

function readPid(file: string): number {
  return Number.parseInt(readFileSync(path.join(bed.projectRoot, file), "utf8").trim(), 10);
}

describe("run_terminal_cmd", () => {
  it("returns the exit code and both streams, a failing exit being a normal result", async () => {
    const result = await run({ command: "echo out; echo err >&2; exit 3" });
    expect(outputOf(result)).toBe("Exit code: 3\n--- stdout ---\nout\n--- stderr ---\nerr");
    expect(result.ok && result.metadata).toMatchObject({
      exitCode: 3,
      signal: null,
      stdoutBytes: 4,
      stderrBytes: 4,
    });
  });

  it("says when there is no output", async () => {
    expect(outputOf(await run({ command: "true" }))).toBe("Exit code: 0\n(no output)");
  });

  it("runs with stdin closed, so a command waiting for input ends at once", async () => {
    expect(outputOf(await run({ command: "cat; echo done" }))).toBe("Exit code: 0\n--- stdout ---\ndone");
  });

  it("runs in the project root with pagers and colours off", async () => {
    const previous = process.env.FORCE_COLOR;
    process.env.FORCE_COLOR = "1";
    try {
      const command = 'pwd; echo "$LATHE $PAGER $GIT_PAGER $NO_COLOR"; printenv FORCE_COLOR || echo unset';
      expect(outputOf(await run({ command }))).toBe(
        `Exit code: 0\n--- stdout ---\n${bed.projectRoot}\n1 cat cat 1\nunset`,
      );
    } finally {
      if (previous === undefined) delete process.env.FORCE_COLOR;
      else process.env.FORCE_COLOR = previous;
    }
  });

  it("uses bash, not a login shell", async () => {
    expect(outputOf(await run({ command: "shopt -q login_shell && echo login || echo plain" }))).toBe(
      "Exit code: 0\n--- stdout ---\nplain",
    );
  });

  it("runs in a working_directory inside the project", async () => {
    mkdirSync(path.join(bed.projectRoot, "sub"));
    expect(outputOf(await run({ command: "pwd", working_directory: "sub" }))).toBe(
      `Exit code: 0\n--- stdout ---\n${path.join(bed.projectRoot, "sub")}`,
    );
  });

  it("refuses a working_directory outside the project or missing", async () => {
    expect(errorOf(await run({ command: "pwd", working_directory: "../outside" })).code).toBe(
      "E_PATH_TRAVERSAL",
    );
    expect(errorOf(await run({ command: "pwd", working_directory: bed.outside })).code).toBe(
      "E_PATH_TRAVERSAL",
    );
    expect(errorOf(await run({ command: "pwd", working_directory: "missing" })).code).toBe(
      "E_FILE_NOT_FOUND",
    );
  });

  it("kills the whole process group on timeout and returns the output so far", async () => {
    const started = Date.now();
    const result = await run({
      command: "sleep 30 & echo $! > child.pid; echo before; wait",
      timeout_ms: 500,
    });
    const error = errorOf(result);
    expect(error.code).toBe("E_COMMAND_TIMEOUT");
    expect(result.output).toBe("Killed after timing out (500 ms); output so far:\n--- stdout ---\nbefore");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await processGoneWithin(readPid("child.pid"))).toBe(true);
  });

  it("kills with SIGKILL what ignores SIGTERM", async () => {
    const result = await run({
      command: "bash -c 'trap \"\" TERM; echo $$ > stubborn.pid; while true; do sleep 0.1; done' ; true",
      timeout_ms: 500,
    });
    expect(errorOf(result).code).toBe("E_COMMAND_TIMEOUT");
    expect(await processGoneWithin(readPid("stubborn.pid"))).toBe(true);
  });

  it("stops on abort with E_CANCELLED and the output so far", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = run({ command: "sleep 30 & echo $! > child.pid; echo started; wait" }, controller.signal);
    await waitFor(() => bed.emitted.length > 0);
    controller.abort();
    const result = await pending;
    expect(errorOf(result).code).toBe("E_CANCELLED");
    expect(result.output).toBe("Killed on cancel; output so far:\n--- stdout ---\nstarted");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await processGoneWithin(readPid("child.pid"))).toBe(true);
  });

  it("does not start when already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run({ command: "touch ran" }, controller.signal);
    expect(errorOf(result).code).toBe("E_CANCELLED");
  });

  it("streams chunks through emitOutput before the command completes", async () => {
    const result = await run({ command: "echo first; echo oops >&2; sleep 1; echo second" });
    const finished = Date.now();
    outputOf(result);
    const first = bed.emitted.find((chunk) => chunk.chunk.includes("first"));
    expect(first?.stream).toBe("stdout");
    expect(finished - (first?.at ?? finished)).toBeGreaterThanOrEqual(800);
    expect(bed.emitted.find((chunk) => chunk.chunk.includes("oops"))?.stream).toBe("stderr");
    expect(bed.emitted.map((chunk) => chunk.chunk).join("")).toContain("second");
  });

  it("keeps at most 1 MiB of a stream, its start and its end, and says what was left out", async () => {
    const total = 3 * 1024 * 1024;
    const result = await run({ command: `head -c ${total} /dev/zero | tr '\\0' a; echo; echo END` });
    const output = outputOf(result);
    const stdout = output.slice(output.indexOf("--- stdout ---\n") + "--- stdout ---\n".length);
    const dropped = total + "\nEND\n".length - 1024 * 1024;
    expect(stdout).toContain(`[... ${dropped.toLocaleString("en-US")} bytes of stdout left out here`);
    expect(stdout.startsWith("a".repeat(1000))).toBe(true);
    expect(stdout.endsWith("a\nEND")).toBe(true);
    const kept = Buffer.byteLength(stdout.replace(/\n\[\.\.\. [^\]]*\]\n/, ""));
    expect(kept).toBe(1024 * 1024 - 1);
    expect(result.ok && result.metadata?.stdoutBytes).toBe(total + 5);
  });

  it("returns without waiting for processes left in the background", async () => {
    const started = Date.now();
    const output = outputOf(await run({ command: "sleep 30 & echo $! > bg.pid; echo launched" }));
    expect(output).toBe("Exit code: 0\n--- stdout ---\nlaunched");
    expect(Date.now() - started).toBeLessThan(5000);
    process.kill(readPid("bg.pid"), "SIGKILL");
  });

  it("reports a command killed by a signal", async () => {
    expect(outputOf(await run({ command: "kill -TERM $$" }))).toBe(
      "Terminated by signal SIGTERM\n(no output)",
    );
  });

  it("is high risk for now", () => {
    expect(runTerminalCmdTool.risk({ command: "ls" }, { projectRoot: bed.projectRoot })).toBe("high");
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
