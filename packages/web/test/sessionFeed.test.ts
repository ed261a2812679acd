import type { LatheEvent, LiveSessionDetail, Message, PendingApproval, ServerMessage } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { createSessionFeed, type StoredSession } from "../src/state/sessionFeed.js";
import type { SessionView } from "../src/state/sessionView.js";

let seq = 0;
const ev = (event: Record<string, unknown>, at = 2000): LatheEvent =>
  ({ sessionId: "s1", runId: "r2", seq: seq++, at, ...event }) as LatheEvent;

const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 };

function detail(messages: Message[], pendingApprovals: PendingApproval[] = []): LiveSessionDetail {
  return {
    id: "s1",
    projectRoot: "/p",
    state: "idle",
    mode: "agent",
    lastSeq: -1,
    streamId: "stream-1",
    messages,
    todos: [],
    usage,
    pendingApprovals,
    pendingQuestions: [],
  };
}

const userMessage = (id: string, text: string, createdAt: number): Message => ({
  id,
  sessionId: "s1",
  role: "user",
  parts: [{ type: "text", text }],
  createdAt,
});

const approval = (approvalId: string): PendingApproval => ({
  approvalId,
  callId: "t1",
  name: "edit_file",
  arguments: {},
  risk: "medium",
  reason: "edits a file",
  requestedAt: 1,
});

const hello: ServerMessage = { type: "hello", sessionId: "s1", streamId: "stream-1", lastSeq: -1 };
const pendingInput = (approvals: PendingApproval[] = []): ServerMessage => ({
  type: "pending_input",
  approvals,
  questions: [],
});

