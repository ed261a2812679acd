import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EventDraft } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionCheckpoints } from "../../src/agent/sessionCheckpoints.js";
import { SessionStorage } from "../../src/agent/sessionStorage.js";
import { type CheckpointTestBed, createCheckpointTestBed } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

/** Takes one checkpoint through a session's checkpoints, with no store, and returns what it emitted. */
async function takeCheckpoint(checkpoints: SessionCheckpoints): Promise<EventDraft[]> {
  const events: EventDraft[] = [];
  await checkpoints.take((event) => events.push(event), "tool_call", { messageId: "m1", callId: "c1" });
  return events;
}

describe("a session's checkpoints", () => {
  it("tells the user when a snapshot fails, with the checkpoint code, and goes on", async () => {
    const repository = await bed.open({ lockWaitMs: 100 });
    const lock = { pid: process.pid, startTicks: startTicks(process.pid), token: "held-by-this-test" };
    writeFileSync(path.join(repository.gitDir, "lathe-operation.lock"), JSON.stringify(lock));
    const storage = new SessionStorage(undefined, () => undefined);

    const events = await takeCheckpoint(new SessionCheckpoints("s1", repository, storage));

    expect(events).toEqual([
      {
        type: "notice",
        level: "error",
        code: "E_CHECKPOINT",
        message: `No checkpoint was taken (before a tool call), so what follows cannot be undone with a restore: The checkpoint repository ${repository.gitDir} is locked by process ${process.pid}; waited 100 ms. Try again when it has finished.`,
      },
    ]);
  });

  it("tells the user, as information, about a stale lock it cleared before the checkpoint", async () => {
    bed.write("a.txt", "a\n");
    const repository = await bed.open();
    writeFileSync(path.join(repository.gitDir, "index.lock"), "");
    const storage = new SessionStorage(undefined, () => undefined);

    const events = await takeCheckpoint(new SessionCheckpoints("s1", repository, storage));

    expect(events).toEqual([
      {
        type: "notice",
        level: "info",
        message: "Removed git lock files left by an interrupted checkpoint operation: index.lock",
      },
      {
        type: "checkpoint",
        checkpointId: expect.any(String),
        sessionId: "s1",
        reason: "tool_call",
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        messageId: "m1",
        callId: "c1",
      },
    ]);
  });
});
