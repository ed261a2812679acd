import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakeTurn,
  fakeKeys,
  processAlive,
  processGoneWithin,
  type RecordedRequest,
  startFakeLlm,
} from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace } from "./latheProcess.js";

// `lathe acp` driven by acpx (npm acpx), a headless ACP client nobody here wrote: its CLI for
// one-shot and persistent sessions, its embedded runtime where only a host callback can pick an
// "always" option. Every line acpx prints with `--format json` is one ACP message, either way.

const lathe = fileURLToPath(new URL("../bin/lathe", import.meta.url));
const acpxCli = createRequire(import.meta.url).resolve("acpx");
const stdioMcpServer = fileURLToPath(new URL("../../core/test/mcp/stdioTestServer.mjs", import.meta.url));

/** acpx 0.19 needs Node >= 22.13; it runs on the test's own Node, so that one must be recent enough. */
function acpxRunsHere(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

const writeTools = ["write_file", "edit_file", "multi_edit", "apply_patch", "delete_file"];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Workspace {
  root: string;
  home: string;
}

/** A scripted model server, a throwaway project and HOME, and the `--agent` command acpx starts. */
async function harness(turns: FakeTurn[], latheFlags: string[] = []) {
  const fake = await startFakeLlm({ script: { turns } });
  const made = await makeWorkspace({ "README.md": "# A project\n" });
  // Lathe answers with real paths; acpx serves files only under the --cwd it was given.
  const ws: Workspace = { root: realpathSync(made.root), home: made.home };
  cleanups.push(async () => {
    await stopQueueOwners(ws.home);
    await fake.close();
    rmSync(ws.root, { recursive: true, force: true });
    rmSync(ws.home, { recursive: true, force: true });
  });
  const agentArgv = [
    lathe,
    "acp",
    "--model",
    "openai:gpt-4.1",
    "--base-url",
    `${fake.url}/v1`,
    ...latheFlags,
  ];
  return { fake, ws, agentArgv };
}

type Harness = Awaited<ReturnType<typeof harness>>;

/** One JSON-RPC message of acpx's transcript, either direction, or one of its own result lines. */
interface AcpMessage {
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  action?: string;
  [key: string]: unknown;
}

interface AcpxRun {
  code: number | null;
  stdout: string;
  stderr: string;
  messages: AcpMessage[];
}

/** Runs acpx against Lathe without blocking: the scripted model server answers from this very process. */
function acpx(h: Harness, args: string[]): Promise<AcpxRun> {
  const argv = [acpxCli, "--agent", h.agentArgv.join(" "), "--cwd", h.ws.root, "--format", "json", ...args];
  const child = spawn(process.execPath, argv, {
    // A clean environment; the throwaway HOME holds acpx's session records (~/.acpx) and Lathe's.
    env: {
      HOME: h.ws.home,
      LATHE_HOME: h.ws.home,
      PATH: process.env.PATH,
      OPENAI_API_KEY: fakeKeys.openai,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, messages: parseLines(stdout) }));
  });
}

/** The JSON lines of acpx's output; anything else is left out (it is in `stdout` for a failure message). */
function parseLines(stdout: string): AcpMessage[] {
  return stdout.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line) as AcpMessage];
    } catch {
      return [];
    }
  });
}

/** Every message of `method` in the transcript, requests and notifications alike. */
function calls(run: AcpxRun, method: string): AcpMessage[] {
  return run.messages.filter((message) => message.method === method);
}

/** The answer to `request`: the first message after it with its id and no method (ids repeat across directions). */
function answerTo(run: AcpxRun, request: AcpMessage): AcpMessage | undefined {
  const at = run.messages.indexOf(request);
  return run.messages
    .slice(at + 1)
    .find((message) => message.method === undefined && message.id === request.id);
}

/** The session updates of the transcript, in order. */
function updates(run: AcpxRun): Record<string, unknown>[] {
  return calls(run, "session/update").map((message) => message.params?.update as Record<string, unknown>);
}

/** The last tool call update of the transcript: how its last call ended. */
function lastCallUpdate(run: AcpxRun): Record<string, unknown> | undefined {
  return updates(run)
    .filter((update) => update.sessionUpdate === "tool_call_update")
    .at(-1);
}

/** How the transcript's prompt ended, as the agent said it. */
function stopReasons(run: AcpxRun): unknown[] {
  return run.messages.flatMap((message) =>
    message.result && "stopReason" in message.result ? [message.result.stopReason] : [],
  );
}

