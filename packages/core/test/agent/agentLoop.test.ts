import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { lookupModel, type RunResult } from "@lathe/core";
import {
  type FakeLlm,
  type FakeTurn,
  processGoneWithin,
  type ScriptedSessionOptions,
  startScriptedSession,
} from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const wireProtocols = [
  { modelId: "openai:gpt-4.1" },
  { modelId: "anthropic:claude-sonnet-4-5" },
  { modelId: "google:gemini-2.5-pro" },
] as const;

async function sessionFor(turns: FakeTurn[], options: ScriptedSessionOptions = {}) {
  const scripted = await startScriptedSession(turns, {
    retry: { firstByteTimeoutMs: 2000, serverErrorDelaysMs: [10, 10, 10] },
    ...options,
  });
  server = scripted.server;
  return { session: scripted.session, events: scripted.events, root: scripted.projectRoot };
}

/** Settles once the session starts running a tool. */
function toolExecuting(session: { subscribe(listener: (event: { type: string }) => void): () => void }) {
  return new Promise<void>((resolve) => {
    const off = session.subscribe((event) => {
      if (event.type === "tool_executing") {
        off();
        resolve();
      }
    });
  });
}

describe("the agent loop", () => {
  it.each(wireProtocols)("does a read-then-write task over $modelId", async ({ modelId }) => {
    const { session, events, root } = await sessionFor(
      [
        { tool_calls: [{ name: "read_file", arguments: { path: "note.txt" } }] },
        { tool_calls: [{ name: "write_file", arguments: { path: "note.txt", contents: "new text\n" } }] },
        { text: "Updated note.txt." },
      ],
      { modelId, files: { "note.txt": "old text\n" } },
    );
    const result = await session.send("update note.txt");
    expect(result).toMatchObject({ status: "completed", iterations: 3, final: "Updated note.txt." });
    expect(readFileSync(join(root, "note.txt"), "utf8")).toBe("new text\n");
    expect(session.runState).toBe("idle");
    const kinds = events
      .filter((e) => e.type.startsWith("tool_") && e.type !== "tool_call_state")
      .map((e) => `${e.type}:${"name" in e ? e.name : ""}`);
    expect(kinds).toEqual([
      "tool_call_start:read_file",
      ...kinds.filter((k) => k === "tool_call_delta:read_file"),
      "tool_call_ready:read_file",
      "tool_executing:read_file",
      "tool_completed:read_file",
      "tool_call_start:write_file",
      ...kinds.filter((k) => k === "tool_call_delta:write_file"),
      "tool_call_ready:write_file",
      "tool_executing:write_file",
      "tool_completed:write_file",
    ]);
    expect(server!.turnsServed()).toBe(3);
  });

  it("emits every state transition and returns to idle, and a second message works", async () => {
    const { session, events } = await sessionFor([{ text: "first answer" }, { text: "second answer" }]);
    await session.send("one");
    const states = events
      .filter((e) => e.type === "state_change")
      .map((e) => (e.type === "state_change" ? e.to : ""));
    expect(states).toEqual(["streaming", "completed", "idle"]);
    const order = events.map((e) => e.type).filter((t) => t !== "text_delta");
    expect(order).toEqual([
      "run_start",
      "turn_start",
      "state_change",
      "usage",
      "turn_end",
      "state_change",
      "run_complete",
      "state_change",
    ]);
    expect(
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e.type === "text_delta" ? e.delta : ""))
        .join(""),
    ).toBe("first answer");
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    // The run says how large the context may grow before the history is compacted.
    const start = events[0]!;
    const window = start.type === "run_start" ? lookupModel(start.model).contextWindow : 0;
    expect(start).toMatchObject({
      type: "run_start",
      context: { window, compactAt: Math.floor(0.8 * window) },
    });
    const second = await session.send("two");
    expect(second.final).toBe("second answer");
    expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("AC-10: cancel mid-stream aborts the stream, returns to idle, and the next message works", async () => {
    const longText = "word ".repeat(200);
    const { session, events } = await sessionFor([
      { text: longText, chunk_delay_ms: 20 },
      { text: "still here" },
    ]);
    const firstDelta = new Promise<void>((resolve) => {
      const off = session.subscribe((event) => {
        if (event.type === "text_delta") {
          off();
          resolve();
        }
      });
    });
    const running = session.send("write a lot");
    await firstDelta;
    session.cancel();
    const result: RunResult = await running;
    expect(result.status).toBe("cancelled");
    expect(result.final.length).toBeLessThan(longText.length);
    expect(session.runState).toBe("idle");
    const last = events.filter((e) => e.type === "state_change").slice(-2);
    expect(last.map((e) => (e.type === "state_change" ? e.to : ""))).toEqual(["cancelled", "idle"]);
    const next = await session.send("are you there?");
    expect(next).toMatchObject({ status: "completed", final: "still here" });
  });

  // @ai-sdk/openai replaces a repeated or missing wire id with its own; @ai-sdk/deepseek passes a
  // repeated one through, so the loop itself sees two calls with one provider id.
  it.each([
    {
      modelId: "deepseek:deepseek-chat",
      id: "call_same" as string | null,
      case: "reuses one id",
      seen: true,
    },
    { modelId: "openai:gpt-4.1", id: "call_same" as string | null, case: "reuses one id", seen: false },
    { modelId: "openai:gpt-4.1", id: null, case: "omits ids", seen: false },
  ])("matches results to calls when $modelId $case", async ({ modelId, id, seen }) => {
    const { session } = await sessionFor(
      [
        {
          tool_calls: [
            { name: "read_file", arguments: { path: "a.txt" }, id },
            { name: "read_file", arguments: { path: "b.txt" }, id },
          ],
        },
        { text: "ok" },
      ],
      { modelId, files: { "a.txt": "alpha\n", "b.txt": "beta\n" } },
    );
    await session.send("read both");
    const parts = session.messages.flatMap((m) => m.parts);
    const calls = parts.filter((p) => p.type === "tool_call");
    const results = parts.filter((p) => p.type === "tool_result");
    if (seen) expect(calls.map((c) => c.providerCallId)).toEqual(["call_same", "call_same"]);
    expect(new Set(calls.map((c) => c.callId)).size).toBe(2);
    expect(results.map((r) => r.callId)).toEqual(calls.map((c) => c.callId));
    expect(results.map((r) => r.output.match(/\|(\w+)/)?.[1])).toEqual(["alpha", "beta"]);
    const sent = (
      server!.requests[1]!.body as {
        messages: { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[];
      }
    ).messages;
    const sentCallIds = sent.find((m) => m.role === "assistant")!.tool_calls!.map((c) => c.id);
    // On the wire: short ids of our own, one per call, whatever the provider sent.
    expect(sentCallIds).toEqual(["call_1", "call_2"]);
    expect(sent.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(sentCallIds);
  });

  it("matches results to calls when the provider sends no ids (Gemini)", async () => {
    const { session } = await sessionFor(
      [
        {
          tool_calls: [
            { name: "read_file", arguments: { path: "a.txt" } },
            { name: "read_file", arguments: { path: "b.txt" } },
          ],
        },
        { text: "ok" },
      ],
      {
        modelId: "google:gemini-2.5-pro",
        files: { "a.txt": "alpha\n", "b.txt": "beta\n" },
      },
    );
    await session.send("read both");
    const results = session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result");
    expect(results.map((r) => (r.type === "tool_result" ? r.output.match(/\|(\w+)/)?.[1] : ""))).toEqual([
      "alpha",
      "beta",
    ]);
    const contents = (
      server!.requests[1]!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] }
    ).contents;
    const responses = contents.flatMap((c) => c.parts).filter((p) => "functionResponse" in p);
    expect(responses).toHaveLength(2);
  });

  it("delivers a message sent during a run after the current tool round", async () => {
    const { session, events } = await sessionFor(
      [
        { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "sleep 0.3; echo slept" } }] },
        { text: "done, and I saw your note" },
      ],
      { approvalMode: "yolo" },
    );
    const first = session.send("sleep a little");
    await toolExecuting(session);
    const queued = session.send("also: be brief");
    const [a, b] = await Promise.all([first, queued]);
    expect(a.runId).toBe(b.runId);
    // Announced when queued, and again when it joins the run: after the tool round, before the turn.
    const sequence = events
      .filter((e) => ["message_queued", "tool_completed", "message_delivered", "turn_start"].includes(e.type))
      .map((e) => e.type);
    expect(sequence).toEqual([
      "turn_start",
      "message_queued",
      "tool_completed",
      "message_delivered",
      "turn_start",
    ]);
    const delivered = events.find((e) => e.type === "message_delivered");
    const stored = session.messages.at(-2)!;
    expect(delivered).toMatchObject({ text: "also: be brief", messageId: stored.id, runId: a.runId });
    expect(stored.parts).toEqual([{ type: "text", text: "also: be brief" }]);
    const sent = (server!.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(sent.at(-1)).toMatchObject({ role: "user" });
    expect(JSON.stringify(sent.at(-1)!.content)).toContain("also: be brief");
  });

  it("drops the queued messages of a cancelled run, and says so", async () => {
    const { session, events } = await sessionFor(
      [{ tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "sleep 30" } }] }, { text: "next" }],
      { approvalMode: "yolo" },
    );
    const executing = toolExecuting(session);
    const running = session.send("sleep");
    await executing;
    const queued = session.send("then this");
    session.cancel();
    const [result, queuedResult] = await Promise.all([running, queued]);
    expect(result.status).toBe("cancelled");
    expect(queuedResult.runId).toBe(result.runId);
    const tail = events.filter((e) => ["message_queued", "run_complete", "message_dropped"].includes(e.type));
    expect(tail.map((e) => [e.type, "text" in e ? e.text : undefined])).toEqual([
      ["message_queued", "then this"],
      ["run_complete", undefined],
      ["message_dropped", "then this"],
    ]);
    expect(events.some((e) => e.type === "message_delivered")).toBe(false);
    expect(session.messages.some((m) => JSON.stringify(m.parts).includes("then this"))).toBe(false);
  });

  it("cancel during a command kills its process group and keeps the history valid", async () => {
    const { session, root } = await sessionFor(
      [
        {
          tool_calls: [
            { name: "run_terminal_cmd", arguments: { command: "sleep 30 & echo $! > pid.txt; wait" } },
          ],
        },
        { text: "next" },
      ],
      { approvalMode: "yolo" },
    );
    const executing = toolExecuting(session);
    const running = session.send("sleep");
    await executing;
    const pidFile = join(root, "pid.txt");
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") await delay(20);
    session.cancel();
    const result = await running;
    expect(result.status).toBe("cancelled");
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(await processGoneWithin(pid)).toBe(true);
    const results = session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result");
    expect(results.map((r) => (r.type === "tool_result" ? r.status : ""))).toEqual(["cancelled"]);
    expect((await session.send("go on")).final).toBe("next");
  });
});
