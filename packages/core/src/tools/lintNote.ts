import { checkerPlacement } from "./lints/checkerPlacement.js";
import { formatAfterEdit } from "./lints/diagnosticsAfterEdit.js";
import type { ToolContext, ToolResult } from "./tool.js";

/**
 * Appends to a successful write the errors it introduced (SPEC §4: edit results carry new
 * lint errors), so the model sees a broken build at once instead of at the next test run.
 */
export async function withLintNote(
  result: ToolResult,
  ctx: ToolContext,
  files: readonly string[],
): Promise<ToolResult> {
  if (!result.ok || ctx.lints === undefined) return result;
  // The checkers run the project's code: in the sandbox, or not at all when it is required and missing.
  const place = checkerPlacement(ctx.sandbox, ctx);
  if (!place.ok) return result;
  const notes: string[] = [];
  for (const file of files) {
    const note = formatAfterEdit(
      await ctx.lints.afterEdit(ctx.projectRoot, file, ctx.signal, place.placement),
    );
    if (note) notes.push(note);
  }
  if (notes.length === 0) return result;
  return { ...result, output: `${result.output}\n\n${notes.join("\n\n")}` };
}
