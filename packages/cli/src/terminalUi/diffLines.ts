/** One line of a change. */
export interface DiffLine {
  kind: "add" | "del" | "context";
  /** The line without its `+`, `-` or space. */
  text: string;
  /** Its line in the file: the old file's for a removed line, the new file's otherwise. Absent when not known. */
  number?: number;
}

/** One file's change as runs of lines (hunks); between two hunks the file goes on unshown. */
export interface FileDiff {
  path: string;
  hunks: DiffLine[][];
  /** Said instead of lines, for a change that has none to show ("deleted"). */
  note?: string;
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The files of a unified diff (`---`/`+++` headers, `@@` hunks), numbered from the hunk headers.
 * Hunk bodies are read by their line counts, so a removed line reading `-- x` is not taken for a
 * header; a diff cut short keeps the lines it has.
 */
export function unifiedDiffFiles(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  const lines = text.split("\n");
  let hunk: DiffLine[] | undefined;
  let oldNumber = 0;
  let newNumber = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? "";
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      if (line.startsWith("+")) {
        hunk.push({ kind: "add", text: line.slice(1), number: newNumber++ });
        newLeft--;
      } else if (line.startsWith("-")) {
        hunk.push({ kind: "del", text: line.slice(1), number: oldNumber++ });
        oldLeft--;
      } else if (line.startsWith(" ") || line === "") {
        hunk.push({ kind: "context", text: line.slice(1), number: newNumber++ });
        oldNumber++;
        oldLeft--;
        newLeft--;
      } else if (!line.startsWith("\\")) hunk = undefined;
      continue;
    }
    const next = lines[at + 1];
    if (line.startsWith("--- ") && next?.startsWith("+++ ")) {
      files.push({ path: headerPath(line.slice(4), next.slice(4)), hunks: [] });
      hunk = undefined;
      at++;
      continue;
    }
    const header = hunkHeader.exec(line);
    const file = files.at(-1);
    if (!header || !file) continue;
    hunk = [];
    file.hunks.push(hunk);
    oldNumber = Number(header[1]);
    newNumber = Number(header[3]);
    oldLeft = header[2] === undefined ? 1 : Number(header[2]);
    newLeft = header[4] === undefined ? 1 : Number(header[4]);
  }
  for (const file of files) file.hunks = file.hunks.filter((lines) => lines.length > 0);
  return files;
}

/** The path a `---`/`+++` pair names: the new side's, without git's `b/`; the old side's for a deletion. */
function headerPath(oldName: string, newName: string): string {
  const name = (side: string) => side.split("\t")[0]?.trim() ?? "";
  const path = name(newName) === "/dev/null" ? name(oldName) : name(newName);
  return path.replace(/^[ab]\//, "");
}

/** A whole file's text as added lines, numbered from 1: a new file, or one written over. */
export function writtenFile(path: string, contents: string): FileDiff {
  const lines = linesOf(contents);
  return {
    path,
    hunks: lines.length === 0 ? [] : [lines.map((text, index) => ({ kind: "add", text, number: index + 1 }))],
  };
}

/**
 * An edit's old and new text as lines, unnumbered (where they sit in the file is not known): the
 * lines both share at the start and end as context, the rest removed then added.
 */
export function replacedLines(oldText: string, newText: string): DiffLine[] {
  const before = linesOf(oldText);
  const after = linesOf(newText);
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  const context = (text: string): DiffLine => ({ kind: "context", text });
  return [
    ...before.slice(0, start).map(context),
    ...before.slice(start, before.length - end).map((text): DiffLine => ({ kind: "del", text })),
    ...after.slice(start, after.length - end).map((text): DiffLine => ({ kind: "add", text })),
    ...before.slice(before.length - end).map(context),
  ];
}

/** The lines of a text; a final line break ends the last line rather than starting one. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\n$/, "").split("\n");
}
