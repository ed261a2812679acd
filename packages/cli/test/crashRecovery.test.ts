import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Message } from "@lathe/protocol";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

let servers: FakeLlm[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Kill points per test run; `LATHE_CRASH_POINTS` raises it for a longer soak. */
const killPoints = Number(process.env.LATHE_CRASH_POINTS ?? 12);

/** A small deterministic generator, so a failing kill point can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Eight tool rounds that write files and run commands, streamed slowly enough to be hit mid-round. */
function script(): FakeTurn[] {
  const turns: FakeTurn[] = [];
  for (let i = 0; i < 8; i++) {
    turns.push({
      text: `Round ${i}: writing and checking.`,
      chunk_delay_ms: 5,
      tool_calls: [
        { name: "write_file", arguments: { path: `out/f${i}.txt`, contents: `file ${i}\n`.repeat(50) } },
        { name: "run_terminal_cmd", arguments: { command: `sleep 0.05 && wc -l out/f${i}.txt` } },
      ],
    });
  }
  turns.push({ text: "All rounds done." });
  return turns;
}

async function server(turns: FakeTurn[]): Promise<FakeLlm> {
  const started = await startFakeLlm({ script: { turns } });
  servers.push(started);
  return started;
}

describe("a run killed with SIGKILL loses at most the turn in flight", () => {
  it(`keeps every completed turn over ${killPoints} random kill points, and resumes`, async () => {
    const ws = await makeWorkspace({}, { sandbox: { mode: "off" }, checkpoints: { enabled: false } });
    const next = random(20261123);
    const env = { OPENAI_API_KEY: fakeKeys.openai };
    const headless = (url: string, args: string[], onStdout?: Parameters<typeof runLathe>[1]["onStdout"]) =>
      runLathe(
        [
          "--cwd",
          ws.root,
          "--model",
          "openai:gpt-4.1",
          "--base-url",
          `${url}/v1`,
          "--approval-mode",
          "yolo",
          ...args,
        ],
        { home: ws.home, env, ...(onStdout ? { onStdout } : {}) },
      );
    const killedAt: string[] = [];
    let interrupted = 0;
    for (let point = 0; point < killPoints; point++) {
      const fake = await server(script());
      // Half the kills land a random time after a tool call starts, half at a random moment of the run.
      const afterToolCalls = 1 + Math.floor(next() * 14);
      const delayMs = Math.floor(next() * (point % 2 === 0 ? 120 : 1500));
      let armed = false;
      const run = await headless(
        fake.url,
        ["-p", `task ${point}`, "--output-format", "stream-json"],
        (stdout, kill) => {
          if (armed) return;
          const started = stdout.split("\n").filter((line) => line.includes('"subtype":"started"')).length;
          if (point % 2 === 0 ? started >= afterToolCalls : stdout.includes('"subtype":"init"')) {
            armed = true;
            setTimeout(() => kill("SIGKILL"), delayMs);
          }
        },
      );
      const lines = run.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
      const sessionId: string = lines[0].session_id;
      const completedTurns = lines.filter((line) => line.subtype === "turn_end").length;
      killedAt.push(`${point}:${run.signal ?? run.code}:${completedTurns}`);

      const db = new DatabaseSync(join(ws.home, "lathe.db"), { readOnly: true });
      expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      db.close();

      const shown = await runLathe(["sessions", "show", sessionId, "--cwd", ws.root, "--json"], {
        home: ws.home,
        env,
      });
      expect(shown.code, shown.stderr).toBe(0);
      const messages = JSON.parse(shown.stdout).messages as Message[];
      // Every turn the face saw end is stored: its assistant message and, for a tool round, its results.
      const storedTurns = messages.filter(
        (message, index) => message.role === "assistant" && messages[index + 1]?.role === "tool",
      ).length;
      expect(storedTurns, killedAt.at(-1)).toBeGreaterThanOrEqual(Math.min(completedTurns, 8));
      expect(storedTurns).toBeLessThanOrEqual(completedTurns + 1);

      const resumeServer = await server([{ text: "Resumed." }]);
      const resumed = await headless(resumeServer.url, [
        "-p",
        "continue",
        "--resume",
        sessionId,
        "--output-format",
        "json",
      ]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout).session_id).toBe(sessionId);
      // The provider got a well-formed history: every tool call has its result.
      const sent = resumeServer.requests[0]!.body as {
        messages: { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[];
      };
      const callIds = sent.messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
      const resultIds = sent.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
      expect(resultIds.sort()).toEqual(callIds.sort());

      // The killed run is marked interrupted, with an end time, once its process is gone; a run the
      // kill missed ended on its own.
      const afterResume = await runLathe(["sessions", "show", sessionId, "--cwd", ws.root, "--json"], {
        home: ws.home,
        env,
      });
      const runs = JSON.parse(afterResume.stdout).runs as {
        status: string;
        startedAt: number;
        endedAt?: number;
      }[];
      const finished = lines.some((line) => line.type === "result");
      expect(runs.map((r) => r.status)).toEqual([finished ? "completed" : "interrupted", "completed"]);
      expect(runs[0]!.endedAt).toBeGreaterThanOrEqual(runs[0]!.startedAt);
      expect(runs[0]!.endedAt).toBeLessThanOrEqual(runs[1]!.startedAt);
      if (!finished) {
        interrupted++;
        const text = await runLathe(["sessions", "show", sessionId, "--cwd", ws.root], {
          home: ws.home,
          env,
        });
        expect(text.stdout).toMatch(
          /\n {2}1\. interrupted {2}\d{4}-\d\d-\d\d \d\d:\d\d – \d{4}-\d\d-\d\d \d\d:\d\d {2}/,
        );
      }
    }
    expect(interrupted).toBeGreaterThan(killPoints / 2);
    // The kills landed in different places: not all before the first turn, not all after the last.
    const turnsSeen = new Set(killedAt.map((entry) => entry.split(":")[2]));
    expect(turnsSeen.size).toBeGreaterThan(2);
    console.log(`crash test: ${killPoints} kill points (point:signal:completed turns) ${killedAt.join(" ")}`);
  }, 600_000);
});
