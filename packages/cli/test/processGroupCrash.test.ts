import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, type FSWatcher, readdirSync, readFileSync, watch } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import type { CheckpointRecord } from "@lathe/core";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));

let servers: FakeLlm[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function server(turns: FakeTurn[]): Promise<FakeLlm> {
  const started = await startFakeLlm({ script: { turns } });
  servers.push(started);
  return started;
}

/** A small deterministic generator, so a failing kill can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Enough files that git holds its index lock, and a restore writes, for a while. */
const sourceCount = 1500;
const sourceName = (i: number) => `src/m${String(i).padStart(4, "0")}.txt`;
const original = "original\n".repeat(8);
const changed = "changed\n";
const setOriginal = `for f in src/*.txt; do printf 'original\\n%.0s' 1 2 3 4 5 6 7 8 > "$f"; done`;
const changeAll = `for f in src/*.txt; do printf 'changed\\n' > "$f"; done`;
const outContents = (i: number) => `file ${i}\n`.repeat(200);
const bigContents = "a line of a large file written in one call\n".repeat(10_000);

/** Rounds that write files and run commands, each call after a checkpoint. */
function workScript(): FakeTurn[] {
  const turns: FakeTurn[] = [];
  for (let i = 0; i < 6; i++) {
    turns.push({
      chunk_delay_ms: 3,
      tool_calls: [
        { name: "write_file", arguments: { path: `out/f${i}.txt`, contents: outContents(i) } },
        { name: "run_terminal_cmd", arguments: { command: `sleep 0.05 && wc -l out/f${i}.txt` } },
      ],
    });
  }
  turns.push({ tool_calls: [{ name: "write_file", arguments: { path: "big.txt", contents: bigContents } }] });
  turns.push({ text: "Done." });
  return turns;
}

/**
 * The run after every kill: it must checkpoint, and it leaves every source file changed, right
 * after a checkpoint of them all original, so a restore of that checkpoint rewrites them all.
 */
function followUpScript(): FakeTurn[] {
  return [
    { tool_calls: [{ name: "write_file", arguments: { path: "after.txt", contents: "after\n" } }] },
    { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: setOriginal } }] },
    { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: changeAll } }] },
    { text: "Checked." },
  ];
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** SIGKILL to the whole process group: the engine, a launcher, and every child in the group. */
  killGroup: () => void;
}

/** `lathe` as the leader of its own process group, as a terminal or a container runs it. */
function startLathe(args: string[], home: string): Started {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: home, OPENAI_API_KEY: fakeKeys.openai });
  const child = spawn(process.execPath, [latheBin, ...args], {
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    child,
    stdout: () => stdout,
    done,
    killGroup: () => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        // The group is gone already: the run ended before the kill.
      }
    },
  };
}

/** Calls `onName` for each name created or renamed in `dir` (inotify: no polling gap). */
function watchNames(dir: string, onName: (name: string) => void): FSWatcher {
  return watch(dir, (_event, name) => {
    if (name !== null) onName(name.toString());
  });
}

type KillKind = "random" | "snapshot" | "large write" | "restore";

const kinds: KillKind[] = [
  ...Array<KillKind>(18).fill("random"),
  ...Array<KillKind>(5).fill("snapshot"),
  ...Array<KillKind>(3).fill("large write"),
  ...Array<KillKind>(4).fill("restore"),
];

