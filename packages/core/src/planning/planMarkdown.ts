import type { TodoItem } from "@lathe/protocol";

/** A title longer than this is cut: it heads the file and names the plan in the faces. */
const maxTitleLength = 80;

/** The plan's title: the first line of the task it answers, its spaces collapsed. */
export function planTitle(task: string): string {
  const line =
    task
      .split("\n")
      .map((text) => text.replace(/\s+/g, " ").trim())
      .find((text) => text !== "") ?? "";
  if (line === "") return "Plan";
  return line.length > maxTitleLength ? `${line.slice(0, maxTitleLength - 1).trimEnd()}…` : line;
}

/**
 * The plan as the user edits it and agent mode reads it: a heading, the model's answer as it
 * wrote it, and the todo list (if one was written) as a markdown checklist.
 */
export function renderPlan(plan: { title: string; answer: string; todos: readonly TodoItem[] }): string {
  const sections = [`# Plan: ${plan.title}`, plan.answer.trim()];
  if (plan.todos.length > 0) sections.push(`## Todos\n\n${plan.todos.map(todoLine).join("\n")}`);
  return `${sections.join("\n\n")}\n`;
}

function todoLine(todo: TodoItem): string {
  switch (todo.status) {
    case "completed":
      return `- [x] ${todo.content}`;
    case "cancelled":
      return `- [ ] ~~${todo.content}~~ (cancelled)`;
    case "in_progress":
      return `- [ ] ${todo.content} (in progress)`;
    default:
      return `- [ ] ${todo.content}`;
  }
}
