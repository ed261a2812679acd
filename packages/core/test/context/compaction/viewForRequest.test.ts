import { describe, expect, it } from "vitest";
import { emptyCompactionState, viewForRequest } from "../../../src/context/compaction/viewForRequest.js";
import { HistoryBuilder } from "./historyBuilder.js";

describe("viewForRequest", () => {
  it("sends the history as it is when nothing was compacted", () => {
    const h = new HistoryBuilder().user("hi").toolRound("read_file", { path: "a.ts" }, "x").assistant("done");
    const view = viewForRequest(h.messages, emptyCompactionState());
    expect(view).toHaveLength(4);
    for (const [i, message] of view.entries()) expect(message).toBe(h.messages[i]);
  });

  it("shows pruned outputs as a one-line note and leaves the stored history alone", () => {
    const h = new HistoryBuilder()
      .user("look at a.ts")
      .toolRound(
        "read_file",
        { path: "src/a.ts", offset: 10 },
        "export const a = 1;\n".repeat(200),
        "Reading.",
      )
      .toolRound("grep", { pattern: "TODO" }, "src/b.ts:3: TODO");
    const view = viewForRequest(h.messages, { pruned: new Map([["c1", 2345]]) });
    const pruned = view[2]!;
    expect(pruned).not.toBe(h.messages[2]);
    expect(pruned.id).toBe("m3");
    expect(pruned.parts).toEqual([
      {
        type: "tool_result",
        callId: "c1",
        providerCallId: "p1",
        name: "read_file",
        status: "success",
        output:
          "[output of read_file src/a.ts cut to save context (2,345 tokens); call the tool again if you need it]",
      },
    ]);
    const stored = h.messages[2]!.parts[0]!;
    expect(stored.type === "tool_result" && stored.output.length).toBe(4000);
    for (const i of [0, 1, 3, 4]) expect(view[i]).toBe(h.messages[i]);
    // The note is the same part object at every request, so its token count stays cached.
    expect(viewForRequest(h.messages, { pruned: new Map([["c1", 2345]]) })[2]!.parts[0]).toBe(
      pruned.parts[0],
    );
  });

  it("describes calls without a path by their main argument or their arguments", () => {
    const h = new HistoryBuilder()
      .toolRound("run_terminal_cmd", { command: "npm test" }, "ok")
      .toolRound("todo_write", { todos: [{ id: 1 }] }, "ok")
      .toolRound("list_dir", {}, "ok");
    const view = viewForRequest(h.messages, {
      pruned: new Map([
        ["c1", 1],
        ["c2", 1500],
        ["c3", 100],
      ]),
    });
    const outputs = view.flatMap((m) => m.parts.flatMap((p) => (p.type === "tool_result" ? [p.output] : [])));
    expect(outputs).toEqual([
      "[output of run_terminal_cmd npm test cut to save context (1 tokens); call the tool again if you need it]",
      '[output of todo_write {"todos":[{"id":1}]} cut to save context (1,500 tokens); call the tool again if you need it]',
      "[output of list_dir cut to save context (100 tokens); call the tool again if you need it]",
    ]);
  });

  it("puts the latest summary first, in place of everything through its mark", () => {
    const h = new HistoryBuilder()
      .user("task") // m1
      .toolRound("read_file", { path: "a.ts" }, "a") // m2, m3
      .user("more") // m4
      .assistant("ok"); // m5
    h.summary("S1", "m3"); // m6
    h.user("after"); // m7
    const view = viewForRequest(h.messages, emptyCompactionState());
    expect(view.map((m) => m.id)).toEqual(["m6", "m4", "m5", "m7"]);
  });

  it("leaves out summaries the latest one superseded, wherever they were stored", () => {
    const h = new HistoryBuilder()
      .user("task") // m1
      .assistant("a") // m2
      .user("b") // m3
      .assistant("c"); // m4
    h.summary("S1", "m2"); // m5: view was m5, m3, m4
    h.user("d"); // m6
    // The second compaction summarized S1 and m3 only: its mark lies before S1's place.
    h.summary("S2", "m3"); // m7
    h.assistant("e"); // m8
    const view = viewForRequest(h.messages, emptyCompactionState());
    expect(view.map((m) => m.id)).toEqual(["m7", "m4", "m6", "m8"]);
  });

  it("ignores a summary whose mark is not in the history", () => {
    const h = new HistoryBuilder().user("task").assistant("a");
    h.summary("lost", "m99");
    h.user("b");
    expect(viewForRequest(h.messages, emptyCompactionState()).map((m) => m.id)).toEqual(["m1", "m2", "m4"]);
  });
});