/** The agent's answer to `initialize`: its capabilities. */
function agentCapabilities(run: AcpxRun): Record<string, unknown> | undefined {
  const init = calls(run, "initialize")[0];
  return init && (answerTo(run, init)?.result?.agentCapabilities as Record<string, unknown> | undefined);
}

interface ChatBody {
  model?: string;
  tools?: { function?: { name?: string } }[];
  messages?: { role: string; content?: unknown }[];
}

/** A model request's body, as the OpenAI wire carries it. */
function chat(request: RecordedRequest | undefined): ChatBody {
  return (request?.body ?? {}) as ChatBody;
}

/** The tool names a model request offered. */
function offeredTools(request: RecordedRequest | undefined): string[] {
  return (chat(request).tools ?? []).flatMap((tool) => (tool.function?.name ? [tool.function.name] : []));
}

/** A request's conversation as role and text, whatever shape each message's content has. */
function conversation(request: RecordedRequest | undefined): { role: string; text: string }[] {
  return (chat(request).messages ?? []).map((message) => ({
    role: message.role,
    text: typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""),
  }));
}

/** The pids of live processes whose command line contains `command`, read from /proc. */
function processesRunning(command: string): { pid: number; argv: string[] }[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean);
    } catch {
      return [];
    }
    const pid = Number(entry);
    return argv.join(" ").includes(command) && processAlive(pid) ? [{ pid, argv }] : [];
  });
}

/** The pid of `sleep` running `command`, once it runs; fails early when the prompt ended first. */
async function sleepStarted(command: string, prompt: { done: boolean }, withinMs = 15_000): Promise<number> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline && !prompt.done) {
    const found = processesRunning(command).find((running) => running.argv[0]?.endsWith("sleep"));
    if (found) return found.pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`\`${command}\` never started (prompt ${prompt.done ? "ended first" : "still running"})`);
}

/** A command nothing else on the machine runs, so /proc can tell whether it is still there. */
function uniqueSleep(): string {
  return `sleep ${(29 + Math.random()).toFixed(4)}`;
}

/** A run still going, and whether it has ended: to wait for its effects without blocking on it. */
function inBackground(run: Promise<AcpxRun>) {
  const state = { done: false, run };
  void run.finally(() => {
    state.done = true;
  });
  return state;
}

/** The live acpx queue owners of `home`, by their lock files: they outlive the command that started them. */
function queueOwnerPids(home: string): number[] {
  const dir = join(home, ".acpx", "queues");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (!name.endsWith(".lock")) return [];
    try {
      const { pid } = JSON.parse(readFileSync(join(dir, name), "utf8")) as { pid?: unknown };
      if (typeof pid !== "number" || !processAlive(pid)) return [];
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("__queue-owner") ? [pid] : [];
    } catch {
      return [];
    }
  });
}

/** Ends the queue owners this test started (and with them their Lathe), by pid. */
async function stopQueueOwners(home: string): Promise<void> {
  for (const pid of queueOwnerPids(home)) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Gone already.
    }
    await processGoneWithin(pid, 5000);
  }
}

/** The failure message of an acpx run: what it printed, to see why without running it again. */
function output(run: AcpxRun): string {
  return `acpx exited ${run.code}\nstdout:\n${run.stdout.slice(-4000)}\nstderr:\n${run.stderr.slice(-4000)}`;
}

/** A persistent acpx session for the project: `prompt`, `cancel` and `set` need one first. */
async function newSession(h: Harness): Promise<void> {
  const created = await acpx(h, ["sessions", "new"]);
  expect(created.code, output(created)).toBe(0);
  expect(created.messages.at(-1)).toMatchObject({ action: "session_ensured", created: true });
}

