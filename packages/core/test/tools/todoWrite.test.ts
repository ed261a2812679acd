import type { EventDraft } from "@lathe/protocol";
import { eventSchema } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionTodoList } from "../../src/planning/todoList.js";
import { todoWriteTool } from "../../src/tools/builtin/todoWrite/todoWrite.js";
import type { ToolContext, ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
let todos: SessionTodoList;
let events: EventDraft[];
let context: ToolContext;
beforeEach(() => {
  bed = createToolTestBed();
  todos = new SessionTodoList();
  events = [];
  context = { ...bed.context(), todos, emitEvent: (draft) => events.push(draft) };
});
afterEach(() => bed.cleanup());

const registry = new ToolRegistry([todoWriteTool]);

/** Validates like the scheduler does, then runs the tool. */
async function call(args: Record<string, unknown>, ctx: ToolContext = context): Promise<ToolResult> {
  const validated = registry.validate("todo_write", JSON.stringify(args));
  if (!validated.ok) throw new Error(validated.error.message);
  return runTool(validated.tool, validated.args, ctx);
}

const plan = [
  { id: "1", content: "Read the failing test", status: "completed" },
  { id: "2", content: "Fix the parser", status: "in_progress" },
  { id: "3", content: "Run the tests", status: "pending" },
  { id: "4", content: "Rewrite the lexer", status: "cancelled" },
];

describe("todo_write", () => {
  it("writes the list and shows it with markers and progress", async () => {
    expect(outputOf(await call({ todos: plan }))).toBe(
      [
        "[x] 1: Read the failing test",
        "[>] 2: Fix the parser",
        "[ ] 3: Run the tests",
        "[-] 4: Rewrite the lexer",
        "1 of 3 done (1 cancelled).",
      ].join("\n"),
    );
    expect(todos.current()).toEqual(plan);
  });

  it("emits a todos event with the list and counts cancelled apart", async () => {
    const result = await call({ todos: plan });
    expect(events).toEqual([{ type: "todos", todos: plan, completed: 1, live: 3, cancelled: 1 }]);
    // Stamped as a session would stamp it, the draft is a valid protocol event.
    expect(() =>
      eventSchema.parse({ ...events[0], sessionId: "s", runId: "r", seq: 0, at: 1 }),
    ).not.toThrow();
    expect(result.ok && result.metadata).toEqual({ completed: 1, live: 3, cancelled: 1 });
  });

  it("merges by id, and fills in the content of a todo it already has", async () => {
    await call({ todos: plan });
    const output = outputOf(
      await call({
        merge: true,
        todos: [
          { id: "2", status: "completed" },
          { id: "3", status: "in_progress" },
          { id: "5", content: "Update the changelog", status: "pending" },
        ],
      }),
    );
    expect(output).toBe(
      [
        "[x] 1: Read the failing test",
        "[x] 2: Fix the parser",
        "[>] 3: Run the tests",
        "[-] 4: Rewrite the lexer",
        "[ ] 5: Update the changelog",
        "2 of 4 done (1 cancelled).",
      ].join("\n"),
    );
    expect(events.at(-1)).toMatchObject({ type: "todos", completed: 2, live: 4, cancelled: 1 });
  });

  it("asks for the content of new todos", async () => {
    await call({ todos: plan });
    expect(errorOf(await call({ merge: true, todos: [{ id: "9", status: "pending" }] }))).toMatchObject({
      code: "E_INVALID_ARGS",
      message: 'Todo "9" is not in the list yet: give its content.',
    });
    expect(errorOf(await call({ todos: [{ id: "1", status: "pending" }] })).message).toBe(
      'Todo "1" is part of a new list (merge: false): give its content.',
    );
    expect(todos.current()).toEqual(plan);
    expect(events).toHaveLength(1);
  });

  it("refuses a second todo in progress, changes nothing and emits nothing", async () => {
    await call({ todos: plan });
    const error = errorOf(await call({ merge: true, todos: [{ id: "3", status: "in_progress" }] }));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toContain('"2" (Fix the parser), "3" (Run the tests)');
    expect(todos.current()).toEqual(plan);
    expect(events).toHaveLength(1);
  });

  it("says when the list is emptied", async () => {
    await call({ todos: plan });
    expect(outputOf(await call({ todos: [] }))).toBe("The todo list is now empty.");
    expect(events.at(-1)).toEqual({ type: "todos", todos: [], completed: 0, live: 0, cancelled: 0 });
  });

  it("fails clearly where there is no todo list, and works without an event sink", async () => {
    expect(errorOf(await call({ todos: plan }, bed.context()))).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message: "Todos are not available here.",
    });
    expect(outputOf(await call({ todos: plan.slice(0, 1) }, { ...bed.context(), todos }))).toBe(
      "[x] 1: Read the failing test\n1 of 1 done.",
    );
  });

  it("validates its arguments and is a safe thinking tool", () => {
    const valid = (args: unknown) => registry.validate("todo_write", JSON.stringify(args)).ok;
    expect(valid({ todos: [{ id: "1", content: "x", status: "done" }] })).toBe(false);
    expect(valid({ todos: [{ id: "", content: "x", status: "pending" }] })).toBe(false);
    expect(valid({ todos: [{ id: "1", content: "x".repeat(501), status: "pending" }] })).toBe(false);
    const fiftyOne = Array.from({ length: 51 }, (_, index) => ({
      id: `${index}`,
      content: "x",
      status: "pending",
    }));
    expect(valid({ todos: fiftyOne })).toBe(false);
    expect(valid({ todos: fiftyOne.slice(1) })).toBe(true);
    expect(todoWriteTool.kind).toBe("think");
    expect(todoWriteTool.risk({ todos: [], merge: false }, { projectRoot: bed.projectRoot })).toBe("safe");
  });
});
