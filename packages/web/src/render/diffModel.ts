import { parsePatch, type StructuredPatch, type StructuredPatchHunk, structuredPatch } from "diff";
import { splitPatchSections } from "./patchSections.js";

/**
 * A file change to show: its texts before and after, or a unified patch (which may hold several
 * files, as `git diff` prints them). A new file has no `oldText`, a deleted one no `newText`.
 */
export interface DiffFile {
  path: string;
  oldText?: string;
  newText?: string;
  patch?: string;
}

export type DiffLineKind = "add" | "del" | "context" | "note";

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its `+`/`-`/space prefix; for a note, what it says. */
  text: string;
  /** 1-based line numbers in the old and new file, where the line exists there. */
  oldNumber?: number;
  newNumber?: number;
}

export interface DiffHunk {
  /** `@@ -1,3 +1,4 @@`, as a unified diff writes it. */
  header: string;
  lines: DiffLine[];
}

export type FileChange = "added" | "deleted" | "modified" | "renamed" | "copied";

/** One file's change, ready to render. */
export interface ParsedDiffFile {
  path: string;
  /** The path a renamed or copied file came from. */
  oldPath?: string;
  change: FileChange;
  binary: boolean;
  hunks: DiffHunk[];
  added: number;
  removed: number;
  /** The patch text as given, when it could not be parsed; `problem` says why. */
  unparsed?: string;
  problem?: string;
}

export interface DiffSummary {
  files: number;
  added: number;
  removed: number;
}

/** Lines of context around each change, as git shows them. */
const contextLines = 3;
/** Past this, two texts are shown as wholly replaced: a line diff of very different big files takes too long. */
const diffTimeoutMs = 250;
const devNull = "/dev/null";

function hunkHeader(hunk: StructuredPatchHunk): string {
  // A unified diff numbers an empty side by the line before it.
  const side = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
  return `@@ -${side(hunk.oldStart, hunk.oldLines)} +${side(hunk.newStart, hunk.newLines)} @@`;
}

function toHunk(hunk: StructuredPatchHunk): DiffHunk {
  let oldNumber = hunk.oldStart;
  let newNumber = hunk.newStart;
  const lines = hunk.lines.map((line): DiffLine => {
    const text = line.slice(1);
    switch (line[0]) {
      case "+":
        return { kind: "add", text, newNumber: newNumber++ };
      case "-":
        return { kind: "del", text, oldNumber: oldNumber++ };
      case "\\":
        return { kind: "note", text: text.trim() };
      default:
        return { kind: "context", text, oldNumber: oldNumber++, newNumber: newNumber++ };
    }
  });
  return { header: hunkHeader(hunk), lines };
}

function fileOf(
  base: Pick<ParsedDiffFile, "path" | "oldPath" | "change" | "binary">,
  hunks: readonly StructuredPatchHunk[],
): ParsedDiffFile {
  const parsed = hunks.map(toHunk);
  let added = 0;
  let removed = 0;
  for (const hunk of parsed) {
    for (const line of hunk.lines) {
      if (line.kind === "add") added++;
      else if (line.kind === "del") removed++;
    }
  }
  return { ...base, hunks: parsed, added, removed };
}

/** One hunk that removes every old line and adds every new one. */
function wholeReplacement(oldText: string, newText: string): StructuredPatchHunk {
  const linesOf = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
  const oldLines = linesOf(oldText);
  const newLines = linesOf(newText);
  return {
    oldStart: 1,
    oldLines: oldLines.length,
    newStart: 1,
    newLines: newLines.length,
    lines: [...oldLines.map((line) => `-${line}`), ...newLines.map((line) => `+${line}`)],
  };
}

function diffTexts(file: DiffFile): ParsedDiffFile {
  const oldText = file.oldText ?? "";
  const newText = file.newText ?? "";
  const change: FileChange =
    file.oldText === undefined && file.newText !== undefined
      ? "added"
      : file.newText === undefined && file.oldText !== undefined
        ? "deleted"
        : "modified";
  const patch = structuredPatch(file.path, file.path, oldText, newText, undefined, undefined, {
    context: contextLines,
    timeout: diffTimeoutMs,
  });
  const hunks = patch?.hunks ?? [wholeReplacement(oldText, newText)];
  return fileOf({ path: file.path, change, binary: false }, hunks);
}

/** A header's file name without git's `a/` / `b/` side prefix. */
function bareName(name: string | undefined, prefix: "a/" | "b/", git: boolean): string | undefined {
  if (name === undefined || name === devNull) return undefined;
  return git && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function fromStructuredPatch(patch: StructuredPatch, fallbackPath: string): ParsedDiffFile {
  // Plain diffs mark sides with a/ and b/ too; only strip when both names carry them.
  const git =
    patch.isGit === true ||
    (patch.oldFileName?.startsWith("a/") === true && patch.newFileName?.startsWith("b/") === true);
  const oldName = bareName(patch.oldFileName, "a/", git);
  const newName = bareName(patch.newFileName, "b/", git);
  const change: FileChange =
    patch.isCreate || (patch.oldFileName === devNull && newName !== undefined)
      ? "added"
      : patch.isDelete || (patch.newFileName === devNull && oldName !== undefined)
        ? "deleted"
        : oldName !== undefined && newName !== undefined && oldName !== newName
          ? patch.isCopy
            ? "copied"
            : "renamed"
          : "modified";
  const path = newName ?? oldName ?? fallbackPath;
  return fileOf(
    {
      path,
      oldPath: change === "renamed" || change === "copied" ? oldName : undefined,
      change,
      binary: patch.isBinary === true,
    },
    patch.hunks,
  );
}

function parseSection(section: string, fallbackPath: string): ParsedDiffFile[] {
  try {
    return parsePatch(section).map((patch) => fromStructuredPatch(patch, fallbackPath));
  } catch (error) {
    return [
      {
        path: fallbackPath,
        change: "modified",
        binary: false,
        hunks: [],
        added: 0,
        removed: 0,
        unparsed: section,
        problem: error instanceof Error ? error.message : String(error),
      },
    ];
  }
}

/** The files a `DiffFile` changes: one for texts, as many as its patch names for a patch. */
export function parseDiffFile(file: DiffFile): ParsedDiffFile[] {
  if (file.patch === undefined) return [diffTexts(file)];
  return splitPatchSections(file.patch).flatMap((section) => parseSection(section, file.path));
}

/** A unified diff of several files as one `DiffFile` per file, each holding its own part of the patch. */
export function splitPatch(patch: string): DiffFile[] {
  return splitPatchSections(patch).map((section) => ({
    path: parseSection(section, "")[0]?.path ?? "",
    patch: section,
  }));
}

/** Totals over files already parsed. */
export function totalChanges(files: readonly ParsedDiffFile[]): DiffSummary {
  let added = 0;
  let removed = 0;
  for (const file of files) {
    added += file.added;
    removed += file.removed;
  }
  return { files: files.length, added, removed };
}

/** How many files `files` change and how many lines they add and remove. */
export function summarizeDiff(files: readonly DiffFile[]): DiffSummary {
  return totalChanges(files.flatMap(parseDiffFile));
}
