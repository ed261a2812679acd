import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A tool round, then an answer long and slow enough (about 4 s) that the reader leaves during it. */
const turns: FakeTurn[] = [
  { tool_calls: [{ name: "write_file", arguments: { path: "notes.txt", contents: "first round\n" } }] },
  { text: "word ".repeat(800), tokens_per_second: 250 },
  { tool_calls: [{ name: "write_file", arguments: { path: "late.txt", contents: "too late\n" } }] },
  { text: "Done." },
];

interface ClosedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** What was read from stdout before its read end was closed. */
  read: string;
}

/**
 * `lathe` with stdout a pipe whose read end the test closes, as `| head` does, once `readEnough`
 * says what was read is enough.
 */
function runClosingStdout(
  args: string[],
  home: string,
  readEnough: (read: string) => boolean,
): Promise<ClosedRun> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: home, OPENAI_API_KEY: fakeKeys.openai });
  const child = spawn(process.execPath, [latheBin, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let read = "";
  let stderr = "";
  if (readEnough(read)) child.stdout.destroy();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    read += chunk;
    if (readEnough(read)) child.stdout.destroy();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stderr, read }));
  });
}

async function storedSession(sessionId: string, root: string, home: string) {
  const shown = await runLathe(["sessions", "show", sessionId, "--cwd", root, "--json"], {
    home,
    env: { OPENAI_API_KEY: fakeKeys.openai },
  });
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout) as {
    runs: { status: string }[];
    messages: { role: string; parts: { type: string; name?: string; text?: string }[] }[];
  };
}

function expectNoStackTrace(stderr: string) {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain("EPIPE");
  expect(stderr).not.toContain("Error:");
}

describe("a stdout closed under a headless run", () => {
  it("stream-json | head: cancels the run, exits 4 with no stack trace, and stores the run as cancelled", async () => {
    server = await startFakeLlm({ script: { turns } });
    const ws = await makeWorkspace({}, { sandbox: { mode: "off" } });
    const args = headlessArgs(
      "write notes",
      { root: ws.root, serverUrl: server.url, format: "stream-json" },
      ["--approval-mode", "yolo", "--include-partial-messages"],
    );
    // The reader leaves once the first round is over and the answer has begun.
    const run = await runClosingStdout(args, ws.home, (read) => read.includes('"content_block_delta"'));

    expect(run.signal).toBeNull();
    expect(run.code, run.stderr).toBe(4);
    expectNoStackTrace(run.stderr);
    expect(existsSync(join(ws.root, "notes.txt"))).toBe(true);
    expect(existsSync(join(ws.root, "late.txt"))).toBe(false);
    // The answer was cut short: the model was not asked again.
    expect(server.requests).toHaveLength(2);

    const sessionId = JSON.parse(run.read.split("\n")[0]!).session_id as string;
    const stored = await storedSession(sessionId, ws.root, ws.home);
    expect(stored.runs.map((r) => r.status)).toEqual(["cancelled"]);
    // The prompt and the whole first round are kept.
    expect(stored.messages.slice(0, 3).map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(stored.messages[1]!.parts).toContainEqual(
      expect.objectContaining({ type: "tool_call", name: "write_file" }),
    );
  });

  it("text | head: cancels the run and exits 4 with no stack trace", async () => {
    server = await startFakeLlm({ script: { turns } });
    const ws = await makeWorkspace({}, { sandbox: { mode: "off" } });
    const args = headlessArgs("write notes", { root: ws.root, serverUrl: server.url, format: "text" }, [
      "--approval-mode",
      "yolo",
    ]);
    const run = await runClosingStdout(args, ws.home, (read) => read.includes("word"));

    expect(run.signal).toBeNull();
    expect(run.code, run.stderr).toBe(4);
    expectNoStackTrace(run.stderr);
    expect(run.stderr).toContain("Cancelled.\n");
    expect(existsSync(join(ws.root, "late.txt"))).toBe(false);
    expect(server.requests).toHaveLength(2);
  });

  it("json with stdout closed from the start: the run's own exit code, no stack trace", async () => {
    server = await startFakeLlm({ script: { turns: [{ text: "Short answer." }] } });
    const ws = await makeWorkspace({}, { sandbox: { mode: "off" } });
    const args = headlessArgs("hi", { root: ws.root, serverUrl: server.url, format: "json" });
    // Nothing is written before the end: the only line finds no reader, after the run completed.
    const run = await runClosingStdout(args, ws.home, () => true);
    expect(run.signal).toBeNull();
    expectNoStackTrace(run.stderr);
    expect(run.code, run.stderr).toBe(0);
  });
});
