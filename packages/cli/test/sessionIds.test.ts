import type { CheckpointRecord } from "@lathe/core";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface OpenAiMessage {
  role: string;
  content?: unknown;
}

/** The user texts of one request the scripted model received. */
function userTexts(index: number): string[] {
  const body = server!.requests[index]!.body as { messages: OpenAiMessage[] };
  return body.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
}

async function project(turns: { text: string }[]) {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace({ "a.txt": "a\n" }, { sandbox: { mode: "off" } });
  const lathe = (args: string[]) =>
    runLathe(args, { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } });
  const headless = async (prompt: string, extra: string[] = []) => {
    const run = await lathe(headlessArgs(prompt, { root: ws.root, serverUrl: server!.url }, extra));
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as { session_id: string };
  };
  const text = async (args: string[]) => {
    const run = await lathe([...args, "--cwd", ws.root]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    return run.stdout;
  };
  return { ws, lathe, headless, text };
}

describe("--continue after a checkpoint restore", () => {
  it("continues the session the user rewound, not the backup fork", async () => {
    const p = await project([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const { session_id: sessionId } = await p.headless("first message");
    await p.headless("second message", ["--continue"]);
    const listed = JSON.parse(await p.text(["checkpoints", "list", sessionId, "--json"])) as {
      checkpoints: CheckpointRecord[];
    };
    const atMessages = listed.checkpoints.filter((c) => c.reason === "user_message");
    expect(atMessages).toHaveLength(2);
    const report = JSON.parse(await p.text(["checkpoints", "restore", atMessages[1]!.id, "--json"]));
    expect(report.messagesRemoved).toBe(2);

    const third = await p.headless("third message", ["--continue"]);
    expect(third.session_id).toBe(sessionId);
    expect(third.session_id).not.toBe(report.backupSession);
    const sent = userTexts(2);
    expect(sent.some((t) => t.includes("first message"))).toBe(true);
    expect(sent.some((t) => t.includes("second message"))).toBe(false);
    expect(sent.some((t) => t.includes("third message"))).toBe(true);
  });
});

describe("ids as lists print them", () => {
  it("prints unique prefixes that every command accepts, and message ids fork --at takes", async () => {
    const p = await project([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const ids = [
      (await p.headless("first session")).session_id,
      (await p.headless("second session")).session_id,
      (await p.headless("third session")).session_id,
    ];
    // Started within seconds of each other: their first 8 characters are the same.
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1);
    const ambiguous = await p.lathe(["sessions", "show", ids[0]!.slice(0, 8), "--cwd", p.ws.root]);
    expect(ambiguous.code).toBe(1);

    const listed = (await p.text(["sessions", "list"])).trim().split("\n");
    const shortIds = listed.map((line) => line.split(/\s+/)[0]!);
    for (const id of ids) {
      const short = shortIds.find((s) => id.startsWith(s));
      expect(short, id).toBeDefined();
      expect(short!.length).toBeGreaterThan(8);
      expect(ambiguous.stderr).toContain(short);
      expect(await p.text(["sessions", "show", short!])).toContain(`Session ${id}`);
    }

    const shown = await p.text(["sessions", "show", ids[0]!]);
    const messages = JSON.parse(await p.text(["sessions", "show", ids[0]!, "--json"])).messages as {
      id: string;
      role: string;
    }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const userLine = shown.split("\n").find((line) => line.includes("[user] first session"))!;
    const userId = userLine.trim().split(/\s+/)[0]!;
    expect(messages[0]!.id.startsWith(userId)).toBe(true);
    const forked = JSON.parse(await p.text(["sessions", "fork", ids[0]!, "--at", userId, "--json"]));
    const fork = JSON.parse(await p.text(["sessions", "show", forked.forked, "--json"]));
    expect(fork.messages.map((m: { role: string }) => m.role)).toEqual(["user"]);

    const checkpoints = (await p.text(["checkpoints", "list", ids[0]!])).trim().split("\n").slice(1);
    expect(checkpoints).toHaveLength(1);
    const checkpointId = checkpoints[0]!.split(/\s+/)[0]!;
    expect(await p.text(["checkpoints", "diff", checkpointId])).toBe("No changes since this checkpoint.\n");
  }, 180_000);
});
