import type { TodoItem } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { SessionTodoList, todoProgress } from "../../src/planning/todoList.js";

const plan: TodoItem[] = [
  { id: "1", content: "Read the failing test", status: "completed" },
  { id: "2", content: "Fix the parser", status: "in_progress" },
  { id: "3", content: "Run the tests", status: "pending" },
];

function listOf(initial: TodoItem[] = plan): SessionTodoList {
  return new SessionTodoList({ initial });
}

function errorOf(outcome: ReturnType<SessionTodoList["write"]>) {
  if (outcome.ok) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.todos)}`);
  return outcome.error;
}

describe("SessionTodoList.write", () => {
  it("replaces the whole list when merge is false", () => {
    const list = listOf();
    const outcome = list.write([{ id: "a", content: "Start over", status: "pending" }], false);
    expect(outcome).toEqual({ ok: true, todos: [{ id: "a", content: "Start over", status: "pending" }] });
    expect(list.current()).toEqual([{ id: "a", content: "Start over", status: "pending" }]);
    expect(list.write([], false)).toEqual({ ok: true, todos: [] });
  });

  it("merges by id: updates in place, appends new ids in order, keeps the rest", () => {
    const list = listOf();
    const outcome = list.write(
      [
        { id: "5", content: "Update the changelog", status: "pending" },
        { id: "2", content: "Fix the parser and its error message", status: "completed" },
        { id: "4", content: "Write a regression test", status: "in_progress" },
      ],
      true,
    );
    expect(outcome.ok && outcome.todos).toEqual([
      { id: "1", content: "Read the failing test", status: "completed" },
      { id: "2", content: "Fix the parser and its error message", status: "completed" },
      { id: "3", content: "Run the tests", status: "pending" },
      { id: "5", content: "Update the changelog", status: "pending" },
      { id: "4", content: "Write a regression test", status: "in_progress" },
    ]);
  });

  it("refuses a write that would leave two todos in progress, naming them, and changes nothing", () => {
    const list = listOf();
    const error = errorOf(list.write([{ id: "3", content: "Run the tests", status: "in_progress" }], true));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toBe(
      'Only one todo may be in_progress at a time, but this write would leave 2: "2" (Fix the parser), "3" (Run the tests). Mark the finished one completed (or the others pending) in the same write. The todo list was not changed.',
    );
    expect(list.current()).toEqual(plan);
    // Handing over in one write is the way to move on.
    const handOver = list.write(
      [
        { id: "2", content: "Fix the parser", status: "completed" },
        { id: "3", content: "Run the tests", status: "in_progress" },
      ],
      true,
    );
    expect(handOver.ok && handOver.todos.map((todo) => todo.status)).toEqual([
      "completed",
      "completed",
      "in_progress",
    ]);
  });

  it("refuses empty or repeated ids, empty or long content, unknown statuses", () => {
    const list = listOf();
    const cases: [TodoItem[], string][] = [
      [[{ id: " ", content: "x", status: "pending" }], "todos[0] has an empty id."],
      [
        [
          { id: "a", content: "x", status: "pending" },
          { id: "a", content: "y", status: "pending" },
        ],
        'The id "a" is given more than once; ids must be unique.',
      ],
      [[{ id: "a", content: "  ", status: "pending" }], 'Todo "a" has no content.'],
      [
        [{ id: "a", content: "x".repeat(501), status: "pending" }],
        'Todo "a" is 501 characters long; keep each under 501.',
      ],
      [
        [{ id: "a", content: "x", status: "done" as TodoItem["status"] }],
        'Todo "a" has an unknown status "done".',
      ],
    ];
    for (const [items, message] of cases) {
      for (const merge of [true, false]) {
        const error = errorOf(list.write(items, merge));
        expect(error).toMatchObject({
          code: "E_INVALID_ARGS",
          message: `${message} The todo list was not changed.`,
        });
      }
    }
    expect(list.current()).toEqual(plan);
    expect(list.write([{ id: "a", content: "x".repeat(500), status: "pending" }], true).ok).toBe(true);
  });

  it("keeps at most 50 todos, counting those already there when merging", () => {
    const fifty = Array.from(
      { length: 50 },
      (_, index): TodoItem => ({
        id: `t${index}`,
        content: `Step ${index}`,
        status: "pending",
      }),
    );
    const list = listOf([]);
    expect(list.write(fifty, false).ok).toBe(true);
    const error = errorOf(list.write([{ id: "t50", content: "One more", status: "pending" }], true));
    expect(error.message).toBe(
      "The list would have 51 todos; at most 50 are kept. Replace the list (merge: false) with fewer, broader steps. The todo list was not changed.",
    );
    expect(list.current()).toHaveLength(50);
    // Updating one of the fifty adds nothing.
    expect(list.write([{ id: "t0", content: "Step 0", status: "completed" }], true).ok).toBe(true);
  });

  it("hands out copies, so callers cannot change the list behind its back", () => {
    const initial = plan.map((todo) => ({ ...todo }));
    const list = listOf(initial);
    initial[0]!.status = "cancelled";
    list.current()[1]!.status = "cancelled";
    expect(list.current()).toEqual(plan);
  });
});

describe("SessionTodoList progress and cancel", () => {
  it("counts cancelled todos apart from the live ones", () => {
    const list = listOf([...plan, { id: "4", content: "Try another approach", status: "cancelled" }]);
    expect(list.progress()).toEqual({ completed: 1, live: 3, cancelled: 1 });
    expect(todoProgress([])).toEqual({ completed: 0, live: 0, cancelled: 0 });
    expect(list.openItems().map((todo) => todo.id)).toEqual(["2", "3"]);
  });

  it("cancelAll cancels what is open, keeps what is done, and says whether anything changed", () => {
    const persisted: TodoItem[][] = [];
    const list = new SessionTodoList({ initial: plan, persist: (todos) => persisted.push(todos) });
    expect(list.cancelAll()).toBe(true);
    expect(list.current().map((todo) => todo.status)).toEqual(["completed", "cancelled", "cancelled"]);
    expect(list.progress()).toEqual({ completed: 1, live: 1, cancelled: 2 });
    expect(list.openItems()).toEqual([]);
    expect(list.cancelAll()).toBe(false);
    expect(persisted).toHaveLength(1);
  });
});

describe("SessionTodoList persistence", () => {
  it("persists before the change takes effect, then tells onChange", () => {
    const calls: string[] = [];
    const list = new SessionTodoList({
      persist: (todos) => calls.push(`persist ${todos.length}`),
      onChange: (todos) => calls.push(`change ${todos.length}`),
    });
    list.write(plan, false);
    list.write([{ id: "3", content: "Run the tests first", status: "pending" }], true);
    errorOf(list.write([{ id: "3", content: "Run the tests", status: "in_progress" }], true));
    expect(calls).toEqual(["persist 3", "change 3", "persist 3", "change 3"]);
  });

  it("leaves the list as it was when persisting fails", () => {
    let failing = false;
    const list = new SessionTodoList({
      initial: plan,
      persist: () => {
        if (failing) throw new Error("disk full");
      },
    });
    failing = true;
    expect(() => list.write([], false)).toThrow("disk full");
    expect(() => list.cancelAll()).toThrow("disk full");
    expect(list.current()).toEqual(plan);
  });
});
