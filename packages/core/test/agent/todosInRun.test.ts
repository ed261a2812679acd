import type { EventOf, LatheEvent } from "@lathe/protocol";
import { type FakeTurn, type ScriptedSession, startScriptedSession } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

let scripted: ScriptedSession | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

const plan = (statuses: string[]) => ({
  name: "todo_write",
  arguments: {
    todos: statuses.map((status, index) => ({ id: String(index + 1), content: `Step ${index + 1}`, status })),
  },
});

const todoEvents = (events: LatheEvent[]) =>
  events.filter((event): event is EventOf<"todos"> => event.type === "todos");

describe("todos in a run", () => {
  it("nudges a model that stops with most of its plan open, once", async () => {
    const turns: FakeTurn[] = [
      { tool_calls: [plan(["in_progress", "pending", "pending", "pending", "pending"])] },
      { text: "I think that is enough." },
      { text: "Still stopping here." },
    ];
    scripted = await startScriptedSession(turns);
    const result = await scripted.session.send("Do the five steps.");
    expect(result.status).toBe("completed");
    const second = JSON.stringify(scripted.server.requests[2]!.body);
    expect(second).toContain("You stopped with 5 of 5 todos still open and 0 done.");
    expect(scripted.server.requests).toHaveLength(3);
    const notices = scripted.events.filter((event) => event.type === "notice").map((event) => event.message);
    expect(notices).toEqual(["The run ended with 5 todos still open."]);
  });

  it("cancels open todos when the run is cancelled", async () => {
    scripted = await startScriptedSession([
      { tool_calls: [plan(["completed", "in_progress", "pending"])] },
      { text: "never", hang_ms: 10_000 },
    ]);
    const { session, events } = scripted;
    const stop = session.subscribe((event) => {
      if (event.type === "todos") setTimeout(() => session.cancel(), 50);
    });
    const result = await session.send("Start the plan.");
    stop();
    expect(result.status).toBe("cancelled");
    const last = todoEvents(events).at(-1)!;
    expect(last.todos.map((todo) => todo.status)).toEqual(["completed", "cancelled", "cancelled"]);
    expect([last.completed, last.live, last.cancelled]).toEqual([1, 1, 2]);
    expect(session.todos.current().map((todo) => todo.status)).toEqual([
      "completed",
      "cancelled",
      "cancelled",
    ]);
  });
});
