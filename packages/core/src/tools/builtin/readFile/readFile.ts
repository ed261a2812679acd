import { open } from "node:fs/promises";
import path from "node:path";
import { errorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { binaryExtensionOf, binarySniffBytes, containsNulByte } from "../../../fileSystem/binaryFiles.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { missingFileError } from "../../missingFile.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { bytesSource, type LineWindow, readLineWindow, type WindowLine } from "./lineWindow.js";

const defaultLineLimit = 2000;
const maxLineChars = 2000;
/** Room kept under the byte cap for the footer line. */
const footerReserveBytes = 256;

const readFileSchema = builtinToolSchema("read_file", () =>
  z.object({
    path: z.string().min(1),
    offset: z.number().int().min(1).optional().describe("First line, 1-based."),
    limit: z.number().int().min(1).optional().describe(`Lines to read (default ${defaultLineLimit}).`),
  }),
);

type ReadFileArgs = z.infer<typeof readFileSchema>;

export const readFileTool = defineTool({
  name: "read_file",
  description: toolPrompt(assetUrl("tools/builtin/readFile/readFile.md")),
  schema: readFileSchema,
  kind: "read",
  risk: () => "safe",
  timeoutMs: 60_000,
  truncation: "head",
  execute: readFile,
});

async function readFile(args: ReadFileArgs, ctx: ToolContext): Promise<ToolResult> {
  // Spilled tool output is the one place outside the project that may be read.
  const spillRoot = path.join(ctx.latheHome, "tool-output");
  const guarded = await resolveProjectPath(ctx.projectRoot, args.path, { extraRoots: [spillRoot] });
  if (!guarded.ok) return { ok: false, error: guarded.error };
  const { path: absPath, relative: displayPath } = guarded;

  const stats = await statIfExists(absPath);
  if (stats === undefined) {
    return {
      ok: false,
      error: await missingFileError(absPath, displayPath),
    };
  }
  if (stats.isDirectory()) {
    const message = `${displayPath} is a directory, not a file. Use list_directory to see what it contains.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  const binaryExtension = binaryExtensionOf(absPath);
  if (binaryExtension !== undefined) {
    const message = `${displayPath} is a binary file (${binaryExtension}); read_file shows text files only.`;
    return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
  }

  // Asked first: the editor answers while the disk is read, and its text wins where they differ.
  const buffered = ctx.editorBuffers?.read(absPath, ctx.signal).catch(() => undefined);
  const handle = await open(absPath, "r");
  try {
    const before = await handle.stat();
    const sniff = Buffer.alloc(binarySniffBytes);
    const { bytesRead: sniffed } = await handle.read(sniff, 0, binarySniffBytes, 0);
    if (containsNulByte(sniff.subarray(0, sniffed))) {
      const message = `${displayPath} is a binary file (it contains NUL bytes); read_file shows text files only.`;
      return { ok: false, error: errorInfo("E_BINARY_FILE", message) };
    }

    const from = args.offset ?? 1;
    const limit = args.limit ?? defaultLineLimit;
    const onDisk = await readLineWindow(handle, from, limit, maxLineChars);
    // The size actually read, so a file that grew while being read counts as changed later. The
    // disk's state is noted even when the editor's is shown: writes go to the disk.
    ctx.fileReads.noteRead(absPath, { mtimeMs: before.mtimeMs, size: onDisk.bytesRead, hash: onDisk.hash });
    const window = (await unsavedWindow(await buffered, onDisk, from, limit)) ?? onDisk;
    const unsaved = window !== onDisk;

    if (window.totalLines === 0)
      return { ok: true, output: `[${displayPath} is empty.]`, metadata: { lines: 0 } };
    if (from > window.totalLines) {
      const message = `offset ${from} is past the end of ${displayPath}, which has ${window.totalLines} lines.`;
      return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
    }
    const shown = formatWindow(window.lines, from, window.totalLines, ctx);
    if (!unsaved) return { ok: true, ...shown };
    return {
      ok: true,
      output: `${shown.output}\n[This is ${displayPath} as open in the editor, with changes not saved to disk yet.]`,
      metadata: { ...shown.metadata, unsaved: true },
    };
  } finally {
    await handle.close();
  }
}

/** The editor's text of the file when it differs from the disk's, as a window like the disk's. */
async function unsavedWindow(
  text: string | undefined,
  onDisk: LineWindow,
  from: number,
  limit: number,
): Promise<LineWindow | undefined> {
  if (text === undefined) return undefined;
  const bytes = Buffer.from(text, "utf8");
  const window = await readLineWindow(bytesSource(bytes), from, limit, maxLineChars);
  return window.hash === onDisk.hash ? undefined : window;
}

/**
 * Numbers the lines and stops at the output caps, so a read never needs spilling: whatever is
 * left is reachable with offset, which the footer spells out.
 */
function formatWindow(
  lines: readonly WindowLine[],
  from: number,
  totalLines: number,
  ctx: Pick<ToolContext, "outputLimits">,
): { output: string; metadata: Record<string, unknown> } {
  const { maxLines } = ctx.outputLimits;
  const maxBytes = ctx.outputLimits.maxBytes - footerReserveBytes;
  const rendered: string[] = [];
  let bytes = 0;
  for (const [index, line] of lines.entries()) {
    const text = `${String(from + index).padStart(6)}|${line.text}${line.cut ? cutMarker(line) : ""}`;
    const lineBytes = Buffer.byteLength(text) + 1;
    if (rendered.length >= maxLines || (rendered.length > 0 && bytes + lineBytes > maxBytes)) break;
    rendered.push(text);
    bytes += lineBytes;
  }
  const needsFooter = from > 1 || from + rendered.length - 1 < totalLines;
  // The footer is itself a line of output and must fit under the line cap too.
  if (needsFooter && rendered.length >= maxLines && rendered.length > 1) rendered.pop();

  const last = from + rendered.length - 1;
  const metadata = { firstLine: from, lastLine: last, totalLines };
  if (last >= totalLines) {
    if (from === 1) return { output: rendered.join("\n"), metadata };
    return {
      output: [...rendered, `[Lines ${from}-${last} of ${totalLines}; end of file.]`].join("\n"),
      metadata,
    };
  }
  const footer = `[Lines ${from}-${last} of ${totalLines}. The file continues: call read_file with offset=${last + 1} to read more.]`;
  return { output: [...rendered, footer].join("\n"), metadata };
}

function cutMarker(line: WindowLine): string {
  return ` … [line cut at ${maxLineChars.toLocaleString("en-US")} characters; it is ${line.bytes.toLocaleString("en-US")} bytes long]`;
}