/** One prompt through acpx's runtime: only its host callback can pick an "always" option, never the CLI. */
async function runtimePrompt(h: Harness, text: string, decision: "allow_always" | "reject_always") {
  const { createAcpRuntime, createAgentRegistry, createRuntimeStore } = await import("acpx/runtime");
  const runtime = createAcpRuntime({
    cwd: h.ws.root,
    sessionStore: createRuntimeStore({ stateDir: join(h.ws.home, "acpx-runtime") }),
    agentRegistry: createAgentRegistry({ overrides: { lathe: h.agentArgv } }),
    // For what the callback leaves undecided, which is nothing: it answers every request with `decision`.
    permissionMode: "approve-all",
    agentProcessEnv: { HOME: h.ws.home, LATHE_HOME: h.ws.home, OPENAI_API_KEY: fakeKeys.openai },
  });
  cleanups.push(() => runtime.shutdown());
  const handle = await runtime.ensureSession({ sessionKey: decision, agent: "lathe", mode: "oneshot" });
  const asked: { title: string | null | undefined; kinds: string[] }[] = [];
  const turn = runtime.startTurn({
    handle,
    text,
    mode: "prompt",
    requestId: `${decision}-1`,
    onPermissionRequest: async (request) => {
      asked.push({
        title: request.raw.toolCall.title,
        kinds: request.raw.options.map((option) => option.kind),
      });
      return { outcome: decision };
    },
  });
  // How each tool call ended, in order.
  const ended: string[] = [];
  for await (const event of turn.events)
    if (event.type === "tool_call" && (event.status === "completed" || event.status === "failed"))
      ended.push(event.status);
  const result = await turn.result;
  await runtime.close({ handle, reason: "test over" });
  return { asked, ended, result };
}