describe("a kill of the whole process group leaves nothing torn and checkpoints working", () => {
  it(`survives ${kinds.length} SIGKILLs of the process group, random and aimed`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < sourceCount; i++) files[sourceName(i)] = original;
    const ws = await makeWorkspace(files, { sandbox: { mode: "off" } });
    const headless = (url: string, prompt: string, extra: string[] = []) => [
      "-p",
      prompt,
      "--cwd",
      ws.root,
      "--model",
      "openai:gpt-4.1",
      "--base-url",
      `${url}/v1`,
      "--approval-mode",
      "yolo",
      "--output-format",
      "stream-json",
      ...extra,
    ];
    const lathe = (args: string[]) =>
      runLathe(args, { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } });

    // A first, whole run creates the shadow repository and leaves every source file changed.
    const first = await lathe(headless((await server(followUpScript())).url, "set up"));
    expect(first.code, first.stderr).toBe(0);
    const checkpointsDir = join(ws.home, "checkpoints");
    const [shadowName] = readdirSync(checkpointsDir);
    const gitDir = join(checkpointsDir, shadowName!);

    const next = random(20261127);
    const log: string[] = [];
    let locksLeft = 0;
    let restoresCut = 0;
    let restoreTarget = "";
    for (const [point, kind] of kinds.entries()) {
      let watcher: FSWatcher | undefined;
      let run: Started;
      if (kind === "restore") {
        restoreTarget = await beforeChangeAll(lathe, ws.root);
        run = startLathe(
          ["checkpoints", "restore", restoreTarget, "--code", "--cwd", ws.root, "--json"],
          ws.home,
        );
        const delayMs = Math.floor(next() * 40);
        // The restore's own writes: kill once the first restored file lands.
        watcher = watchNames(join(ws.root, "src"), () => {
          watcher?.close();
          setTimeout(run.killGroup, delayMs);
        });
      } else {
        const fake = await server(workScript());
        run = startLathe(headless(fake.url, `task ${point}`), ws.home);
        if (kind === "random") {
          const delayMs = Math.floor(next() * 1500);
          setTimeout(run.killGroup, delayMs);
        } else if (kind === "snapshot") {
          const skip = Math.floor(next() * 4);
          let seen = 0;
          watcher = watchNames(gitDir, (name) => {
            if (name !== "index.lock" || seen++ < skip) return;
            watcher?.close();
            run.killGroup();
          });
        } else {
          watcher = watchNames(ws.root, (name) => {
            if (!/^\.big\.txt\..*\.tmp$/.test(name)) return;
            watcher?.close();
            run.killGroup();
          });
        }
      }
      const ended = await run.done;
      watcher?.close();
      const lockLeft = existsSync(join(gitDir, "index.lock"));
      if (lockLeft) locksLeft++;
      log.push(`${point}:${kind}:${ended.signal ?? ended.code}`);

      const db = new DatabaseSync(join(ws.home, "lathe.db"), { readOnly: true });
      expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      db.close();

      // No file is torn: each holds one whole version or is absent.
      for (let i = 0; i < 6; i++) {
        const path = join(ws.root, `out/f${i}.txt`);
        if (existsSync(path)) expect(readFileSync(path, "utf8"), log.at(-1)).toBe(outContents(i));
      }
      if (existsSync(join(ws.root, "big.txt"))) {
        expect(readFileSync(join(ws.root, "big.txt"), "utf8") === bigContents, log.at(-1)).toBe(true);
      }
      const versions = new Set<string>();
      for (let i = 0; i < sourceCount; i++) {
        const text = readFileSync(join(ws.root, sourceName(i)), "utf8");
        expect([original, changed], `${log.at(-1)} ${sourceName(i)}`).toContain(text);
        versions.add(text === changed ? "changed" : "original");
      }
      if (kind === "restore") {
        if (versions.size === 2) restoresCut++;
        // Any command that opens the checkpoints finishes the interrupted restore first.
        const diff = await lathe(["checkpoints", "diff", restoreTarget, "--cwd", ws.root, "--json"]);
        expect(diff.code, diff.stderr).toBe(0);
        const left = (JSON.parse(diff.stdout) as { files: { path: string }[] }).files.map((f) => f.path);
        expect(
          left.filter((path) => path.startsWith("src/")),
          log.at(-1),
        ).toEqual([]);
      }

      // The next session needs no manual step: it checkpoints, and an interrupted restore is
      // finished before anything else touches the project.
      const followUp = await lathe(headless((await server(followUpScript())).url, `after ${point}`));
      expect(followUp.code, `${log.at(-1)} ${followUp.stderr}`).toBe(0);
      const events = followUp.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { subtype?: string; level?: string; message?: string });
      expect(
        events.filter((event) => event.subtype === "checkpoint").length,
        log.at(-1),
      ).toBeGreaterThanOrEqual(4);
      const errors = events.filter((event) => event.subtype === "notice" && event.level === "error");
      expect(errors, log.at(-1)).toEqual([]);
      // A lock left behind is cleared, and the user is told.
      if (lockLeft && kind !== "restore") {
        const told = events.filter((event) => event.subtype === "notice" && event.level === "info");
        expect(told.map((event) => event.message).join("\n"), log.at(-1)).toMatch(
          /stale checkpoint lock|git lock files/,
        );
      }
      expect(existsSync(join(gitDir, "index.lock"))).toBe(false);
      // An interrupted restore's temp files go with it.
      const temps = readdirSync(join(ws.root, "src")).filter((name) => name.endsWith(".tmp"));
      expect(temps, log.at(-1)).toEqual([]);
      for (let i = 0; i < sourceCount; i += 97) {
        expect(readFileSync(join(ws.root, sourceName(i)), "utf8")).toBe(changed);
      }
    }
    // The aimed kills hit what they aimed at: a lock left behind, a restore cut half-way.
    expect(locksLeft).toBeGreaterThan(0);
    expect(restoresCut).toBeGreaterThan(0);
    console.log(
      `process-group crash test: ${kinds.length} kills, ${locksLeft} left a git lock, ${restoresCut} cut a restore half-way; ${log.join(" ")}`,
    );
  }, 900_000);
});

/** The checkpoint taken just before the last run changed every source file: restoring it rewrites them all. */
async function beforeChangeAll(
  lathe: (args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>,
  root: string,
): Promise<string> {
  const listed = await lathe(["checkpoints", "list", "--cwd", root, "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  const { checkpoints } = JSON.parse(listed.stdout) as { checkpoints: CheckpointRecord[] };
  const toolCalls = checkpoints.filter((checkpoint) => checkpoint.reason === "tool_call");
  return toolCalls.at(-1)!.id;
}
