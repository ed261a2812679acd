import { type DiffLine, type FileDiff, replacedLines, unifiedDiffFiles, writtenFile } from "./diffLines.js";

type Fields = Record<string, unknown>;

const fieldsOf = (args: unknown): Fields =>
  args !== null && typeof args === "object" ? (args as Fields) : {};
const text = (fields: Fields, key: string) =>
  typeof fields[key] === "string" ? (fields[key] as string) : undefined;

/** Tools whose output, once they ran, reports the change as a unified diff of the whole file. */
const diffReportingTools = new Set(["edit_file", "multi_edit", "apply_patch"]);

/**
 * What a finished edit changed, for its card. The diff the tool wrote into its output where
 * there is one: it numbers the lines as they are in the file. A file written whole is numbered
 * from its first line; a file `apply_patch` added is not in its diffs, so it comes from the patch.
 */
export function completedDiff(name: string, args: unknown, output: string): FileDiff[] {
  const fields = fieldsOf(args);
  if (name === "write_file") return proposedDiff(args);
  if (!diffReportingTools.has(name)) return [];
  const reported = unifiedDiffFiles(output).filter((file) => file.hunks.length > 0);
  if (name === "apply_patch") {
    // Its output has diffs of the files it changed, not of those it added or deleted.
    const others = patchFiles(text(fields, "patch") ?? "").filter(({ action }) => action !== "update");
    return [...reported, ...others.map(({ file }) => file)];
  }
  return reported.length > 0 ? reported : proposedDiff(args);
}

/**
 * What a call's arguments say it will change, before it runs: a file's new contents, an edit's
 * old and new text, a patch's hunks. Only a file written whole or added by a patch has line
 * numbers; an edit's place in its file is not known yet. Empty for a call that edits nothing.
 */
export function proposedDiff(args: unknown): FileDiff[] {
  const fields = fieldsOf(args);
  const path = text(fields, "path") ?? "";
  const contents = text(fields, "contents");
  if (contents !== undefined) return [writtenFile(path, contents)];
  const oldText = text(fields, "old_string");
  const newText = text(fields, "new_string");
  if (oldText !== undefined && newText !== undefined)
    return [{ path, hunks: [replacedLines(oldText, newText)] }];
  if (Array.isArray(fields.edits)) {
    const hunks = fields.edits.map((edit: unknown) => {
      const entry = fieldsOf(edit);
      return replacedLines(text(entry, "old_string") ?? "", text(entry, "new_string") ?? "");
    });
    return [{ path, hunks }];
  }
  const patch = text(fields, "patch");
  return patch === undefined ? [] : patchFiles(patch).map(({ file }) => file);
}

type PatchAction = "add" | "update" | "delete";

/**
 * The files of an `apply_patch` envelope (`*** Add File:` … `*** End Patch`): an added file's
 * lines numbered from 1, an updated file's hunks as written (`@@` starts the next), a deleted
 * file as a note.
 */
function patchFiles(patch: string): { file: FileDiff; action: PatchAction }[] {
  const files: { file: FileDiff; action: PatchAction }[] = [];
  let current: { file: FileDiff; action: PatchAction; hunk: DiffLine[] } | undefined;
  for (const line of patch.split("\n")) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      const action: PatchAction = header[1] === "Add" ? "add" : header[1] === "Delete" ? "delete" : "update";
      const hunk: DiffLine[] = [];
      const file: FileDiff = { path: (header[2] ?? "").trim(), hunks: [hunk] };
      if (action === "delete") file.note = "deleted";
      current = { file, action, hunk };
      files.push({ file, action });
      continue;
    }
    if (line.startsWith("*** End Patch")) current = undefined;
    if (!current || current.action === "delete" || line.startsWith("***")) continue;
    if (line.startsWith("@@")) {
      if (current.hunk.length > 0) {
        current.hunk = [];
        current.file.hunks.push(current.hunk);
      }
      continue;
    }
    const kind = line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "context";
    const entry: DiffLine = { kind, text: line.slice(1) };
    if (current.action === "add") entry.number = current.hunk.length + 1;
    current.hunk.push(entry);
  }
  for (const { file } of files) file.hunks = file.hunks.filter((lines) => lines.length > 0);
  return files;
}
