import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { applyEdit, unifiedDiff } from "../../editEngine/index.js";
import { withLintNote } from "../../lintNote.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import {
  lineCount,
  loadEditTarget,
  maxEditStringChars,
  missingTarget,
  saveEditedFile,
} from "./editTarget.js";

const editFileSchema = z.object({
  path: z.string().min(1).describe("Path of the file, relative to the project root or absolute."),
  old_string: z
    .string()
    .max(maxEditStringChars)
    .describe("The text to replace, copied from the file. Empty to create a new file."),
  new_string: z.string().max(maxEditStringChars).describe("The text to put in its place."),
  replace_all: z.boolean().optional().describe("Replace every exact occurrence of old_string."),
});

type EditFileArgs = z.infer<typeof editFileSchema>;

export const editFileTool = defineTool({
  name: "edit_file",
  description: toolPrompt(assetUrl("tools/builtin/editFile/editFile.md")),
  schema: editFileSchema,
  kind: "edit",
  risk: () => "medium",
  timeoutMs: 60_000,
  truncation: "head",
  execute: editFile,
});

async function editFile(args: EditFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const target = await loadEditTarget(args.path, ctx, "edit_file");
  if (!target.ok) return target;
  const { absPath, displayPath } = target;
  if (target.content === undefined && args.old_string !== "") {
    return { ok: false, error: await missingTarget(absPath, displayPath) };
  }

  const before = target.content ?? "";
  const edited = applyEdit(before, {
    oldString: args.old_string,
    newString: args.new_string,
    replaceAll: args.replace_all,
  });
  if (!edited.ok) return edited;

  const saveError = await saveEditedFile(absPath, edited.content, ctx);
  if (saveError !== undefined) return { ok: false, error: saveError };
  const diff = unifiedDiff(displayPath, before, edited.content);
  const summary =
    edited.strategy === "create"
      ? `Created ${displayPath} (${lineCount(edited.addedLines)}).`
      : `Edited ${displayPath} (${edited.strategy}${placesNote(edited.matches.length)}): replaced ${lineCount(edited.removedLines)} with ${lineCount(edited.addedLines)}.`;
  const result: ToolResult = {
    ok: true,
    output: `${summary}\n\n${diff}`,
    metadata: { path: displayPath, strategy: edited.strategy, diff, matches: edited.matches },
  };
  return withLintNote(result, ctx, [absPath]);
}

function placesNote(places: number): string {
  return places > 1 ? `, ${places} places` : "";
}
