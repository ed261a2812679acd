import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { notFoundMessage } from "./closestRegion.js";
import type { EditOutcome, EditRequest, MatchedLines, Replacement, StrategyName } from "./editTypes.js";
import { occurrencesOf } from "./exactMatch.js";
import { LineIndex } from "./lineIndex.js";
import { type ChainOutcome, findUniqueMatch } from "./matchChain.js";
import { introducedPlaceholder, placeholderConsequence } from "./omissionPlaceholder.js";
import { originalOffset, type TextForm, textFormOf, toLf, writtenText } from "./textForm.js";

const maxLinesListed = 20;

/**
 * Replaces old_string in a file's text (SPEC §4 edit matcher). `content` is the text as read,
 * CRLF and BOM included; the result keeps the BOM, writes new text with the file's line ending,
 * keeps whether the file ends with a newline, and leaves every byte outside the replaced spans
 * untouched. Pure: no I/O.
 */
export function applyEdit(content: string, edit: EditRequest): EditOutcome {
  const form = textFormOf(content);
  const oldText = toLf(edit.oldString);
  const newText = toLf(edit.newString);
  if (oldText === newText) {
    return { ok: false, error: errorInfo("E_NO_CHANGE", "old_string and new_string are identical.") };
  }
  if (oldText === "") return create(form, edit.newString);
  const placeholder = introducedPlaceholder(oldText, newText);
  if (placeholder !== undefined) {
    const message = `new_string contains "${placeholder}", ${placeholderConsequence} Write the full text in new_string, every line that should remain, or make a smaller edit whose old_string leaves the unchanged code out.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }

  const index = new LineIndex(form.normalized);
  const found =
    edit.replaceAll === true ? findAll(index, oldText, newText) : findOne(index, oldText, newText);
  if (!found.ok) return found;
  return splice(form, index, found.strategy, found.replacements);
}

type Found =
  | { ok: true; strategy: StrategyName; replacements: Replacement[] }
  | { ok: false; error: LatheErrorInfo };

function create(form: TextForm, newString: string): EditOutcome {
  if (form.normalized !== "") {
    const message =
      "old_string is empty, which means creating the file, but the file already has content. Give a non-empty old_string to edit it, or use write_file to replace it whole.";
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  return {
    ok: true,
    content: form.bom + newString,
    strategy: "create",
    matches: [],
    removedLines: 0,
    addedLines: countLines(toLf(newString)),
  };
}

function findOne(index: LineIndex, oldText: string, newText: string): Found {
  const outcome = findUniqueMatch(index, oldText, newText);
  if (outcome.kind === "found") {
    return { ok: true, strategy: outcome.strategy, replacements: [outcome.replacement] };
  }
  if (outcome.kind === "ambiguous") {
    return { ok: false, error: errorInfo("E_MULTIPLE_MATCHES", multipleMatchesMessage(index, outcome)) };
  }
  return { ok: false, error: errorInfo("E_NOT_FOUND", notFoundMessage(index, oldText)) };
}

/** Every exact occurrence; with none, the single place a looser strategy finds, if there is one. */
function findAll(index: LineIndex, oldText: string, newText: string): Found {
  const starts = occurrencesOf(index.text, oldText, false);
  if (starts.length > 0) {
    const replacements = starts.map((start) => ({ start, end: start + oldText.length, text: newText }));
    return { ok: true, strategy: "exact", replacements };
  }
  const outcome = findUniqueMatch(index, oldText, newText);
  if (outcome.kind === "found") {
    return { ok: true, strategy: outcome.strategy, replacements: [outcome.replacement] };
  }
  if (outcome.kind === "ambiguous") {
    const message = `old_string does not occur exactly, and replace_all replaces exact occurrences only. Matched approximately (${outcome.strategy}) it fits ${outcome.replacements.length} places, at ${linesText(index, outcome.replacements)}; copy old_string exactly from the file.`;
    return { ok: false, error: errorInfo("E_NOT_FOUND", message) };
  }
  return { ok: false, error: errorInfo("E_NOT_FOUND", notFoundMessage(index, oldText)) };
}

function multipleMatchesMessage(
  index: LineIndex,
  outcome: Extract<ChainOutcome, { kind: "ambiguous" }>,
): string {
  const count = outcome.replacements.length;
  const where = linesText(index, outcome.replacements);
  if (outcome.strategy === "exact") {
    return `old_string occurs ${count} times in the file, at ${where}. Include more surrounding lines so it matches exactly one place, or set replace_all to change every occurrence.`;
  }
  return `old_string does not occur exactly; matched approximately (${outcome.strategy}) it fits ${count} places, at ${where}. Include more surrounding lines, copied exactly from the file, so it matches one place.`;
}

function linesText(index: LineIndex, replacements: readonly Replacement[]): string {
  const lines = [...new Set(replacements.map((replacement) => index.lineAt(replacement.start) + 1))];
  const listed = lines.slice(0, maxLinesListed).join(", ");
  const more = lines.length > maxLinesListed ? ` and ${lines.length - maxLinesListed} more` : "";
  return `${lines.length === 1 ? "line" : "lines"} ${listed}${more}`;
}

function splice(
  form: TextForm,
  index: LineIndex,
  strategy: StrategyName,
  replacements: Replacement[],
): EditOutcome {
  const ordered = [...replacements].sort((a, b) => a.start - b.start);
  const matches: MatchedLines[] = [];
  let removedLines = 0;
  let addedLines = 0;
  const parts: string[] = [];
  let cursor = 0;
  for (const replacement of ordered) {
    matches.push({
      startLine: index.lineAt(replacement.start) + 1,
      endLine: index.lineAt(Math.max(replacement.start, replacement.end - 1)) + 1,
    });
    removedLines += countLines(form.normalized.slice(replacement.start, replacement.end));
    addedLines += countLines(replacement.text);
    const placed = keepFinalNewline(form.normalized, replacement);
    parts.push(
      form.original.slice(cursor, originalOffset(form, placed.start)),
      writtenText(form, placed.start, placed.end, placed.text),
    );
    cursor = originalOffset(form, placed.end);
  }
  parts.push(form.original.slice(cursor));
  const content = parts.join("");
  if (content === form.original) {
    const message = `old_string was found (${strategy}), but replacing it with new_string leaves the file unchanged.`;
    return { ok: false, error: errorInfo("E_NO_CHANGE", message) };
  }
  return { ok: true, content, strategy, matches, removedLines, addedLines };
}

/**
 * Whether the file ends with a newline is the file's convention, not the model's: an edit at the
 * end neither adds a final newline the file lacked nor drops one it had.
 */
function keepFinalNewline(text: string, replacement: Replacement): Replacement {
  if (replacement.end !== text.length) return replacement;
  if (text.endsWith("\n")) {
    const resultEndsLine =
      replacement.text === ""
        ? replacement.start === 0 || text[replacement.start - 1] === "\n"
        : replacement.text.endsWith("\n");
    return resultEndsLine ? replacement : { ...replacement, text: `${replacement.text}\n` };
  }
  let end = replacement.text.length;
  while (end > 0 && replacement.text[end - 1] === "\n") end--;
  const stripped = replacement.text.slice(0, end);
  // Deleting the last line takes the line break before it, as an editor does.
  const start =
    stripped === "" && replacement.start > 0 && text[replacement.start - 1] === "\n"
      ? replacement.start - 1
      : replacement.start;
  return { start, end: replacement.end, text: stripped };
}

/** Lines as an editor counts them: a final newline ends the last line rather than adding one. */
function countLines(text: string): number {
  if (text === "") return 0;
  let newlines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) newlines++;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
