import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { processAlive, processGoneWithin } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { McpHubOptions, McpServerConfig } from "../../src/mcp/index.js";
import { McpHub } from "../../src/mcp/mcpHub.js";
import type { ToolResult } from "../../src/tools/tool.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "../tools/toolTestContext.js";
import { startHttpTestServer } from "./httpTestServer.js";
import { httpServer, nodeOneLiner, stdioServer } from "./mcpTestBed.js";

let bed: ToolTestBed;
const hubs: McpHub[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  bed.cleanup();
});

async function startHub(configs: McpServerConfig[], options: McpHubOptions = {}, signal?: AbortSignal) {
  const hub = new McpHub(options);
  hubs.push(hub);
  const report = await hub.start(configs, signal ?? new AbortController().signal);
  return { hub, report };
}

function callTool(hub: McpHub, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  const tool = hub.tools().find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute(args, bed.context());
}

/** The JSON a test server tool printed after the provenance line. */
function reported<T>(result: ToolResult): T {
  return JSON.parse(outputOf(result).split("\n")[1] ?? "") as T;
}

/** A server that starts but never answers `initialize`, writing its pid to `pidFile` first. */
function silentServer(name: string, pidFile: string): McpServerConfig {
  return nodeOneLiner(
    name,
    'require("fs").writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)',
    pidFile,
  );
}

async function pidFrom(file: string): Promise<number> {
  const deadline = Date.now() + 5000;
  while (!existsSync(file) || readFileSync(file, "utf8") === "") {
    if (Date.now() > deadline) throw new Error(`${file} was never written`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Number(readFileSync(file, "utf8"));
}

describe("McpHub start", () => {
  it("reports servers that cannot start and still starts the others", async () => {
    const http = await startHttpTestServer();
    cleanups.push(() => http.close());
    const { hub, report } = await startHub([
      stdioServer("missing", { command: path.join(bed.outside, "no-such-mcp-server") }),
      nodeOneLiner("broken", 'console.error("MISSING_API_KEY is not set"); process.exit(1)'),
      httpServer("unreachable", "http://127.0.0.1:9/mcp"),
      httpServer("remote", http.url),
    ]);

    expect(report.failures).toEqual([
      { server: "missing", error: expect.stringContaining("ENOENT") },
      { server: "broken", error: expect.stringContaining("stderr: MISSING_API_KEY is not set") },
      { server: "unreachable", error: expect.any(String) },
    ]);
    expect(hub.tools().map((tool) => tool.name)).toEqual(["mcp__remote__add", "mcp__remote__whoami"]);
    expect(outputOf(await callTool(hub, "mcp__remote__add", { a: 1, b: 1 }))).toMatch(/\n2$/);
  });

  it("gives up on a server that does not answer in time and kills it", async () => {
    const pidFile = path.join(bed.outside, "silent.pid");
    const started = Date.now();
    const { report } = await startHub([silentServer("silent", pidFile)], { startTimeoutMs: 500 });

    expect(report.failures).toEqual([{ server: "silent", error: "did not start within 500 ms" }]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await processGoneWithin(await pidFrom(pidFile))).toBe(true);
  });

  it("stops starting servers when the start is cancelled or the hub closed", async () => {
    const cancelledPid = path.join(bed.outside, "cancelled.pid");
    const controller = new AbortController();
    const cancelled = startHub([silentServer("slow", cancelledPid)], {}, controller.signal);
    await pidFrom(cancelledPid);
    controller.abort();
    expect((await cancelled).report.failures).toEqual([{ server: "slow", error: "the start was cancelled" }]);
    expect(await processGoneWithin(await pidFrom(cancelledPid))).toBe(true);

    const closedPid = path.join(bed.outside, "closed.pid");
    const hub = new McpHub();
    const starting = hub.start([silentServer("slow", closedPid)], new AbortController().signal);
    await pidFrom(closedPid);
    await hub.close();
    expect((await starting).failures).toHaveLength(1);
    expect(hub.tools()).toEqual([]);
    expect(await processGoneWithin(await pidFrom(closedPid))).toBe(true);
  });
});

describe("McpHub close", () => {
  it("kills a stdio server together with the processes it started, and ends HTTP sessions", async () => {
    const http = await startHttpTestServer();
    cleanups.push(() => http.close());
    const { hub, report } = await startHub([
      stdioServer("local", { env: { SPAWN_HELPER: "1" } }),
      httpServer("remote", http.url),
    ]);
    expect(report.failures).toEqual([]);
    const pidsTool = hub.tools().find((tool) => tool.name === "mcp__local__pids");
    const { pid, helper } = reported<{ pid: number; helper: number }>(
      await callTool(hub, "mcp__local__pids"),
    );
    expect(processAlive(pid) && processAlive(helper)).toBe(true);
    expect(http.openSessions()).toBe(1);

    await hub.close();

    expect(await processGoneWithin(pid)).toBe(true);
    expect(await processGoneWithin(helper)).toBe(true);
    expect(http.openSessions()).toBe(0);
    // A tool kept from before the close neither answers nor starts its server again.
    expect(hub.tools()).toEqual([]);
    expect(errorOf((await pidsTool?.execute({}, bed.context())) ?? { ok: true, output: "" })).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message: "MCP server local is not running (the session closed it).",
    });
  });
});

describe("a server that dies mid-session", () => {
  it("is reported as not running, then restarted on the next call", async () => {
    const { hub } = await startHub([stdioServer("local")]);
    const first = reported<{ pid: number }>(await callTool(hub, "mcp__local__pids")).pid;

    expect(errorOf(await callTool(hub, "mcp__local__crash"))).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message: expect.stringMatching(/^MCP server local is not running/),
    });
    expect(await processGoneWithin(first)).toBe(true);

    const second = reported<{ pid: number }>(await callTool(hub, "mcp__local__pids")).pid;
    expect(second).not.toBe(first);
    expect(outputOf(await callTool(hub, "mcp__local__echo", { text: "back" }))).toMatch(/back$/);
  });

  it("is restarted once only: a failed restart leaves it down", async () => {
    const guard = path.join(bed.outside, "refuse");
    const { hub } = await startHub([stdioServer("local", { env: { REFUSE_IF_EXISTS: guard } })]);
    writeFileSync(guard, "");
    await callTool(hub, "mcp__local__crash");

    expect(errorOf(await callTool(hub, "mcp__local__echo", { text: "x" }))).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message: expect.stringMatching(
        /^MCP server local is not running \(a restart failed: .*refusing to start: the guard file exists\)/s,
      ),
    });
    // The server could start again now, but its one restart was spent.
    rmSync(guard);
    expect(errorOf(await callTool(hub, "mcp__local__echo", { text: "x" })).message).toMatch(/not running/);
  });
});
