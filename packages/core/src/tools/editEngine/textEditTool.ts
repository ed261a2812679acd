import type { LatheErrorInfo } from "@lathe/protocol";
import type { z } from "zod";
import { withLintNote } from "../lintNote.js";
import { defineTool, type ToolContext, type ToolDefinition, type ToolResult } from "../tool.js";
import { loadEditTarget, missingTarget, saveEditedFile } from "./editTarget.js";
import { unifiedDiff } from "./unifiedDiff.js";

/** The new text of a file, with whatever the tool reports about how it was reached. */
export type AppliedText = { ok: true; content: string };

/** A file's text after its change, as the tool that changed it describes it. */
export interface EditedFile<Applied extends AppliedText> {
  displayPath: string;
  /** The file did not exist before. */
  created: boolean;
  diff: string;
  applied: Applied;
}

type EditArgs<Schema extends z.ZodType<{ path: string }>> = z.infer<Schema>;

/** A tool that changes the text of one file, declared by how it changes it and how it says so. */
export interface TextEditTool<Schema extends z.ZodType<{ path: string }>, Applied extends AppliedText> {
  name: string;
  description: string;
  schema: Schema;
  /** The change starts from an empty old_string, so a missing file is created rather than refused. */
  createsMissing(args: EditArgs<Schema>): boolean;
  apply(args: EditArgs<Schema>, before: string): Applied | { ok: false; error: LatheErrorInfo };
  describe(
    args: EditArgs<Schema>,
    edited: EditedFile<Applied>,
  ): { summary: string; metadata: Record<string, unknown> };
}

export function defineTextEditTool<Schema extends z.ZodType<{ path: string }>, Applied extends AppliedText>(
  tool: TextEditTool<Schema, Applied>,
): ToolDefinition<Schema> {
  return defineTool({
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    kind: "edit",
    risk: () => "medium",
    timeoutMs: 60_000,
    truncation: "head",
    execute: (args, ctx) => editProjectFile(tool, args, ctx),
  });
}

/**
 * The path every text-editing tool takes: load the file through the path guard and the
 * read-before-write rule, apply the change in memory, write it atomically once, and answer with
 * the tool's summary, the unified diff and the project's lint note.
 */
async function editProjectFile<Schema extends z.ZodType<{ path: string }>, Applied extends AppliedText>(
  tool: TextEditTool<Schema, Applied>,
  args: EditArgs<Schema>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const target = await loadEditTarget(args.path, ctx, tool.name);
  if (!target.ok) return target;
  const { absPath, displayPath } = target;
  if (target.content === undefined && !tool.createsMissing(args)) {
    return { ok: false, error: await missingTarget(absPath, displayPath) };
  }

  const before = target.content ?? "";
  const applied = tool.apply(args, before);
  if (!applied.ok) return applied;

  const saveError = await saveEditedFile(absPath, applied.content, ctx);
  if (saveError !== undefined) return { ok: false, error: saveError };
  const diff = unifiedDiff(displayPath, before, applied.content);
  const created = target.content === undefined;
  const { summary, metadata } = tool.describe(args, { displayPath, created, diff, applied });
  return withLintNote({ ok: true, output: `${summary}\n\n${diff}`, metadata }, ctx, [absPath]);
}