/** A feed whose load and frames the test releases by hand. */
function harness(quietUntilLoaded = false) {
  const loads: Array<{ resolve(stored: StoredSession): void; reject(error: Error): void }> = [];
  const frames: Array<() => void> = [];
  const shown: SessionView[] = [];
  const failures: Array<string | undefined> = [];
  const feed = createSessionFeed({
    sessionId: "s1",
    load: () => new Promise((resolve, reject) => loads.push({ resolve, reject })),
    show: (view) => shown.push(view),
    report: (failure) => failures.push(failure),
    nextFrame: (apply) => {
      frames.push(apply);
      return () => frames.splice(frames.indexOf(apply), 1);
    },
    quietUntilLoaded,
  });
  const runFrames = () => {
    for (const frame of frames.splice(0)) frame();
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const view = () => shown.at(-1)!;
  const userTexts = () => view().items.flatMap((item) => (item.kind === "user" ? [item.text] : []));
  return { feed, loads, frames, shown, failures, runFrames, settle, view, userTexts };
}

describe("the session feed", () => {
  it("keeps events that arrive while the stored history loads, and shows each user message once", async () => {
    seq = 0;
    const h = harness();
    h.feed.receive(hello);
    h.feed.receive(pendingInput());
    expect(h.loads).toHaveLength(1);
    // The first run starts before the history is in: its events must not be applied and then lost.
    h.feed.receive(ev({ type: "run_start", mode: "agent", model: "openai:gpt-4.1", prompt: "Make it two" }));
    h.feed.receive(
      ev({ type: "checkpoint", checkpointId: "c1", reason: "user_message", messageId: "m1", commit: "a" }),
    );
    h.runFrames();
    expect(h.frames).toEqual([]);
    expect(h.userTexts()).toEqual([]);
    // The load read the run's user message too (stored after run_start): it is not shown twice.
    h.loads[0]!.resolve({
      detail: detail([userMessage("m0", "Earlier", 1000), userMessage("m1", "Make it two", 2001)]),
      checkpoints: [],
    });
    await h.settle();
    expect(h.userTexts()).toEqual(["Earlier", "Make it two"]);
    expect(h.view().items.at(-1)).toMatchObject({ kind: "user", checkpointId: "c1", messageId: "m1" });
    expect(h.feed.resumeFrom()).toEqual({ since: 1, streamId: "stream-1" });

    // Live: events wait for the next frame, then apply in one batch.
    h.feed.receive(
      ev({ type: "run_start", mode: "agent", model: "openai:gpt-4.1", prompt: "Make it three" }),
    );
    h.feed.receive(
      ev({ type: "checkpoint", checkpointId: "c2", reason: "user_message", messageId: "m2", commit: "b" }),
    );
    expect(h.userTexts()).toEqual(["Earlier", "Make it two"]);
    expect(h.frames).toHaveLength(1);
    h.runFrames();
    expect(h.userTexts()).toEqual(["Earlier", "Make it two", "Make it three"]);
    expect(h.view().items.at(-1)).toMatchObject({ checkpointId: "c2", messageId: "m2" });
    expect(h.failures).toEqual([undefined]);
  });

  it("takes the approvals of a pending_input that came while loading over the older ones the load read", async () => {
    const h = harness();
    h.feed.receive(hello);
    h.feed.receive(pendingInput());
    h.feed.receive(pendingInput([approval("p2")]));
    h.loads[0]!.resolve({ detail: detail([], [approval("p1")]), checkpoints: [] });
    await h.settle();
    expect(h.view().approvals.map((pending) => pending.approvalId)).toEqual(["p2"]);
  });

  it("starts over when the socket reconnects before the history is in, so the replay is not doubled", async () => {
    seq = 0;
    const h = harness();
    const start = ev({ type: "run_start", mode: "agent", model: "openai:gpt-4.1", prompt: "Go" });
    h.feed.receive(hello);
    h.feed.receive(start);
    h.feed.receive(pendingInput());
    expect(h.feed.resumeFrom()).toEqual({ since: -1 });
    // The connection drops and the whole buffer is replayed again.
    h.feed.receive(hello);
    h.feed.receive(start);
    h.feed.receive(pendingInput());
    h.loads[0]!.resolve({ detail: detail([]), checkpoints: [] });
    await h.settle();
    expect(h.userTexts()).toEqual([]);
    h.loads[1]!.resolve({ detail: detail([]), checkpoints: [] });
    await h.settle();
    expect(h.userTexts()).toEqual(["Go"]);
  });

  it("shows the stream alone with the failure when the history cannot be loaded", async () => {
    seq = 0;
    const h = harness();
    h.feed.receive(hello);
    h.feed.receive(pendingInput());
    h.feed.receive(ev({ type: "run_start", mode: "agent", model: "openai:gpt-4.1", prompt: "Go" }));
    h.loads[0]!.reject(new Error("E_NOT_FOUND: no such session"));
    await h.settle();
    h.runFrames();
    expect(h.failures).toEqual(["E_NOT_FOUND: no such session"]);
    expect(h.userTexts()).toEqual(["Go"]);
  });

  it("opened again over the session's own view, shows nothing until the history is in", async () => {
    seq = 0;
    const h = harness(true);
    h.feed.receive(hello);
    h.feed.receive(pendingInput());
    h.feed.receive(ev({ type: "run_start", mode: "plan", model: "openai:gpt-4.1", prompt: "Go on" }, 3000));
    expect(h.shown).toEqual([]);
    h.loads[0]!.resolve({ detail: detail([userMessage("m0", "Earlier", 1000)]), checkpoints: [] });
    await h.settle();
    expect(h.shown).toHaveLength(1);
    expect(h.userTexts()).toEqual(["Earlier", "Go on"]);
    expect(h.view().status.mode).toBe("plan");
  });

  it("shows nothing more once closed", async () => {
    const h = harness();
    h.feed.receive(hello);
    h.feed.receive(pendingInput());
    const before = h.view();
    h.feed.close();
    h.loads[0]!.resolve({ detail: detail([userMessage("m0", "Earlier", 1000)]), checkpoints: [] });
    await h.settle();
    expect(h.view()).toBe(before);
  });
});
