import { describe, expect, it } from "vitest";
import { type GuardedTodo, stopGuard } from "../../src/planning/stopGuard.js";

const todos = (...statuses: GuardedTodo["status"][]): GuardedTodo[] => statuses.map((status) => ({ status }));

describe("stopGuard", () => {
  it("nudges once when more than 3 todos are open and fewer than half are done", () => {
    const list = todos("completed", "pending", "pending", "in_progress", "pending");
    expect(stopGuard({ todos: list, alreadyNudged: false })).toBe(
      "You stopped with 4 of 5 todos still open and 1 done.\nContinue with the next open todo. If some are no longer needed, mark them cancelled with todo_write and say why; if you are blocked, tell the user what you need.",
    );
    expect(stopGuard({ todos: list, alreadyNudged: true })).toBeUndefined();
  });

  it("lets the model stop with 3 or fewer open todos", () => {
    expect(
      stopGuard({ todos: todos("pending", "pending", "pending"), alreadyNudged: false }),
    ).toBeUndefined();
  });

  it("lets the model stop when at least half of the live todos are done", () => {
    const list = todos(
      "completed",
      "completed",
      "completed",
      "completed",
      "pending",
      "pending",
      "pending",
      "pending",
    );
    expect(stopGuard({ todos: list, alreadyNudged: false })).toBeUndefined();
  });

  it("leaves cancelled todos out of the count", () => {
    // 4 open, 3 done, 5 cancelled: 3 of 7 live is under half.
    const list = todos("pending", "pending", "pending", "pending", "completed", "completed", "completed");
    list.push(...todos("cancelled", "cancelled", "cancelled", "cancelled", "cancelled"));
    expect(stopGuard({ todos: list, alreadyNudged: false })).toContain("4 of 7 todos still open and 3 done");
  });

  it("names up to five open todos", () => {
    const list: GuardedTodo[] = ["a", "b", "c", "d", "e", "f"].map((content) => ({
      status: "pending",
      content,
    }));
    expect(stopGuard({ todos: list, alreadyNudged: false })).toContain(
      "Still open:\n- a\n- b\n- c\n- d\n- e\nContinue",
    );
  });
});
