import type { ApprovalRequest } from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";
import {
  type FakeLlm,
  type FakeTurn,
  type ScriptedSessionOptions,
  startScriptedSession,
} from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function scripted(turns: FakeTurn[], options: ScriptedSessionOptions = {}) {
  const s = await startScriptedSession(turns, options);
  server = s.server;
  return s;
}

function statesOf(events: LatheEvent[]): Record<string, string[]> {
  const byCall: Record<string, string[]> = {};
  for (const event of events) {
    if (event.type !== "tool_call_state") continue;
    const key = `${event.name}#${event.callId.slice(-4)}`;
    byCall[key] = [...(byCall[key] ?? []), event.state];
  }
  return byCall;
}

function toolResults(s: Awaited<ReturnType<typeof scripted>>) {
  return s.session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result");
}

describe("the tool scheduler", () => {
  it("walks each call through validating → scheduled → executing → success", async () => {
    const s = await scripted(
      [{ tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] }, { text: "ok" }],
      { files: { "a.txt": "a\n" } },
    );
    await s.session.send("read");
    expect(Object.values(statesOf(s.events))).toEqual([["validating", "scheduled", "executing", "success"]]);
  });

  it("asks for approval, runs an accepted call and reports a rejected one to the model", async () => {
    const asked: ApprovalRequest[] = [];
    const s = await scripted(
      [
        {
          tool_calls: [
            { name: "write_file", arguments: { path: "yes.txt", contents: "yes\n" } },
            { name: "write_file", arguments: { path: "no.txt", contents: "no\n" } },
          ],
        },
        { text: "one written" },
      ],
      {
        approvalMode: "ask_first",
        requestApproval: async (request) => {
          asked.push(request);
          const path = (request.arguments as { path: string }).path;
          return path === "yes.txt"
            ? { decision: "accept" }
            : { decision: "reject", message: "not that one" };
        },
      },
    );
    await s.session.send("write two files");
    expect(asked.map((r) => [r.name, r.risk])).toEqual([
      ["write_file", "medium"],
      ["write_file", "medium"],
    ]);
    expect(Object.values(statesOf(s.events))).toEqual([
      ["validating", "awaiting_approval", "scheduled", "executing", "success"],
      ["validating", "awaiting_approval", "rejected"],
    ]);
    const results = toolResults(s);
    expect(results.map((r) => r.status)).toEqual(["success", "rejected"]);
    expect(results[1]!.output).toBe(
      "Error E_USER_REJECTED: not that one\nHint: The user declined; change course and do not repeat this call.",
    );
    const runStates = s.events.flatMap((e) => (e.type === "state_change" ? [e.to] : []));
    expect(runStates).toEqual([
      "streaming",
      "tool_pending",
      "awaiting_approval",
      "tool_executing",
      "awaiting_approval",
      "tool_results",
      "streaming",
      "completed",
      "idle",
    ]);
  });

  it("suggests the right name for an unknown tool", async () => {
    const s = await scripted([
      { tool_calls: [{ name: "reed_file", arguments: { path: "a" } }] },
      { text: "ok" },
    ]);
    await s.session.send("read");
    const [result] = toolResults(s);
    expect(result!.error?.code).toBe("E_TOOL_NOT_FOUND");
    expect(result!.output).toContain('Unknown tool "reed_file". Did you mean: read_file?');
  });

  it("tells the model to stop using a tool after three invalid calls in a row", async () => {
    const bad = { tool_calls: [{ name: "read_file", arguments: { offset: -1 } }] };
    const s = await scripted([bad, bad, bad, { text: "giving up on read_file" }]);
    await s.session.send("read");
    const outputs = toolResults(s).map((r) => r.output);
    expect(outputs.map((o) => o.startsWith("Error E_INVALID_ARGS"))).toEqual([true, true, true]);
    expect(outputs.map((o) => o.includes("Stop using read_file"))).toEqual([false, false, true]);
  });

  it("E18: runs the three reads of one batch together and returns them in call order", async () => {
    const s = await scripted(
      [
        {
          tool_calls: ["one", "two", "three"].map((name) => ({
            name: "read_file",
            arguments: { path: `${name}.txt` },
          })),
        },
        { text: "ok" },
      ],
      { files: { "one.txt": "1\n", "two.txt": "2\n", "three.txt": "3\n" } },
    );
    await s.session.send("read three");
    const lifecycle = s.events.flatMap((e) =>
      e.type === "tool_executing" || e.type === "tool_completed" ? [e.type] : [],
    );
    // All three start before any finishes: they overlap instead of queueing.
    expect(lifecycle).toEqual([
      "tool_executing",
      "tool_executing",
      "tool_executing",
      "tool_completed",
      "tool_completed",
      "tool_completed",
    ]);
    expect(toolResults(s).map((r) => r.output.match(/\|(\d)/)?.[1])).toEqual(["1", "2", "3"]);
  });

  it("runs mutating calls one at a time in call order", async () => {
    const sleepy = (n: number) => ({
      name: "run_terminal_cmd",
      arguments: { command: `sleep 0.${n}; echo ${n}` },
    });
    const s = await scripted([{ tool_calls: [sleepy(3), sleepy(1), sleepy(2)] }, { text: "ok" }], {
      approvalMode: "yolo",
    });
    await s.session.send("run three");
    const lifecycle = s.events.flatMap((e) =>
      e.type === "tool_executing" || e.type === "tool_completed" ? [e.type] : [],
    );
    expect(lifecycle).toEqual([
      "tool_executing",
      "tool_completed",
      "tool_executing",
      "tool_completed",
      "tool_executing",
      "tool_completed",
    ]);
    expect(toolResults(s).map((r) => r.output.match(/^(\d)$/m)?.[1])).toEqual(["3", "1", "2"]);
  });

  it("reports a command's exit status beside its success, on the event and in the stored result", async () => {
    const s = await scripted(
      [
        {
          tool_calls: [
            { name: "run_terminal_cmd", arguments: { command: "echo fine" } },
            { name: "run_terminal_cmd", arguments: { command: "echo broken >&2; exit 3" } },
            { name: "read_file", arguments: { path: "a.txt" } },
          ],
        },
        { text: "ok" },
      ],
      { approvalMode: "yolo", files: { "a.txt": "a\n" } },
    );
    await s.session.send("check");
    const completed = s.events.flatMap((e) =>
      e.type === "tool_completed" ? [`${e.name} ${e.exitCode}`] : [],
    );
    expect(completed.sort()).toEqual(["read_file undefined", "run_terminal_cmd 0", "run_terminal_cmd 3"]);
    expect(toolResults(s).map((r) => [r.status, r.exitCode])).toEqual([
      ["success", 0],
      ["success", 3],
      ["success", undefined],
    ]);
  });
});
