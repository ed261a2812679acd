import type { TodoItem } from "@lathe/protocol";

/** What the guard reads of a todo: its status, and its text (quoted back to the model) when given. */
export type GuardedTodo = Pick<TodoItem, "status"> & Partial<Pick<TodoItem, "content">>;

/** More open todos than this, with fewer than half done, and stopping looks premature. */
const maxOpenTodos = 3;
const listedTodos = 5;

/**
 * Seed 002's Stop hook, tamed: when the model stops with more than 3 todos open (pending or in
 * progress) and fewer than half of the live ones (not cancelled) done, it is nudged once to go on.
 * Returns the text for the model, or undefined to let it stop.
 */
export function stopGuard(input: {
  todos: readonly GuardedTodo[];
  alreadyNudged: boolean;
}): string | undefined {
  if (input.alreadyNudged) return undefined;
  const open = input.todos.filter((todo) => todo.status === "pending" || todo.status === "in_progress");
  const live = input.todos.filter((todo) => todo.status !== "cancelled").length;
  const done = input.todos.filter((todo) => todo.status === "completed").length;
  if (open.length <= maxOpenTodos || done * 2 >= live) return undefined;
  const named = open.flatMap((todo) => (todo.content ? [`- ${todo.content}`] : [])).slice(0, listedTodos);
  const list = named.length > 0 ? `\nStill open:\n${named.join("\n")}` : "";
  return `You stopped with ${open.length} of ${live} todos still open and ${done} done.${list}\nContinue with the next open todo. If some are no longer needed, mark them cancelled with todo_write and say why; if you are blocked, tell the user what you need.`;
}
