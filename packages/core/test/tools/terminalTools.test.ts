import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { processAlive, processGoneWithin } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTerminalCmdTool } from "../../src/tools/builtin/runTerminalCmd/runTerminalCmd.js";
import { terminalKillTool } from "../../src/tools/builtin/terminalKill/terminalKill.js";
import { terminalOutputTool } from "../../src/tools/builtin/terminalOutput/terminalOutput.js";
import type { ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(async () => {
  await bed.terminals.killAll();
  bed.cleanup();
});

const registry = new ToolRegistry([runTerminalCmdTool, terminalOutputTool, terminalKillTool]);

/** Validates like the scheduler does (defaults applied), then runs through `runTool`. */
async function call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
  const validated = registry.validate(name, JSON.stringify(args));
  if (!validated.ok) throw new Error(validated.error.message);
  return runTool(validated.tool, validated.args, bed.context(signal ? { signal } : {}));
}

const ticking = 'echo ready; i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.05; done';

describe("run_terminal_cmd in the background", () => {
  it("returns the id, the pid and the first output after about a second", async () => {
    const started = Date.now();
    const result = await call("run_terminal_cmd", { command: ticking, is_background: true });
    const output = outputOf(result);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(3000);
    const metadata = result.ok ? result.metadata : undefined;
    expect(metadata).toMatchObject({ terminalId: "t1", status: { state: "running" } });
    const pid = metadata?.pid as number;
    expect(processAlive(pid)).toBe(true);
    expect(output).toMatch(
      new RegExp(`^Started in the background as t1 \\(pid ${pid}\\); running for 1\\.\\d s\\.`),
    );
    expect(output).toContain(`$ ${ticking}\n--- stdout ---\nready\ntick 1\ntick 2\n`);
    expect(output.endsWith('stop it with terminal_kill {"id":"t1"}.')).toBe(true);
  });

  it("returns the whole result of a command that ends at once, without waiting", async () => {
    const started = Date.now();
    const output = outputOf(
      await call("run_terminal_cmd", { command: "echo done; exit 4", is_background: true }),
    );
    expect(Date.now() - started).toBeLessThan(900);
    expect(output).toMatch(
      /^Started in the background as t1 \(pid \d+\); exited with code 4 after \d\.\d s\.\n/,
    );
    expect(output).toContain("--- stdout ---\ndone");
    expect(output).not.toContain("terminal_kill");
  });

  it("tells when bash has ended but what it started still runs, and stops that too", async () => {
    const started = await call("run_terminal_cmd", {
      command: "sleep 30 & echo $! > server.pid; echo launched",
      is_background: true,
    });
    const output = outputOf(started);
    expect(output).toMatch(
      /^Started in the background as t1 \(pid \d+\); exited with code 0 after 0\.\d s, but processes it started are still running\./,
    );
    expect(output).toContain('terminal_kill {"id":"t1"}');
    const server = Number.parseInt(readFileSync(path.join(bed.projectRoot, "server.pid"), "utf8"), 10);
    expect(processAlive(server)).toBe(true);

    const killed = outputOf(await call("terminal_kill", { id: "t1" }));
    expect(killed).toContain("had already ended: exited with code 0 after");
    expect(killed).toContain("The processes it left running were stopped.");
    expect(await processGoneWithin(server)).toBe(true);
  });

  it("kills the command it started when the call is cancelled", async () => {
    const controller = new AbortController();
    const pending = call("run_terminal_cmd", { command: "sleep 30", is_background: true }, controller.signal);
    await delay(100);
    controller.abort();
    expect(errorOf(await pending).code).toBe("E_CANCELLED");
    const [terminal] = bed.terminals.list();
    expect(terminal?.status.state).toBe("killed");
    expect(await processGoneWithin(terminal?.pid ?? 0)).toBe(true);
  });
});

describe("terminal_output and terminal_kill", () => {
  it("reads only new output by default, everything on request, then stops the command", async () => {
    const started = await call("run_terminal_cmd", { command: ticking, is_background: true });
    const pid = (started.ok ? started.metadata?.pid : 0) as number;
    const startLines = outputOf(started).match(/^tick \d+$/gm) ?? [];
    await delay(300);

    const next = outputOf(await call("terminal_output", { id: "t1" }));
    expect(next).toMatch(/^Background command t1 \(pid \d+\): running for \d\.\d s\.\n/);
    const nextLines = next.match(/^tick \d+$/gm) ?? [];
    expect(nextLines.length).toBeGreaterThan(0);
    expect(nextLines[0]).toBe(`tick ${startLines.length + 1}`);
    expect(next).not.toContain("\nready\n");

    const all = outputOf(await call("terminal_output", { id: "t1", since_last: false }));
    expect(all).toContain("--- stdout ---\nready\ntick 1\n");

    const killed = outputOf(await call("terminal_kill", { id: "t1" }));
    expect(killed).toMatch(
      /^Background command t1 \(pid \d+, `.*`\) was stopped with everything it started: killed \(SIGTERM\) after/,
    );
    expect(await processGoneWithin(pid)).toBe(true);

    const after = outputOf(await call("terminal_output", { id: "t1" }));
    expect(after).toMatch(/^Background command t1 \(pid \d+\): killed \(SIGTERM\) after \d+\.\d s\./);
    expect(after).not.toContain("terminal_kill");
  });

  it("says when there is nothing new", async () => {
    await call("run_terminal_cmd", { command: "echo once; sleep 30", is_background: true });
    expect(outputOf(await call("terminal_output", { id: "t1" }))).toContain(
      "$ echo once; sleep 30\n(no new output since the last read)",
    );
  });

  it("reports an exit code after a natural exit", async () => {
    await call("run_terminal_cmd", { command: "sleep 1.5; echo late >&2; exit 7", is_background: true });
    await bed.terminals.waitForEnd("t1", 5000);
    const output = outputOf(await call("terminal_output", { id: "t1" }));
    expect(output).toMatch(/^Background command t1 \(pid \d+\): exited with code 7 after 1\.\d s\./);
    expect(output).toContain("--- stderr ---\nlate");
    expect(outputOf(await call("terminal_kill", { id: "t1" }))).toContain(
      "had already ended: exited with code 7",
    );
  });

  it("answers an unknown id with E_INVALID_ARGS and the running ids", async () => {
    const none = errorOf(await call("terminal_output", { id: "t9" }));
    expect(none.code).toBe("E_INVALID_ARGS");
    expect(none.message).toContain("No background command is running");
    await call("run_terminal_cmd", { command: "sleep 30", is_background: true });
    const error = errorOf(await call("terminal_kill", { id: "t9" }));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toBe('No background command with id "t9". Running: t1 (sleep 30).');
  });

  it("has the kinds and risks of a reader and a low-risk executor", () => {
    expect([terminalOutputTool.kind, terminalOutputTool.risk({ id: "t1", since_last: true }, bed)]).toEqual([
      "read",
      "safe",
    ]);
    expect([terminalKillTool.kind, terminalKillTool.risk({ id: "t1" }, bed)]).toEqual(["execute", "low"]);
  });
});
