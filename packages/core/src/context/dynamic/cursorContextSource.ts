import { largestFitting, numberedLines, splitLines, tagged } from "./contextText.js";
import { activePath } from "./openFilesSource.js";
import { normalize, type SourceContext } from "./sourceContext.js";

/**
 * The lines around the cursor of the active file (seed 001 D1 priority 2), cursorRadiusLines on
 * each side, fewer when the budget is short. Left out when the whole file is already shown above,
 * with the cursor marked on it: the same lines twice would only cost tokens.
 */
export async function addCursorContext(context: SourceContext): Promise<void> {
  const active = activePath(context.editor);
  const file = context.editor?.openFiles.find((open) => normalize(open.path) === active);
  if (file?.cursor === undefined) return;
  const entry = await context.read(file.path);
  // A file that cannot be shown was already noted by the open files.
  if (!entry.ok || entry.kind !== "file") return;
  if (context.shown.get(entry.relative)?.complete === true) return;

  const lines = splitLines(entry.text);
  if (lines.length === 0) return;
  const { cursor, selection } = file;
  const line = Math.min(cursor.line, lines.length);
  const render = (radius: number) => {
    const from = Math.max(1, line - radius);
    const to = Math.min(lines.length, line + radius);
    const selected =
      selection &&
      `${selection.start.line}:${selection.start.column}-${selection.end.line}:${selection.end.column}`;
    return tagged(
      "cursor_context",
      { path: entry.relative, line: cursor.line, column: cursor.column, selection: selected },
      numberedLines(lines.slice(from - 1, to), from),
    );
  };
  const radius = largestFitting(context.settings.cursorRadiusLines, (r) => context.assembly.fits(render(r)));
  if (radius < 0) return;
  const text = render(radius);
  const items = Math.min(lines.length, line + radius) - Math.max(1, line - radius) + 1;
  context.assembly.add({ source: "cursor_context", text, items, files: [entry.relative] });
}
