import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { applyEdit, type StrategyName, unifiedDiff } from "../../editEngine/index.js";
import { withLintNote } from "../../lintNote.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { loadEditTarget, maxEditStringChars, missingTarget, saveEditedFile } from "../editFile/editTarget.js";

const maxEdits = 50;

const singleEditSchema = z.object({
  old_string: z
    .string()
    .max(maxEditStringChars)
    .describe("The text to replace, copied from the file. Empty only in the first edit, to create the file."),
  new_string: z.string().max(maxEditStringChars).describe("The text to put in its place."),
  replace_all: z.boolean().optional().describe("Replace every exact occurrence of old_string."),
});

const multiEditSchema = z.object({
  path: z.string().min(1).describe("Path of the file, relative to the project root or absolute."),
  edits: z
    .array(singleEditSchema)
    .min(1)
    .max(maxEdits)
    .describe("Edits applied in order, each to the result of the previous ones; all or nothing."),
});

type MultiEditArgs = z.infer<typeof multiEditSchema>;

export const multiEditTool = defineTool({
  name: "multi_edit",
  description: toolPrompt(assetUrl("tools/builtin/multiEdit/multiEdit.md")),
  schema: multiEditSchema,
  kind: "edit",
  risk: () => "medium",
  timeoutMs: 60_000,
  truncation: "head",
  execute: multiEdit,
});

async function multiEdit(args: MultiEditArgs, ctx: ToolContext): Promise<ToolResult> {
  const target = await loadEditTarget(args.path, ctx, "multi_edit");
  if (!target.ok) return target;
  const { absPath, displayPath } = target;
  if (target.content === undefined && args.edits[0]?.old_string !== "") {
    return { ok: false, error: await missingTarget(absPath, displayPath) };
  }

  const before = target.content ?? "";
  // Every edit runs on the text in memory; the file is written once, after all of them matched.
  let content = before;
  const strategies: StrategyName[] = [];
  for (const [position, edit] of args.edits.entries()) {
    const edited = applyEdit(content, {
      oldString: edit.old_string,
      newString: edit.new_string,
      replaceAll: edit.replace_all,
    });
    if (!edited.ok) {
      const message = `edits[${position}] (edit ${position + 1} of ${args.edits.length}) failed, so nothing was written: ${edited.error.message}`;
      return { ok: false, error: errorInfo(edited.error.code, message) };
    }
    content = edited.content;
    strategies.push(edited.strategy);
  }
  if (content === before) {
    const message = "The edits together leave the file exactly as it was; nothing was written.";
    return { ok: false, error: errorInfo("E_NO_CHANGE", message) };
  }

  const saveError = await saveEditedFile(absPath, content, ctx);
  if (saveError !== undefined) return { ok: false, error: saveError };
  const diff = unifiedDiff(displayPath, before, content);
  const editsText = args.edits.length === 1 ? "1 edit" : `${args.edits.length} edits`;
  const action = target.content === undefined ? "Created" : "Edited";
  const result: ToolResult = {
    ok: true,
    output: `${action} ${displayPath} with ${editsText} (${strategies.join(", ")}).\n\n${diff}`,
    metadata: { path: displayPath, strategies, diff },
  };
  return withLintNote(result, ctx, [absPath]);
}
