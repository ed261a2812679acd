import { errorInfo, type TodoItem } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { type TodoProgress, todoLimits, todoProgress, todoStatuses } from "../../../planning/todoList.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

const todoWriteSchema = builtinToolSchema("todo_write", () =>
  z.object({
    todos: z
      .array(
        z.object({
          id: z.string().min(1).describe("Stable; the same id updates the same todo."),
          content: z
            .string()
            .min(1)
            .max(todoLimits.maxContentLength)
            .optional()
            .describe("Optional when merging."),
          status: z.enum(todoStatuses),
        }),
      )
      .max(todoLimits.maxItems),
    merge: z
      .boolean()
      .default(false)
      .describe("true: update by id, append new ids. false: replace the list."),
  }),
);

type TodoWriteArgs = z.infer<typeof todoWriteSchema>;

export const todoWriteTool = defineTool({
  name: "todo_write",
  description: toolPrompt(assetUrl("tools/builtin/todoWrite/todoWrite.md")),
  schema: todoWriteSchema,
  kind: "think",
  risk: () => "safe",
  timeoutMs: 10_000,
  truncation: "head",
  execute: todoWrite,
});

const markers: Record<TodoItem["status"], string> = {
  completed: "[x]",
  in_progress: "[>]",
  pending: "[ ]",
  cancelled: "[-]",
};

async function todoWrite(args: TodoWriteArgs, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.todos === undefined) {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", "Todos are not available here.") };
  }
  const items = withContent(args, ctx.todos.current());
  if (!items.ok) return { ok: false, error: errorInfo("E_INVALID_ARGS", items.message) };
  const written = ctx.todos.write(items.todos, args.merge);
  if (!written.ok) return written;
  const progress = todoProgress(written.todos);
  ctx.emitEvent?.({ type: "todos", todos: written.todos, ...progress });
  return { ok: true, output: listing(written.todos, progress), metadata: { ...progress } };
}

/**
 * Models often send only `{id, status}` to tick a todo off; when merging, the content of the
 * todo of that id fills in. A todo that is new, or a whole new list, must say what it is.
 */
function withContent(
  args: TodoWriteArgs,
  current: readonly TodoItem[],
): { ok: true; todos: TodoItem[] } | { ok: false; message: string } {
  const known = new Map(current.map((todo) => [todo.id, todo.content]));
  const todos: TodoItem[] = [];
  for (const item of args.todos) {
    const content = item.content ?? (args.merge ? known.get(item.id) : undefined);
    if (content === undefined) {
      const why = args.merge ? "is not in the list yet" : "is part of a new list (merge: false)";
      return { ok: false, message: `Todo "${item.id}" ${why}: give its content.` };
    }
    todos.push({ id: item.id, content, status: item.status });
  }
  return { ok: true, todos };
}

function listing(todos: readonly TodoItem[], progress: TodoProgress): string {
  if (todos.length === 0) return "The todo list is now empty.";
  const lines = todos.map((todo) => `${markers[todo.status]} ${todo.id}: ${todo.content}`);
  const cancelled = progress.cancelled > 0 ? ` (${progress.cancelled} cancelled)` : "";
  return [...lines, `${progress.completed} of ${progress.live} done${cancelled}.`].join("\n");
}
