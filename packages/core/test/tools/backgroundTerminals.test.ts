import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { processGoneWithin } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BackgroundTerminals } from "../../src/tools/terminals/backgroundTerminals.js";
import { OutputRing } from "../../src/tools/terminals/outputRing.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
let terminals: BackgroundTerminals;
beforeEach(() => {
  bed = createToolTestBed();
  terminals = new BackgroundTerminals({ killGraceMs: 300 });
});
afterEach(async () => {
  await terminals.killAll();
  bed.cleanup();
});

const tickingLoop = 'echo $$ > leader.pid; i=0; while true; do i=$((i+1)); echo "line $i"; sleep 0.05; done';

async function start(command: string): Promise<{ id: string; pid: number }> {
  const started = await terminals.start(command, bed.projectRoot);
  if (!started.ok) throw new Error(started.error.message);
  return started.terminal;
}

function lineNumbers(text: string): number[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("line "))
    .map((line) => Number(line.slice("line ".length)));
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await delay(10);
  }
}

function readPid(file: string): number {
  return Number.parseInt(readFileSync(path.join(bed.projectRoot, file), "utf8").trim(), 10);
}

describe("background terminals", () => {
  it("reads new output since the last read, then kills the whole process group", async () => {
    const { id, pid } = await start(`sleep 30 & echo $! > child.pid; ${tickingLoop}`);
    expect(id).toBe("t1");
    let firstText = "";
    await waitFor(() => {
      firstText += terminals.read(id, { sinceLast: true })?.stdout.text ?? "";
      return firstText.includes("line 3\n");
    });
    const firstLines = lineNumbers(firstText);
    expect(firstLines.slice(0, 3)).toEqual([1, 2, 3]);
    await delay(200);
    const second = terminals.read(id, { sinceLast: true });
    const secondLines = lineNumbers(second?.stdout.text ?? "");
    expect(secondLines.length).toBeGreaterThan(0);
    // Only what is new: the second read begins right after the last line of the first.
    expect(secondLines[0]).toBe(firstLines.at(-1)! + 1);
    expect(second?.status).toEqual({ state: "running" });

    const child = readPid("child.pid");
    const killed = await terminals.kill(id);
    expect(killed?.status).toEqual({ state: "killed", signal: "SIGTERM" });
    expect(await processGoneWithin(pid)).toBe(true);
    expect(await processGoneWithin(child)).toBe(true);
    // All of it stays readable after the kill.
    expect(lineNumbers(terminals.read(id, { sinceLast: false })?.stdout.text ?? "")[0]).toBe(1);
  });

  it("kills with SIGKILL what ignores SIGTERM", async () => {
    const { id } = await start(
      "bash -c 'trap \"\" TERM; echo $$ > stubborn.pid; while true; do sleep 0.05; done'; true",
    );
    await waitFor(() => {
      try {
        return readPid("stubborn.pid") > 0;
      } catch {
        return false;
      }
    });
    await terminals.kill(id);
    expect(await processGoneWithin(readPid("stubborn.pid"))).toBe(true);
    expect(terminals.get(id)?.status.state).toBe("killed");
  });

  it("reports the exit code of a command that ends on its own, and both streams", async () => {
    const { id } = await start("echo out; echo err >&2; exit 3");
    await terminals.waitForEnd(id, 5000);
    const output = terminals.read(id, { sinceLast: true });
    expect(output?.status).toEqual({ state: "exited", code: 3, signal: null });
    expect(output?.endedAt).toBeGreaterThanOrEqual(output?.startedAt ?? Number.POSITIVE_INFINITY);
    expect(output?.stdout.text).toBe("out\n");
    expect(output?.stderr.text).toBe("err\n");
    expect(terminals.read(id, { sinceLast: true })?.stdout.text).toBe("");
  });

  it("refuses more concurrent commands than the cap, and frees a slot when one ends", async () => {
    const capped = new BackgroundTerminals({ maxRunning: 2, killGraceMs: 300 });
    try {
      const one = await capped.start("sleep 30", bed.projectRoot);
      const two = await capped.start("sleep 30", bed.projectRoot);
      expect(one.ok && two.ok).toBe(true);
      const third = await capped.start("sleep 30", bed.projectRoot);
      expect(third.ok).toBe(false);
      if (third.ok) return;
      expect(third.error.code).toBe("E_TOOL_EXECUTION");
      expect(third.error.message).toContain("t1 (sleep 30), t2 (sleep 30)");
      expect(third.error.message).toContain("terminal_kill");
      await capped.kill("t1");
      expect((await capped.start("sleep 30", bed.projectRoot)).ok).toBe(true);
    } finally {
      await capped.killAll();
    }
  });

  it("killAll stops every command", async () => {
    const pids = [(await start("sleep 30")).pid, (await start(tickingLoop)).pid];
    await terminals.killAll();
    for (const pid of pids) expect(await processGoneWithin(pid)).toBe(true);
    expect(terminals.list().map((terminal) => terminal.status.state)).toEqual(["killed", "killed"]);
  });

  it("keeps the newest bytes of a stream and says how many a late reader missed", async () => {
    const small = new BackgroundTerminals({ maxStreamBytes: 1000 });
    try {
      const started = await small.start("seq 1 1000", bed.projectRoot);
      if (!started.ok) throw new Error(started.error.message);
      await small.waitForEnd(started.terminal.id, 5000);
      const output = small.read(started.terminal.id, { sinceLast: true });
      const total = Array.from({ length: 1000 }, (_, i) => `${i + 1}\n`).join("").length;
      expect(output?.stdout.droppedBytes).toBe(total - 1000);
      expect(output?.stdout.text.endsWith("999\n1000\n")).toBe(true);
      expect(Buffer.byteLength(output?.stdout.text ?? "")).toBe(1000);
    } finally {
      await small.killAll();
    }
  });
});

describe("OutputRing", () => {
  it("never cuts a character in two, whether split by a pipe read or by the cap", () => {
    const ring = new OutputRing(5);
    const bytes = Buffer.from("aé€", "utf8");
    ring.push(bytes.subarray(0, 2));
    expect(ring.read(0).text).toBe("a");
    ring.push(bytes.subarray(2));
    // "aé€" is 6 bytes; dropping one leaves "é€" (5 bytes), which starts on a character.
    expect(ring.read(0)).toEqual({ text: "é€", droppedBytes: 1, nextOffset: 6 });
    ring.push(Buffer.from("x"));
    // Keeping 5 bytes would start inside "é": the cut moves to the next character.
    expect(ring.read(0)).toEqual({ text: "€x", droppedBytes: 3, nextOffset: 7 });
    expect(ring.read(6)).toEqual({ text: "x", droppedBytes: 0, nextOffset: 7 });
  });
});