describe.skipIf(!acpxRunsHere())("lathe acp driven by acpx, a client nobody here wrote", () => {
  it("writes a file once acpx allows the call, with the once option", async () => {
    const h = await harness(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } }] },
        { text: "Written." },
      ],
      ["--approval-mode", "manual"],
    );
    const run = await acpx(h, ["--approve-all", "exec", "Write notes.md"]);
    expect(run.code, output(run)).toBe(0);
    const [asked, ...more] = calls(run, "session/request_permission");
    expect(more).toEqual([]);
    expect(asked?.params).toMatchObject({ toolCall: { title: "write_file notes.md" } });
    const kinds = (asked?.params?.options as { kind: string }[]).map((option) => option.kind);
    expect(kinds).toEqual(expect.arrayContaining(["allow_once", "allow_always", "reject_once"]));
    // acpx's approval takes the first "allow" kind in its own order: once before always.
    expect(asked && answerTo(run, asked)?.result).toEqual({
      outcome: { outcome: "selected", optionId: "allow_once" },
    });
    expect(readFileSync(join(h.ws.root, "notes.md"), "utf8")).toBe("hi\n");
    expect(lastCallUpdate(run)).toMatchObject({
      status: "completed",
      content: expect.arrayContaining([
        { type: "diff", path: join(h.ws.root, "notes.md"), oldText: null, newText: "hi\n" },
      ]),
    });
    expect(stopReasons(run)).toEqual(["end_turn"]);
  });

  it("asks once about a command allowed always, and not again for the same command", async () => {
    const npmTest = { name: "run_terminal_cmd", arguments: { command: "npm test" } };
    const h = await harness(
      [{ tool_calls: [npmTest] }, { tool_calls: [npmTest] }, { text: "Twice." }],
      ["--approval-mode", "manual"],
    );
    const { asked, ended, result } = await runtimePrompt(h, "Test twice", "allow_always");
    expect(result).toMatchObject({ status: "completed", stopReason: "end_turn" });
    expect(asked).toEqual([{ title: "npm test", kinds: expect.arrayContaining(["allow_always"]) }]);
    // Both calls ran (npm finds no package.json here: the command fails, the call does not).
    expect(ended).toEqual(["completed", "completed"]);
    expect(h.fake.requests).toHaveLength(3);
  });

  it("asks once about an edit rejected always, and refuses the same edit again without asking", async () => {
    const write = { name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } };
    const h = await harness(
      [{ tool_calls: [write] }, { tool_calls: [write] }, { text: "Left it." }],
      ["--approval-mode", "manual"],
    );
    const { asked, ended } = await runtimePrompt(h, "Write it twice", "reject_always");
    expect(asked).toEqual([
      { title: "write_file notes.md", kinds: expect.arrayContaining(["reject_always"]) },
    ]);
    expect(ended).toEqual(["failed", "failed"]);
    expect(existsSync(join(h.ws.root, "notes.md"))).toBe(false);
  });

  it("leaves the file alone when acpx's policy rejects the call", async () => {
    const h = await harness(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } }] },
        { text: "Left it." },
      ],
      ["--approval-mode", "manual"],
    );
    // The policy's deny beats --approve-all, which would otherwise also let a client-side write through.
    const policy = JSON.stringify({ autoDeny: ["write_file"] });
    const run = await acpx(h, ["--approve-all", "--permission-policy", policy, "exec", "Write notes.md"]);
    const [asked] = calls(run, "session/request_permission");
    expect(asked && answerTo(run, asked)?.result, output(run)).toEqual({
      outcome: { outcome: "selected", optionId: "reject_once" },
    });
    expect(existsSync(join(h.ws.root, "notes.md"))).toBe(false);
    expect(updates(run).filter((update) => update.sessionUpdate === "tool_call_update")).toEqual([
      expect.objectContaining({ status: "failed" }),
    ]);
    // The model hears of the refusal and answers; the prompt itself ends normally.
    expect(h.fake.requests).toHaveLength(2);
    expect(stopReasons(run)).toEqual(["end_turn"]);
  });

  it("stops a long command when `acpx cancel` comes from a second process", async () => {
    const command = uniqueSleep();
    const h = await harness([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command } }] },
      { text: "Never asked for." },
    ]);
    await newSession(h);
    // A long TTL keeps the queue owner, which `cancel` reaches, for the whole test; cleanup ends it.
    const prompt = inBackground(acpx(h, ["--approve-all", "--ttl", "30", "prompt", "Sleep a while"]));
    const sleepPid = await sleepStarted(command, prompt);
    const cancel = await acpx(h, ["cancel"]);
    expect(cancel.code, output(cancel)).toBe(0);
    expect(cancel.messages.at(-1)).toMatchObject({ action: "cancel_result", cancelled: true });
    const run = await prompt.run;
    expect(calls(run, "session/cancel")).toHaveLength(1);
    expect(stopReasons(run), output(run)).toEqual(["cancelled"]);
    expect(await processGoneWithin(sleepPid, 3000)).toBe(true);
    expect(processesRunning(command)).toEqual([]);
    expect(lastCallUpdate(run)).toMatchObject({
      status: "failed",
    });
    // Cancelled, the run does not go back to the model.
    expect(h.fake.requests).toHaveLength(1);
  });

  it("loads a saved session once its owner is gone, with the history, and cancels the loaded one", async () => {
    const command = uniqueSleep();
    const h = await harness([
      { text: "One." },
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command } }] },
      { text: "Never asked for." },
    ]);
    await newSession(h);
    const first = await acpx(h, ["--ttl", "1", "prompt", "First"]);
    expect(first.code, output(first)).toBe(0);
    // Without loadSession acpx silently opens a fresh session instead: nothing below would hold.
    expect(agentCapabilities(first)).toMatchObject({ loadSession: true });
    const sessionId = calls(first, "session/prompt")[0]?.params?.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    // A second after its queue drains the owner exits, and its Lathe with it.
    for (const pid of queueOwnerPids(h.ws.home)) expect(await processGoneWithin(pid, 8000)).toBe(true);

    const prompt = inBackground(acpx(h, ["--approve-all", "--ttl", "30", "prompt", "Second"]));
    const sleepPid = await sleepStarted(command, prompt);
    const cancel = await acpx(h, ["cancel"]);
    expect(cancel.messages.at(-1), output(cancel)).toMatchObject({
      action: "cancel_result",
      cancelled: true,
    });
    const second = await prompt.run;

    const [load, ...moreLoads] = calls(second, "session/load");
    expect(load?.params, output(second)).toMatchObject({ sessionId });
    expect(moreLoads).toEqual([]);
    expect(load && answerTo(second, load)?.error).toBeUndefined();
    expect(calls(second, "session/new")).toEqual([]);
    expect(calls(second, "session/prompt")[0]?.params).toMatchObject({ sessionId });
    // The loaded session's model request carries the first prompt's conversation.
    expect(conversation(h.fake.requests[1])).toEqual(
      expect.arrayContaining([
        { role: "user", text: expect.stringContaining("First") },
        { role: "assistant", text: expect.stringContaining("One.") },
        { role: "user", text: expect.stringContaining("Second") },
      ]),
    );
    expect(stopReasons(second)).toEqual(["cancelled"]);
    expect(await processGoneWithin(sleepPid, 3000)).toBe(true);
  });

  it("offers no write tools once `acpx set-mode plan` switched the live session", async () => {
    const h = await harness([{ text: "One." }, { text: "Planned." }]);
    await newSession(h);
    const first = await acpx(h, ["--ttl", "30", "prompt", "First"]);
    expect(first.code, output(first)).toBe(0);
    const setMode = await acpx(h, ["set-mode", "plan"]);
    expect(setMode.messages.at(-1), output(setMode)).toMatchObject({ action: "mode_set", modeId: "plan" });
    const second = await acpx(h, ["--ttl", "30", "prompt", "Plan it"]);
    expect(second.code, output(second)).toBe(0);
    expect(h.fake.requests).toHaveLength(2);
    expect(offeredTools(h.fake.requests[0])).toEqual(expect.arrayContaining(writeTools));
    expect(offeredTools(h.fake.requests[1]).filter((name) => writeTools.includes(name))).toEqual([]);
    expect(offeredTools(h.fake.requests[1])).toContain("read_file");
  });

  it("switches the model through its config option with `acpx set model`, from the next request on", async () => {
    const h = await harness([{ text: "One." }, { text: "Two." }]);
    await newSession(h);
    const first = await acpx(h, ["--ttl", "30", "prompt", "First"]);
    expect(first.code, output(first)).toBe(0);
    const set = await acpx(h, ["set", "model", "openai:gpt-4.1-mini"]);
    expect(set.messages.at(-1), output(set)).toMatchObject({
      action: "model_set",
      modelId: "openai:gpt-4.1-mini",
    });
    const second = await acpx(h, ["--ttl", "30", "prompt", "Second"]);
    expect(second.code, output(second)).toBe(0);
    expect(h.fake.requests.map((request) => chat(request).model)).toEqual(["gpt-4.1", "gpt-4.1-mini"]);
    // Same session, other model: the conversation goes on.
    expect(conversation(h.fake.requests[1])).toEqual(
      expect.arrayContaining([{ role: "assistant", text: expect.stringContaining("One.") }]),
    );
  });

  it("offers and runs the tools of an MCP server acpx passes with session/new", async () => {
    const h = await harness([
      { tool_calls: [{ name: "mcp__testbed__echo", arguments: { text: "ping", times: 2 } }] },
      { text: "Echoed." },
    ]);
    // A marker argument the server ignores, to find its process in /proc afterwards.
    const marker = `--acpx-test-${process.pid}-${Date.now()}`;
    const mcpConfig = join(h.ws.home, "mcp.json");
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: [{ name: "testbed", command: process.execPath, args: [stdioMcpServer, marker], env: [] }],
      }),
    );
    const run = await acpx(h, ["--approve-all", "--mcp-config", mcpConfig, "exec", "Echo ping twice"]);
    expect(run.code, output(run)).toBe(0);
    expect(calls(run, "session/new")[0]?.params).toMatchObject({ mcpServers: [{ name: "testbed" }] });
    expect(offeredTools(h.fake.requests[0])).toContain("mcp__testbed__echo");
    expect(lastCallUpdate(run)).toMatchObject({
      status: "completed",
    });
    expect(conversation(h.fake.requests[1])).toEqual(
      expect.arrayContaining([{ role: "tool", text: expect.stringContaining("ping ping") }]),
    );
    // The session ended with acpx's exec, the server it brought ends too.
    const deadline = Date.now() + 3000;
    while (processesRunning(marker).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(processesRunning(marker)).toEqual([]);
  });

  it("reads a file through the client's fs/read_text_file when the client offers it", async () => {
    const h = await harness([
      { tool_calls: [{ name: "read_file", arguments: { path: "README.md" } }] },
      { text: "Read." },
    ]);
    const run = await acpx(h, ["exec", "Read the README"]);
    expect(run.code, output(run)).toBe(0);
    expect(calls(run, "initialize")[0]?.params).toMatchObject({
      clientCapabilities: { fs: { readTextFile: true } },
    });
    // acpx answers from the disk (it has no unsaved buffers): the read is seen going through it.
    const [read] = calls(run, "fs/read_text_file");
    expect(read?.params, output(run)).toMatchObject({ path: join(h.ws.root, "README.md") });
    expect(read && answerTo(run, read)?.result).toEqual({ content: "# A project\n" });
    expect(conversation(h.fake.requests[1])).toEqual(
      expect.arrayContaining([{ role: "tool", text: expect.stringContaining("# A project") }]),
    );
  });

  it("reads from the disk itself when the client does not offer fs (acpx --no-fs)", async () => {
    const h = await harness([
      { tool_calls: [{ name: "read_file", arguments: { path: "README.md" } }] },
      { text: "Read." },
    ]);
    const run = await acpx(h, ["--no-fs", "exec", "Read the README"]);
    expect(run.code, output(run)).toBe(0);
    expect(calls(run, "initialize")[0]?.params).toMatchObject({
      clientCapabilities: { fs: { readTextFile: false } },
    });
    expect(calls(run, "fs/read_text_file")).toEqual([]);
    expect(conversation(h.fake.requests[1])).toEqual(
      expect.arrayContaining([{ role: "tool", text: expect.stringContaining("# A project") }]),
    );
  });
});
