import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import {
  applyEdit,
  defineTextEditTool,
  maxEditStringChars,
  type StrategyName,
} from "../../editEngine/index.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { toolPrompt } from "../../toolPrompt.js";

const maxEdits = 50;

const multiEditSchema = builtinToolSchema("multi_edit", () =>
  z.object({
    path: z.string().min(1),
    edits: z
      .array(
        z.object({
          old_string: z.string().max(maxEditStringChars),
          new_string: z.string().max(maxEditStringChars),
          replace_all: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(maxEdits),
  }),
);

type MultiEditArgs = z.infer<typeof multiEditSchema>;

export const multiEditTool = defineTextEditTool({
  name: "multi_edit",
  description: toolPrompt(assetUrl("tools/builtin/multiEdit/multiEdit.md")),
  schema: multiEditSchema,
  createsMissing: (args) => args.edits[0]?.old_string === "",
  apply: (args, before) => applyInOrder(before, args.edits),
  describe: (args, { displayPath, created, diff, applied }) => {
    const editsText = args.edits.length === 1 ? "1 edit" : `${args.edits.length} edits`;
    const action = created ? "Created" : "Edited";
    return {
      summary: `${action} ${displayPath} with ${editsText} (${applied.strategies.join(", ")}).`,
      metadata: { path: displayPath, strategies: applied.strategies, diff },
    };
  },
});

type AppliedEdits =
  | { ok: true; content: string; strategies: StrategyName[] }
  | { ok: false; error: LatheErrorInfo };

/** Every edit runs on the text in memory; the file is written once, after all of them matched. */
function applyInOrder(before: string, edits: MultiEditArgs["edits"]): AppliedEdits {
  let content = before;
  const strategies: StrategyName[] = [];
  for (const [position, edit] of edits.entries()) {
    const edited = applyEdit(content, {
      oldString: edit.old_string,
      newString: edit.new_string,
      replaceAll: edit.replace_all,
    });
    if (!edited.ok) {
      const message = `edits[${position}] (edit ${position + 1} of ${edits.length}) failed, so nothing was written: ${edited.error.message}`;
      return { ok: false, error: errorInfo(edited.error.code, message) };
    }
    content = edited.content;
    strategies.push(edited.strategy);
  }
  if (content === before) {
    const message = "The edits together leave the file exactly as it was; nothing was written.";
    return { ok: false, error: errorInfo("E_NO_CHANGE", message) };
  }
  return { ok: true, content, strategies };
}
