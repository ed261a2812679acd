import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import type { MemoryBook } from "../../../store/memoryRecords.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { secretLike } from "./secretLike.js";

/** Longer than this, a memory is cut in the prompt (store/memoryRecords.ts). */
const maxContentLength = 1000;

const updateMemorySchema = builtinToolSchema("update_memory", () =>
  z
    .object({
      action: z.enum(["add", "update", "delete"]),
      content: z
        .string()
        .trim()
        .min(1)
        .max(maxContentLength)
        .optional()
        .describe("One self-contained fact; for add and update."),
      id: z.string().min(1).optional().describe("For update and delete."),
      scope: z.enum(["project", "user"]).default("project").describe("user: every project of this user."),
    })
    .superRefine((args, ctx) => {
      if (args.action !== "delete" && args.content === undefined) {
        ctx.addIssue({ code: "custom", path: ["content"], message: `${args.action} needs content` });
      }
      if (args.action !== "add" && args.id === undefined) {
        ctx.addIssue({ code: "custom", path: ["id"], message: `${args.action} needs the id of the memory` });
      }
    }),
);

type UpdateMemoryArgs = z.infer<typeof updateMemorySchema>;

export const updateMemoryTool = defineTool({
  name: "update_memory",
  description: toolPrompt(assetUrl("tools/builtin/updateMemory/updateMemory.md")),
  schema: updateMemorySchema,
  // Memories change nothing in the project, but they do steer every later session.
  kind: "other",
  // A user memory reaches every project, so it is worth a closer look than a project one.
  risk: (args) => (args.scope === "user" ? "medium" : "low"),
  timeoutMs: 10_000,
  truncation: "head",
  execute: updateMemory,
});

async function updateMemory(args: UpdateMemoryArgs, ctx: ToolContext): Promise<ToolResult> {
  const book = ctx.memories;
  if (book === undefined) return failure("E_TOOL_EXECUTION", "Memories are not available here.");
  if (args.content !== undefined) {
    const secret = secretLike(args.content);
    if (secret) {
      return failure(
        "E_SECURITY_BLOCKED",
        `Not saved: the content looks like ${secret}. Memories are stored in plain text and shown to every later session, so secrets are never saved. Save where the secret is kept instead.`,
      );
    }
  }
  if (args.action === "add") return add(book, args.content ?? "", args.scope);

  const id = args.id ?? "";
  const memory = book.list().find((entry) => entry.id === id);
  if (memory === undefined) return notFound(id);
  // Risk was judged from `scope`: a user memory must not be changed under a project-scope approval.
  if (memory.scope !== args.scope) {
    return failure(
      "E_INVALID_ARGS",
      `Memory ${id} is a ${memory.scope} memory: pass scope "${memory.scope}" to ${args.action} it.`,
    );
  }
  if (args.action === "update") {
    if (!book.update(id, args.content ?? "")) return notFound(id);
    return {
      ok: true,
      output: `Updated ${memory.scope} memory ${id}.`,
      metadata: { id, scope: memory.scope },
    };
  }
  if (!book.remove(id)) return notFound(id);
  return { ok: true, output: `Deleted ${memory.scope} memory ${id}.`, metadata: { id, scope: memory.scope } };
}

function add(book: MemoryBook, content: string, scope: "project" | "user"): ToolResult {
  const same = book.list().find((entry) => entry.scope === scope && entry.content === content);
  if (same) {
    return {
      ok: true,
      output: `Already saved as ${scope} memory ${same.id}.`,
      metadata: { id: same.id, scope },
    };
  }
  const { id } = book.add(content, scope);
  const reach = scope === "user" ? "every project" : "this project";
  return {
    ok: true,
    output: `Saved as ${scope} memory ${id}; later sessions of ${reach} will see it.`,
    metadata: { id, scope },
  };
}

function notFound(id: string): ToolResult {
  return failure(
    "E_INVALID_ARGS",
    `No memory of this project or user has the id "${id}". Use an id as listed in your instructions.`,
  );
}

function failure(
  code: "E_TOOL_EXECUTION" | "E_SECURITY_BLOCKED" | "E_INVALID_ARGS",
  message: string,
): ToolResult {
  return { ok: false, error: errorInfo(code, message) };
}
