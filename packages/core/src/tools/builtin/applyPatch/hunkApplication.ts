import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { endingsOfWrittenLines, type LineEnding } from "../../editEngine/index.js";
import { seekLines } from "./lineSeek.js";
import type { HunkLine, PatchHunk } from "./patchParser.js";
import type { TextLine } from "./textLines.js";

export type HunkApplication = { ok: true; lines: TextLine[] } | { ok: false; error: LatheErrorInfo };

interface Replacement {
  start: number;
  /** File lines the hunk covers. */
  length: number;
  lines: TextLine[];
}

/** Lines shown of a hunk that does not match, and of the places an ambiguous one matches. */
const maxListed = 10;

/**
 * Applies an Update File section's hunks to a file's lines. Hunks are located in order, each after
 * the previous one, through its `@@` anchors and then its context and removed lines; every one must
 * be found exactly once before any is applied. Context lines keep the file's own text, so a hunk
 * matched despite whitespace differences changes only the lines it adds and removes.
 */
export function applyHunks(
  fileLines: readonly TextLine[],
  hunks: readonly PatchHunk[],
  displayPath: string,
): HunkApplication {
  const texts = fileLines.map((line) => line.text);
  const replacements: Replacement[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    for (const anchor of hunk.anchors) {
      const found = seekLines(texts, [anchor], cursor, false);
      if (found.kind === "missing") {
        const message = `The hunk at patch line ${hunk.patchLine}: the @@ line "${anchor}" was not found in ${displayPath}${afterLine(cursor)}.`;
        return { ok: false, error: errorInfo("E_NOT_FOUND", message) };
      }
      if (found.kind === "ambiguous") {
        return {
          ok: false,
          error: ambiguityError(hunk, `the @@ line "${anchor}" matches`, found.indexes, displayPath),
        };
      }
      cursor = found.index + 1;
    }

    const located = locateHunk(texts, hunk, cursor);
    if (located.kind === "missing") return { ok: false, error: missingHunkError(hunk, cursor, displayPath) };
    if (located.kind === "ambiguous") {
      return { ok: false, error: ambiguityError(hunk, "its lines match", located.indexes, displayPath) };
    }
    const covered = fileLines.slice(
      located.start,
      located.start + located.hunkLines.filter(isOldSide).length,
    );
    replacements.push({
      start: located.start,
      length: covered.length,
      lines: rewrite(located.hunkLines, covered, {
        before: fileLines[located.start - 1],
        after: fileLines[located.start + covered.length],
      }),
    });
    cursor = located.start + covered.length;
  }

  const result = [...fileLines];
  for (const replacement of replacements.reverse()) {
    result.splice(replacement.start, replacement.length, ...replacement.lines);
  }
  return { ok: true, lines: result };
}

type LocatedHunk =
  | { kind: "found"; start: number; hunkLines: readonly HunkLine[] }
  | { kind: "missing" }
  | { kind: "ambiguous"; indexes: number[] };

function locateHunk(texts: readonly string[], hunk: PatchHunk, cursor: number): LocatedHunk {
  const oldSide = hunk.lines.filter(isOldSide);
  // Lines that only add go right after the last anchor, or at the end of the file without one.
  if (oldSide.length === 0) {
    const start = hunk.anchors.length > 0 && !hunk.endOfFile ? cursor : texts.length;
    return { kind: "found", start, hunkLines: hunk.lines };
  }
  const found = seekLines(
    texts,
    oldSide.map((line) => line.text),
    cursor,
    hunk.endOfFile,
  );
  if (found.kind === "ambiguous") return found;
  if (found.kind === "found") return { kind: "found", start: found.index, hunkLines: hunk.lines };

  // Trailing blank context is often the blank line that separates sections in the patch, or a
  // newline at the end of the file: retry without it, as Codex does.
  const trimmed = withoutTrailingBlankContext(hunk.lines);
  if (trimmed.length === hunk.lines.length || !trimmed.some(isOldSide)) return { kind: "missing" };
  return locateHunk(texts, { ...hunk, lines: trimmed }, cursor);
}

/**
 * The hunk's new lines: context lines as they are in the file, added lines as the patch gives
 * them, ending as the shared rule says from the lines they replace (the removed lines between
 * the same context lines) or, where they replace none, from the lines around them.
 */
function rewrite(
  hunkLines: readonly HunkLine[],
  covered: readonly TextLine[],
  around: { before: TextLine | undefined; after: TextLine | undefined },
): TextLine[] {
  const rewritten: TextLine[] = [];
  let fileIndex = 0;
  let removed: TextLine[] = [];
  let added: string[] = [];
  const writeAdded = () => {
    const nearby =
      endingOf(rewritten.at(-1) ?? around.before) ?? endingOf(covered[fileIndex] ?? around.after);
    const endings = endingsOfWrittenLines(
      removed.map((line) => ({ text: line.text, ending: endingOf(line) })),
      added,
      nearby,
    );
    for (const [at, text] of added.entries()) rewritten.push({ text, ending: endings[at] });
    removed = [];
    added = [];
  };
  for (const line of hunkLines) {
    if (line.kind === "add") {
      added.push(line.text);
      continue;
    }
    const original = covered[fileIndex++];
    if (original === undefined) continue;
    if (line.kind === "remove") {
      removed.push(original);
      continue;
    }
    writeAdded();
    rewritten.push(original);
  }
  writeAdded();
  return rewritten;
}

/** A line's ending, undefined for a last line without one or a line not yet given one. */
function endingOf(line: TextLine | undefined): LineEnding | undefined {
  return line?.ending === "\n" || line?.ending === "\r\n" ? line.ending : undefined;
}

function isOldSide(line: HunkLine): boolean {
  return line.kind !== "add";
}

function withoutTrailingBlankContext(lines: readonly HunkLine[]): HunkLine[] {
  const trimmed = [...lines];
  while (trimmed.at(-1)?.kind === "context" && trimmed.at(-1)?.text.trim() === "") trimmed.pop();
  return trimmed;
}

function missingHunkError(hunk: PatchHunk, cursor: number, displayPath: string): LatheErrorInfo {
  const expected = hunk.lines.filter(isOldSide).map((line) => line.text);
  const listed = expected.slice(0, maxListed).map((text) => `  ${text}`);
  if (expected.length > maxListed) listed.push(`  … (${expected.length - maxListed} more lines)`);
  const where = hunk.endOfFile ? " at the end of the file" : afterLine(cursor);
  const message =
    `The hunk at patch line ${hunk.patchLine} does not match ${displayPath}${where}. ` +
    `Expected these lines (context and removed lines), in this order:\n${listed.join("\n")}\n` +
    "Read the file again and copy these lines exactly as they are now.";
  return errorInfo("E_NOT_FOUND", message);
}

function ambiguityError(
  hunk: PatchHunk,
  /** Subject and verb: "its lines match". */
  whatMatches: string,
  indexes: readonly number[],
  displayPath: string,
): LatheErrorInfo {
  const lineNumbers = indexes.slice(0, maxListed).map((index) => index + 1);
  const more = indexes.length > maxListed ? ` and ${indexes.length - maxListed} more` : "";
  const message =
    `The hunk at patch line ${hunk.patchLine} is ambiguous: ${whatMatches} ${displayPath} at lines ` +
    `${lineNumbers.join(", ")}${more}. Add context lines, or an '@@ <line>' anchor such as the enclosing ` +
    "function or class, so the hunk matches one place.";
  return errorInfo("E_MULTIPLE_MATCHES", message);
}

function afterLine(cursor: number): string {
  return cursor === 0 ? "" : ` after line ${cursor}`;
}
