import { largestFitting, numberedLines, splitLines, tagged } from "./contextText.js";
import type { ProjectTextFile } from "./projectFile.js";
import { normalize, type SourceContext } from "./sourceContext.js";

/**
 * A file the agent changed this session, newest first: a relative path, or with the line of the
 * last change when the caller knows it, so the lines around it are shown rather than the head.
 */
export type RecentEdit = string | { path: string; line?: number };

/**
 * The agent's own recent edits (seed 001 D1 priority 5), at most maxRecentEdits files of
 * recentEditLines lines each, as they are now. Files already shown whole above are skipped.
 */
export async function addRecentEdits(context: SourceContext, edits: readonly RecentEdit[]): Promise<void> {
  const items: string[] = [];
  const files: string[] = [];
  const seen = new Set<string>();
  const render = (more: readonly string[]) => tagged("recent_edits", {}, [...items, ...more].join("\n"));
  for (const edit of edits) {
    if (items.length >= context.settings.maxRecentEdits) break;
    const { path, line } = typeof edit === "string" ? { path: edit, line: undefined } : edit;
    if (seen.has(normalize(path))) continue;
    seen.add(normalize(path));

    const entry = await context.read(path);
    if (!entry.ok) {
      if (entry.error.code === "E_FILE_NOT_FOUND") {
        const gone = tagged("file", { path: normalize(path) }, "[deleted since it was edited]");
        if (context.assembly.fits(render([gone]))) items.push(gone);
      } else context.notes.push(`Recently edited ${path} is not shown: ${entry.error.message}`);
      continue;
    }
    if (entry.kind !== "file" || context.shown.get(entry.relative)?.complete === true) continue;

    const lines = splitLines(entry.text);
    const item = (count: number) => editedFileItem(entry, lines, count, line);
    const wanted = Math.min(lines.length, context.settings.recentEditLines);
    const count = largestFitting(wanted, (n) => context.assembly.fits(render([item(n)])));
    if (count < 0 || (count === 0 && lines.length > 0)) break;
    items.push(item(count));
    files.push(entry.relative);
    if (count === lines.length && entry.complete && entry.snapshot !== undefined) {
      context.fileReads?.noteRead(entry.absolute, entry.snapshot);
    }
  }
  if (items.length === 0) return;
  context.assembly.add({ source: "recent_edits", text: render([]), items: items.length, files });
}

/** `count` lines: the head, or centred on `line` and kept inside the file. */
function editedFileItem(
  entry: ProjectTextFile,
  lines: readonly string[],
  count: number,
  line: number | undefined,
): string {
  if (lines.length === 0) return tagged("file", { path: entry.relative }, "(empty file)");
  const centred = line === undefined ? 1 : line - Math.floor((count - 1) / 2);
  const from = Math.max(1, Math.min(centred, lines.length - count + 1));
  const to = Math.min(lines.length, from + count - 1);
  const range =
    from === 1 && to === lines.length && entry.complete ? undefined : `${from}-${to} of ${lines.length}`;
  return tagged(
    "file",
    { path: entry.relative, lines: range },
    numberedLines(lines.slice(from - 1, to), from),
  );
}
