import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { applyEdit, defineTextEditTool, lineCount, maxEditStringChars } from "../../editEngine/index.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { toolPrompt } from "../../toolPrompt.js";

const editFileSchema = builtinToolSchema("edit_file", () =>
  z.object({
    path: z.string().min(1),
    old_string: z.string().max(maxEditStringChars),
    new_string: z.string().max(maxEditStringChars),
    replace_all: z.boolean().optional(),
  }),
);

export const editFileTool = defineTextEditTool({
  name: "edit_file",
  description: toolPrompt(assetUrl("tools/builtin/editFile/editFile.md")),
  schema: editFileSchema,
  createsMissing: (args) => args.old_string === "",
  apply: (args, before) =>
    applyEdit(before, {
      oldString: args.old_string,
      newString: args.new_string,
      replaceAll: args.replace_all,
    }),
  describe: (_args, { displayPath, diff, applied }) => ({
    summary:
      applied.strategy === "create"
        ? `Created ${displayPath} (${lineCount(applied.addedLines)}).`
        : `Edited ${displayPath} (${applied.strategy}${placesNote(applied.matches.length)}): replaced ${lineCount(applied.removedLines)} with ${lineCount(applied.addedLines)}.`,
    metadata: { path: displayPath, strategy: applied.strategy, diff, matches: applied.matches },
  }),
});

function placesNote(places: number): string {
  return places > 1 ? `, ${places} places` : "";
}
