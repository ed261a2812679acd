import type { EditorState } from "@lathe/protocol";
import { largestFitting, numberedLines, splitLines, tagged } from "./contextText.js";
import type { ProjectTextFile } from "./projectFile.js";
import { normalize, type SourceContext } from "./sourceContext.js";

type OpenFile = EditorState["openFiles"][number];

/**
 * The files open in the editor, the active one first (seed 001 D1 priority 1): what the user is
 * most likely asking about. Each may take min(openFileShare of what is left, maxOpenFileTokens),
 * so one huge file cannot crowd out everything after it; a file over its share shows its head.
 */
export async function addOpenFiles(context: SourceContext): Promise<void> {
  const { assembly, settings } = context;
  let shownFiles = 0;
  for (const file of openFilesActiveFirst(context.editor)) {
    if (shownFiles >= settings.maxOpenFiles) break;
    const entry = await context.read(file.path);
    if (!entry.ok) {
      context.notes.push(`Open file ${file.path} is not shown: ${entry.error.message}`);
      continue;
    }
    if (entry.kind !== "file") continue;

    const cap = Math.min(
      Math.floor(assembly.remaining * settings.openFileShare),
      settings.maxOpenFileTokens,
      assembly.remaining,
    );
    const lines = splitLines(entry.text);
    const render = (count: number) => openFileSection(entry, file, lines, count);
    const count = largestFitting(lines.length, (n) => context.countTokens(render(n)) <= cap);
    if (count < 0 || (count === 0 && lines.length > 0)) {
      context.notes.push(`Open file ${entry.relative} is not shown: no room left in the context budget.`);
      continue;
    }
    if (!assembly.add({ source: "open_files", text: render(count), items: 1, files: [entry.relative] }))
      continue;
    shownFiles++;
    const complete = count === lines.length && entry.complete;
    context.shown.set(entry.relative, { complete });
    if (complete && entry.snapshot !== undefined) context.fileReads?.noteRead(entry.absolute, entry.snapshot);
  }
}

/** The active file first, then the others as the editor ordered them (most recently focused first). */
export function openFilesActiveFirst(editor: EditorState | undefined): OpenFile[] {
  const files = editor?.openFiles ?? [];
  const active = activePath(editor);
  const ordered = [
    ...files.filter((file) => normalize(file.path) === active),
    ...files.filter((file) => normalize(file.path) !== active),
  ];
  const seen = new Set<string>();
  return ordered.filter((file) => {
    const key = normalize(file.path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The active file as the editor names it, or else the first open file. */
export function activePath(editor: EditorState | undefined): string | undefined {
  const path = editor?.activeFile ?? editor?.openFiles[0]?.path;
  return path === undefined ? undefined : normalize(path);
}

function openFileSection(
  entry: ProjectTextFile,
  file: OpenFile,
  lines: readonly string[],
  count: number,
): string {
  const cursor = file.cursor === undefined ? undefined : `${file.cursor.line}:${file.cursor.column}`;
  const parts: string[] = [];
  if (lines.length === 0 && entry.complete) parts.push("(empty file)");
  if (count > 0) parts.push(numberedLines(lines.slice(0, count), 1));
  if (count < lines.length || !entry.complete) {
    const rest = entry.complete ? `${count + 1}-${lines.length}` : `${count + 1} and on`;
    parts.push(`[Lines ${rest} are not shown; read_file with offset=${count + 1} reads them.]`);
  }
  return tagged("open_file", { path: entry.relative, cursor }, parts.join("\n"));
}
