import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { introducedPlaceholder, placeholderConsequence } from "../../editEngine/index.js";
import type { PatchHunk } from "./patchParser.js";

/**
 * The refusal of an Update File section whose added lines hold an omission placeholder the file
 * does not already have: applied, the placeholder would stand where the code it elides was.
 */
export function placeholderError(
  fileText: string,
  hunks: readonly PatchHunk[],
  displayPath: string,
): LatheErrorInfo | undefined {
  for (const hunk of hunks) {
    const added = hunk.lines.filter((line) => line.kind === "add").map((line) => line.text);
    const placeholder = introducedPlaceholder(fileText, added.join("\n"));
    if (placeholder === undefined) continue;
    const message = `The hunk at patch line ${hunk.patchLine} of ${displayPath} adds "${placeholder}", ${placeholderConsequence} Write every line that should remain as context or added lines, or use smaller hunks that leave the unchanged code out; nothing was changed.`;
    return errorInfo("E_INVALID_ARGS", message);
  }
  return undefined;
}
