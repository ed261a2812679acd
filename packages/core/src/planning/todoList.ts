import { errorInfo, type LatheErrorInfo, type TodoItem } from "@lathe/protocol";

/**
 * The session's todo list (the port `todo_write` writes through); the engine announces every
 * change to the faces. `SessionTodoList` is the one the engine hands the tool.
 */
export interface TodoList {
  current(): TodoItem[];
  /** `merge`: items update those of the same id and new ids are added; otherwise the list is replaced. */
  write(
    items: readonly TodoItem[],
    merge: boolean,
  ): { ok: true; todos: TodoItem[] } | { ok: false; error: LatheErrorInfo };
}

/** A plan longer than this is no longer a plan the model or the user can follow. */
export const todoLimits = { maxItems: 50, maxContentLength: 500 } as const;

export const todoStatuses = [
  "pending",
  "in_progress",
  "completed",
  "cancelled",
] as const satisfies readonly TodoItem["status"][];

/** Cancelled items count apart: dropping a step is not finishing it, and not owing it either. */
export interface TodoProgress {
  completed: number;
  /** Every item but the cancelled ones. */
  live: number;
  cancelled: number;
}

export function todoProgress(todos: readonly TodoItem[]): TodoProgress {
  const completed = todos.filter((todo) => todo.status === "completed").length;
  const cancelled = todos.filter((todo) => todo.status === "cancelled").length;
  return { completed, live: todos.length - cancelled, cancelled };
}

export interface SessionTodoListOptions {
  /** Called with the new list before it takes effect; if it throws, the list stays as it was. */
  persist?: (todos: TodoItem[]) => void;
  /** A resumed session's list. */
  initial?: TodoItem[];
  /** Called after every change has taken effect. */
  onChange?: (todos: TodoItem[]) => void;
}

type WriteOutcome = { ok: true; todos: TodoItem[] } | { ok: false; error: LatheErrorInfo };

/**
 * The session's plan (SPEC §4 `todo_write`), kept in memory and handed to `persist` on every
 * change. A refused write changes nothing, so the model can retry from the list it last saw.
 */
export class SessionTodoList implements TodoList {
  private items: TodoItem[];

  constructor(private readonly options: SessionTodoListOptions = {}) {
    this.items = (options.initial ?? []).map(copy);
  }

  current(): TodoItem[] {
    return this.items.map(copy);
  }

  write(items: readonly TodoItem[], merge: boolean): WriteOutcome {
    const invalid = checkItems(items);
    if (invalid) return refused(invalid);
    const next = merge ? merged(this.items, items) : items.map(copy);
    const problem = checkList(next);
    if (problem) return refused(problem);
    this.commit(next);
    return { ok: true, todos: this.current() };
  }

  /** When a run is cancelled, what was still to do will not be done. Returns whether anything changed. */
  cancelAll(): boolean {
    if (this.openItems().length === 0) return false;
    this.commit(this.items.map((todo) => (isOpen(todo) ? { ...todo, status: "cancelled" } : copy(todo))));
    return true;
  }

  /** Pending and in-progress items, in list order. */
  openItems(): TodoItem[] {
    return this.items.filter(isOpen).map(copy);
  }

  progress(): TodoProgress {
    return todoProgress(this.items);
  }

  private commit(next: TodoItem[]): void {
    this.options.persist?.(next.map(copy));
    this.items = next;
    this.options.onChange?.(this.current());
  }
}

/** Items of the same id update theirs in place; new ids are appended in the order given. */
function merged(existing: readonly TodoItem[], updates: readonly TodoItem[]): TodoItem[] {
  const byId = new Map(updates.map((item) => [item.id, item]));
  const updated = existing.map((todo) => copy(byId.get(todo.id) ?? todo));
  const known = new Set(existing.map((todo) => todo.id));
  return [...updated, ...updates.filter((item) => !known.has(item.id)).map(copy)];
}

/** Each item on its own, and no id twice in one write. */
function checkItems(items: readonly TodoItem[]): string | undefined {
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (item.id.trim() === "") return `todos[${index}] has an empty id.`;
    if (seen.has(item.id)) return `The id "${item.id}" is given more than once; ids must be unique.`;
    seen.add(item.id);
    if (item.content.trim() === "") return `Todo "${item.id}" has no content.`;
    if (item.content.length > todoLimits.maxContentLength) {
      return `Todo "${item.id}" is ${item.content.length} characters long; keep each under ${todoLimits.maxContentLength + 1}.`;
    }
    if (!todoStatuses.includes(item.status))
      return `Todo "${item.id}" has an unknown status "${item.status}".`;
  }
  return undefined;
}

/** The list as it would be after the write. */
function checkList(todos: readonly TodoItem[]): string | undefined {
  if (todos.length > todoLimits.maxItems) {
    return `The list would have ${todos.length} todos; at most ${todoLimits.maxItems} are kept. Replace the list (merge: false) with fewer, broader steps.`;
  }
  const active = todos.filter((todo) => todo.status === "in_progress");
  if (active.length > 1) {
    const named = active.map((todo) => `"${todo.id}" (${todo.content})`).join(", ");
    return `Only one todo may be in_progress at a time, but this write would leave ${active.length}: ${named}. Mark the finished one completed (or the others pending) in the same write.`;
  }
  return undefined;
}

function refused(message: string): WriteOutcome {
  return { ok: false, error: errorInfo("E_INVALID_ARGS", `${message} The todo list was not changed.`) };
}

function isOpen(todo: TodoItem): boolean {
  return todo.status === "pending" || todo.status === "in_progress";
}

/** Callers get copies: a list they hold must not change under them, nor theirs change ours. */
function copy(todo: TodoItem): TodoItem {
  return { id: todo.id, content: todo.content, status: todo.status };
}
