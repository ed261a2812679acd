import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

export type HunkLineKind = "context" | "add" | "remove";

export interface HunkLine {
  kind: HunkLineKind;
  text: string;
}

export interface PatchHunk {
  /** Line of the patch where the hunk starts, for messages. */
  patchLine: number;
  /** `@@ <line>` anchors, sought in order before the hunk's own lines. */
  anchors: string[];
  lines: HunkLine[];
  /** `*** End of File`: the hunk's lines end the file. */
  endOfFile: boolean;
}

export type PatchOperation =
  | { type: "add"; path: string; patchLine: number; lines: string[] }
  | { type: "delete"; path: string; patchLine: number }
  | { type: "update"; path: string; patchLine: number; moveTo: string | undefined; hunks: PatchHunk[] };

export type ParsedPatch = { ok: true; operations: PatchOperation[] } | { ok: false; error: LatheErrorInfo };

const beginMarker = "*** Begin Patch";
const endMarker = "*** End Patch";
const addMarker = "*** Add File: ";
const deleteMarker = "*** Delete File: ";
const updateMarker = "*** Update File: ";
const moveMarker = "*** Move to: ";
const endOfFileMarker = "*** End of File";
/** Some models write unified-diff hunk headers (`@@ -3,7 +3,8 @@ name`); the numbers are dropped. */
const unifiedHunkHeader = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;
/** Models sometimes wrap the patch in the heredoc they would give a shell. */
const heredocStart = /^<<\s*(['"]?)EOF\1$/;

class PatchSyntaxError extends Error {
  constructor(
    readonly patchLine: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses the `*** Begin Patch` format (as used by OpenAI's Codex) in full before anything is
 * checked against the disk. Errors name the patch line, counted from 1 in the text as given.
 * Lenient where the meaning is unambiguous: blank lines around markers and between sections, a
 * heredoc wrapper, CRLF patch text, several `@@` anchors in a row, unified-diff hunk headers.
 */
export function parsePatch(patch: string): ParsedPatch {
  try {
    return { ok: true, operations: new PatchReader(patch).readOperations() };
  } catch (error) {
    if (!(error instanceof PatchSyntaxError)) throw error;
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `Invalid patch at line ${error.patchLine}: ${error.message}`),
    };
  }
}

class PatchReader {
  private readonly lines: string[];
  /** Index of the next unread line. */
  private index: number;
  /** Index of the `*** End Patch` line. */
  private readonly end: number;

  constructor(patch: string) {
    this.lines = patch.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
    let first = this.lines.findIndex((line) => line.trim() !== "");
    let last = this.lines.findLastIndex((line) => line.trim() !== "");
    if (first === -1)
      throw new PatchSyntaxError(1, `the patch is empty; it must start with '${beginMarker}'.`);
    const wrapped = heredocStart.test(this.lines[first]?.trim() ?? "") && this.lines[last]?.trim() === "EOF";
    if (wrapped && last - first >= 3) {
      first++;
      last--;
    }
    if (this.lines[first]?.trim() !== beginMarker) {
      throw new PatchSyntaxError(
        first + 1,
        `the first line must be '${beginMarker}', found '${this.lines[first]}'.`,
      );
    }
    if (this.lines[last]?.trim() !== endMarker || last === first) {
      throw new PatchSyntaxError(
        last + 1,
        `the last line must be '${endMarker}', found '${this.lines[last]}'.`,
      );
    }
    this.index = first + 1;
    this.end = last;
  }

  readOperations(): PatchOperation[] {
    const operations: PatchOperation[] = [];
    for (;;) {
      this.skipBlankLines();
      if (this.index >= this.end) break;
      operations.push(this.readOperation());
    }
    if (operations.length === 0) {
      throw new PatchSyntaxError(
        this.end + 1,
        "the patch has no file sections between its first and last lines.",
      );
    }
    return operations;
  }

  private readOperation(): PatchOperation {
    const patchLine = this.index + 1;
    const header = this.peek().trim();
    this.index++;
    if (opens(header, addMarker)) {
      const path = this.pathOf(header, addMarker, patchLine);
      const lines: string[] = [];
      while (this.index < this.end && this.peek().startsWith("+")) lines.push(this.next().slice(1));
      return { type: "add", path, patchLine, lines };
    }
    if (opens(header, deleteMarker)) {
      return { type: "delete", path: this.pathOf(header, deleteMarker, patchLine), patchLine };
    }
    if (opens(header, updateMarker)) {
      const path = this.pathOf(header, updateMarker, patchLine);
      let moveTo: string | undefined;
      if (this.index < this.end && opens(this.peek().trim(), moveMarker)) {
        const moveLine = this.index + 1;
        moveTo = this.pathOf(this.next().trim(), moveMarker, moveLine);
      }
      const hunks = this.readHunks();
      if (hunks.length === 0 && moveTo === undefined) {
        throw new PatchSyntaxError(patchLine, `the Update File section for '${path}' has no hunks.`);
      }
      return { type: "update", path, patchLine, moveTo, hunks };
    }
    throw new PatchSyntaxError(patchLine, unexpectedHeaderMessage(header));
  }

  private readHunks(): PatchHunk[] {
    const hunks: PatchHunk[] = [];
    for (;;) {
      this.skipBlankLines();
      if (this.index >= this.end || this.peek().startsWith("*")) return hunks;
      hunks.push(this.readHunk(hunks.length === 0));
    }
  }

  private readHunk(isFirst: boolean): PatchHunk {
    const patchLine = this.index + 1;
    const anchors: string[] = [];
    let sawHeader = false;
    while (this.index < this.end && this.peek().startsWith("@@")) {
      const anchor = anchorOf(this.next());
      sawHeader = true;
      if (anchor !== undefined) anchors.push(anchor);
    }
    // Codex lets the first hunk of a file start with its lines directly.
    if (!sawHeader && !isFirst) {
      const message = `expected a hunk line (starting with ' ', '-' or '+'), '@@' for a new hunk, or a '*** ' section header; found '${this.peek()}'.`;
      throw new PatchSyntaxError(patchLine, message);
    }
    const lines: HunkLine[] = [];
    let endOfFile = false;
    while (this.index < this.end) {
      const line = this.peek();
      if (line.trim() === endOfFileMarker) {
        this.index++;
        endOfFile = true;
        break;
      }
      const hunkLine = hunkLineOf(line);
      if (hunkLine === undefined) break;
      lines.push(hunkLine);
      this.index++;
    }
    if (lines.length === 0) {
      const found = this.index < this.end ? `found '${this.peek()}'` : "found the end of the patch";
      throw new PatchSyntaxError(
        this.index + 1,
        `expected hunk lines starting with ' ' (context), '-' (removed) or '+' (added); ${found}.`,
      );
    }
    return { patchLine, anchors, lines, endOfFile };
  }

  private pathOf(header: string, marker: string, patchLine: number): string {
    const path = header.slice(marker.length).trim();
    if (path === "") throw new PatchSyntaxError(patchLine, `'${marker.trim()}' needs a path.`);
    return path;
  }

  private skipBlankLines(): void {
    while (this.index < this.end && this.peek().trim() === "") this.index++;
  }

  private peek(): string {
    return this.lines[this.index] ?? "";
  }

  private next(): string {
    const line = this.peek();
    this.index++;
    return line;
  }
}

/** A header opens with its marker; a marker with its path missing still counts, to say so. */
function opens(header: string, marker: string): boolean {
  return header.startsWith(marker) || header === marker.trimEnd();
}

function anchorOf(header: string): string | undefined {
  const unified = unifiedHunkHeader.exec(header);
  const anchor = unified === null ? header.slice(2) : (unified[1] ?? "");
  // "@@ foo" carries "foo"; the single space after "@@" is the separator, not part of the line.
  const text = anchor.startsWith(" ") ? anchor.slice(1) : anchor;
  return text.trim() === "" ? undefined : text;
}

function hunkLineOf(line: string): HunkLine | undefined {
  // An empty line inside a hunk is an empty context line whose leading space got lost.
  if (line === "") return { kind: "context", text: "" };
  const text = line.slice(1);
  switch (line[0]) {
    case " ":
      return { kind: "context", text };
    case "+":
      return { kind: "add", text };
    case "-":
      return { kind: "remove", text };
    default:
      return undefined;
  }
}

function unexpectedHeaderMessage(header: string): string {
  const expected = `expected '${addMarker}<path>', '${deleteMarker}<path>' or '${updateMarker}<path>'`;
  if (header.startsWith("+")) {
    return `${expected}, found '${header}'. In an Add File section every line, blank ones too, starts with '+'.`;
  }
  if (header.startsWith("@@") || header.startsWith("-") || header.startsWith(" ")) {
    return `${expected}, found '${header}'. Hunks belong under an '${updateMarker}<path>' line.`;
  }
  return `${expected}, found '${header}'.`;
}
