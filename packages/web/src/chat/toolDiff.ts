import { type DiffFile, parseDiffFile, splitPatch } from "../render/index.js";

type Args = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Turns an `apply_patch` envelope (`*** Begin Patch` … `*** End Patch`) into before/after texts
 * per file: context and removed lines make the before, context and added lines the after. The
 * texts are the patched region, not whole files, which is all the card needs to show.
 */
export function envelopeFiles(patch: string): DiffFile[] {
  const files: DiffFile[] = [];
  let current: { path: string; old: string[]; next: string[]; kind: "add" | "update" | "delete" } | undefined;
  const finish = () => {
    if (!current) return;
    const join = (lines: string[]) => (lines.length === 0 ? "" : `${lines.join("\n")}\n`);
    files.push({
      path: current.path,
      oldText: current.kind === "add" ? undefined : join(current.old),
      newText: current.kind === "delete" ? undefined : join(current.next),
    });
    current = undefined;
  };
  for (const line of patch.split("\n")) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      finish();
      current = {
        path: header[2]!.trim(),
        old: [],
        next: [],
        kind: header[1] === "Add" ? "add" : header[1] === "Update" ? "update" : "delete",
      };
      continue;
    }
    if (!current || line.startsWith("***") || line.startsWith("@@")) continue;
    const body = line.slice(1);
    if (line.startsWith("+")) current.next.push(body);
    else if (line.startsWith("-")) current.old.push(body);
    else if (line.startsWith(" ")) {
      current.old.push(body);
      current.next.push(body);
    }
  }
  finish();
  return files;
}

/**
 * An edit's strings are fragments of a file, not whole files: when both end without a newline the
 * file goes on after them, so the diff must not say "no newline at end of file".
 */
function fragment(path: string, old: string, next: string): DiffFile {
  if (old === "") return { path, newText: next };
  const open = !old.endsWith("\n") && !next.endsWith("\n");
  return open ? { path, oldText: `${old}\n`, newText: `${next}\n` } : { path, oldText: old, newText: next };
}

/** What an edit call changes, for the card's diff view; empty for tools that change no file. */
export function toolDiffFiles(name: string, args: unknown): DiffFile[] {
  if (typeof args !== "object" || args === null) return [];
  const input = args as Args;
  const path = text(input.path);
  switch (name) {
    case "edit_file": {
      const old = text(input.old_string);
      const next = text(input.new_string);
      if (!path || old === undefined || next === undefined) return [];
      return [fragment(path, old, next)];
    }
    case "multi_edit": {
      if (!path || !Array.isArray(input.edits)) return [];
      return input.edits.flatMap((edit: unknown) => {
        const entry = (edit ?? {}) as Args;
        const old = text(entry.old_string);
        const next = text(entry.new_string);
        if (old === undefined || next === undefined) return [];
        return [fragment(path, old, next)];
      });
    }
    case "write_file": {
      const contents = text(input.contents);
      return path && contents !== undefined ? [{ path, newText: contents }] : [];
    }
    case "apply_patch":
      return envelopeFiles(text(input.patch) ?? "");
    default:
      return [];
  }
}

/** Tools whose output, once they ran, reports the change as a unified diff of the whole file. */
const diffReportingTools = new Set(["edit_file", "multi_edit", "apply_patch"]);

/**
 * The unified diff an edit tool wrote into its output (after its summary, before any lint note):
 * line numbers and context from the real file, where the call's arguments only know fragments.
 * Empty when there is none, or when it does not parse (an output cut short).
 */
export function reportedDiffFiles(name: string, output: string): DiffFile[] {
  if (!diffReportingTools.has(name)) return [];
  const lines = output.split("\n");
  const start = lines.findIndex((line, at) => line.startsWith("--- ") && lines[at + 1]?.startsWith("+++ "));
  if (start < 0) return [];
  // A hunk has no empty line (an empty context line is a single space): the first one ends the diff.
  const end = lines.indexOf("", start);
  const files = splitPatch(`${lines.slice(start, end < 0 ? undefined : end).join("\n")}\n`);
  const parsed = files.flatMap(parseDiffFile);
  return parsed.length > 0 && parsed.every((file) => file.unparsed === undefined) ? files : [];
}
