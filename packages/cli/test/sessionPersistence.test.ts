import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunRecord, SessionInfo } from "@lathe/core";
import type { Message, SpanRecord } from "@lathe/protocol";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const apiKey = fakeKeys.openaiSecret;

interface Workspace {
  root: string;
  home: string;
}

async function start(turns: FakeTurn[], files: Record<string, string> = {}): Promise<Workspace> {
  server = await startFakeLlm({ script: { turns } });
  return makeWorkspace(files, { sandbox: { mode: "off" }, checkpoints: { enabled: false } });
}

function lathe(ws: Workspace, args: string[]) {
  return runLathe(args, { home: ws.home, env: { OPENAI_API_KEY: apiKey } });
}

function headless(ws: Workspace, prompt: string, extra: string[] = []) {
  return lathe(
    ws,
    headlessArgs(prompt, { root: ws.root, serverUrl: server!.url }, ["--approval-mode", "yolo", ...extra]),
  );
}

async function json<T>(ws: Workspace, args: string[]): Promise<T> {
  const run = await lathe(ws, [...args, "--cwd", ws.root, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

interface Shown {
  session: SessionInfo;
  runs: RunRecord[];
  messages: Message[];
}

const texts = (messages: Message[]) =>
  messages.map((m) => `${m.role}:${m.parts.map((p) => (p.type === "text" ? p.text : p.type)).join("+")}`);

describe("sessions are stored as they happen", () => {
  it("lists, shows, resumes, continues, forks, renames, exports, imports and deletes", async () => {
    const ws = await start(
      [
        {
          tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }],
          usage: { prompt_tokens: 1000, completion_tokens: 100 },
        },
        { text: "a.txt says hello", usage: { prompt_tokens: 1200, completion_tokens: 20 } },
        { text: "Still here.", usage: { prompt_tokens: 1300, completion_tokens: 10 } },
        { text: "And again.", usage: { prompt_tokens: 1400, completion_tokens: 10 } },
        { text: "Read a.txt" },
      ],
      { "a.txt": "hello\n" },
    );
    const first = await headless(ws, "What does a.txt say?\nSecond line.");
    expect(first.code).toBe(0);
    const firstJson = JSON.parse(first.stdout);
    const id: string = firstJson.session_id;
    expect(firstJson.usage).toMatchObject({ inputTokens: 2200, outputTokens: 120 });
    expect(firstJson.cost_usd).toBeGreaterThan(0);
    expect(firstJson.session_usage).toEqual(firstJson.usage);

    const listed = await json<SessionInfo[]>(ws, ["sessions", "list"]);
    expect(listed.map((s) => [s.id, s.title, s.messageCount])).toEqual([[id, "What does a.txt say?", 4]]);
    expect(listed[0]!.usage.inputTokens).toBe(2200);

    const shown = await json<Shown>(ws, ["sessions", "show", id.slice(0, 30)]);
    expect(texts(shown.messages)).toEqual([
      "user:What does a.txt say?\nSecond line.",
      "assistant:tool_call",
      "tool:tool_result",
      "assistant:a.txt says hello",
    ]);
    expect(shown.runs.map((r) => [r.status, r.iterations, r.usage.inputTokens])).toEqual([
      ["completed", 2, 2200],
    ]);

    // --resume ID: the model hears the stored conversation; session usage carries on.
    const resumed = await headless(ws, "Are you still there?", ["--resume", id]);
    expect(resumed.code).toBe(0);
    const resumedJson = JSON.parse(resumed.stdout);
    expect(resumedJson.session_id).toBe(id);
    expect(resumedJson.session_usage.inputTokens).toBe(3500);
    const sent = server!.requests[2]!.body as { messages: { role: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);

    // --continue picks the latest session of the project.
    const continued = await headless(ws, "Once more", ["--continue"]);
    expect(JSON.parse(continued.stdout).session_id).toBe(id);
    const afterContinue = await json<Shown>(ws, ["sessions", "show", id]);
    expect(afterContinue.messages).toHaveLength(8);
    expect(afterContinue.runs).toHaveLength(3);

    const forked = await json<{ forked: string }>(ws, [
      "sessions",
      "fork",
      id,
      "--at",
      afterContinue.messages[3]!.id,
    ]);
    const fork = await json<Shown>(ws, ["sessions", "show", forked.forked]);
    expect(texts(fork.messages)).toEqual(texts(afterContinue.messages.slice(0, 4)));
    expect(fork.session.parentSessionId).toBe(id);

    await json(ws, ["sessions", "rename", id, "Reading", "a.txt"]);
    // Without a title the model writes one (the script's last turn).
    const settings = JSON.parse(readFileSync(join(ws.home, "settings.json"), "utf8"));
    const withModel = { ...settings, fastModel: "openai:gpt-4.1", baseUrls: { openai: `${server!.url}/v1` } };
    writeFileSync(join(ws.home, "settings.json"), JSON.stringify(withModel));
    const titled = await json<{ title: string }>(ws, ["sessions", "rename", forked.forked]);
    expect(titled.title).toBe("Read a.txt");

    const exported = await lathe(ws, ["sessions", "export", id, "--cwd", ws.root]);
    expect(exported.code).toBe(0);
    const file = join(ws.root, "export.jsonl");
    writeFileSync(file, exported.stdout);
    const imported = await json<{ imported: string }>(ws, ["sessions", "import", file]);
    const copy = await json<Shown>(ws, ["sessions", "show", imported.imported]);
    expect(texts(copy.messages)).toEqual(texts(afterContinue.messages));
    expect(copy.session.title).toBe("Reading a.txt");

    const bad = join(ws.root, "bad.jsonl");
    writeFileSync(bad, `${exported.stdout.split("\n")[0]}\n{"type":"message","message":{"role":"nobody"}}\n`);
    const refused = await lathe(ws, ["sessions", "import", bad, "--cwd", ws.root]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("E_INVALID_ARGS");
    expect(await json<SessionInfo[]>(ws, ["sessions", "list"])).toHaveLength(3);

    await json(ws, ["sessions", "delete", imported.imported]);
    expect((await json<SessionInfo[]>(ws, ["sessions", "list"])).map((s) => s.id).sort()).toEqual(
      [id, forked.forked].sort(),
    );
    const missing = await lathe(ws, ["sessions", "show", "ffffffff-0000", "--cwd", ws.root]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("E_SESSION_NOT_FOUND");
    const noResume = await headless(ws, "hi", ["--resume", "ffffffff-0000"]);
    expect(noResume.code).toBe(2);
    expect(noResume.stderr).toContain("ffffffff-0000");
  });
});

describe("lathe trace", () => {
  it("prints the span tree of a session's run", async () => {
    const ws = await start(
      [
        {
          tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }],
          usage: { prompt_tokens: 500, completion_tokens: 50 },
        },
        { text: "done", usage: { prompt_tokens: 600, completion_tokens: 5 } },
      ],
      { "a.txt": "hello\n" },
    );
    const before = Date.now();
    const run = await headless(ws, "read a.txt");
    const after = Date.now();
    const id: string = JSON.parse(run.stdout).session_id;
    const spans = await json<SpanRecord[]>(ws, ["trace", id]);
    // Times from the run's own clock, not from when the start-up snapshot was built.
    for (const span of spans) {
      expect(span.startMs).toBeGreaterThanOrEqual(before);
      expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
      expect(span.endMs).toBeLessThanOrEqual(after);
    }
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const shape = spans.map((span) => {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId)?.name : undefined;
      return `${parent ?? "-"}>${span.name}`;
    });
    expect(shape.sort()).toEqual(
      ["->run", "run>turn", "run>turn", "turn>llm_call", "turn>llm_call", "turn>tool_call"].sort(),
    );
    const tool = spans.find((span) => span.name === "tool_call")!;
    expect(tool.attributes["lathe.tool.name"]).toBe("read_file");
    const root = spans.find((span) => span.name === "run")!;
    expect(root.attributes["gen_ai.usage.input_tokens"]).toBe(1100);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);

    const text = await lathe(ws, ["trace", "--cwd", ws.root]);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^Session ${id}`));
    const names = lines.slice(1).map((line) => line.replace(/^[\s│├└─]+/u, "").split(/\s+/)[0]);
    expect(names).toEqual(["run", "turn", "llm_call", "tool_call", "turn", "llm_call"]);
    expect(text.stdout).toMatch(/tool_call read_file/);
    const jsonl = readFileSync(join(ws.home, "traces", `${id}.jsonl`), "utf8")
      .trim()
      .split("\n");
    expect(jsonl).toHaveLength(6);
  });
});

describe("API keys are never written", () => {
  it("keeps the key out of the database, traces, logs and exports", async () => {
    const ws = await start([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "printenv OPENAI_API_KEY" } }] },
      { text: `The key is ${apiKey}` },
      { error: { status: 401, message: `Incorrect API key provided: ${apiKey}` } },
    ]);
    const ok = await headless(ws, `remember ${apiKey}`);
    expect(ok.code).toBe(0);
    const failed = await headless(ws, "again", ["--continue"]);
    expect(failed.code).toBe(6);
    expect(failed.stdout).not.toContain(apiKey);
    const id: string = JSON.parse(ok.stdout).session_id;
    const exported = await lathe(ws, ["sessions", "export", id, "--cwd", ws.root]);
    expect(exported.stdout).toContain("[redacted]");
    expect(exported.stdout).not.toContain(apiKey);
    // Everything Lathe wrote under its home: the database (and its WAL), traces, logs.
    const written = filesUnder(ws.home).filter((file) => !file.endsWith("settings.json"));
    expect(written.some((file) => file.endsWith("lathe.db"))).toBe(true);
    expect(written.some((file) => file.includes(`${join("traces", id)}.jsonl`))).toBe(true);
    expect(written.some((file) => file.endsWith("lathe.log"))).toBe(true);
    for (const file of written) expect(readFileSync(file).includes(apiKey), file).toBe(false);
    const log = readFileSync(join(ws.home, "logs", "lathe.log"), "utf8");
    expect(log).toContain("E_LLM_AUTH");
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
