import type { Stats } from "node:fs";
import { type ErrorCode, errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { statIfExists } from "../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../policy/pathGuard.js";
import { type FileReadLedger, sha256Hex } from "../fileReadLedger.js";
import { missingFileMessage } from "../missingFile.js";
import { writeProjectText } from "../projectTextWrite.js";
import { staleFileError } from "../staleFileCheck.js";
import type { ToolContext } from "../tool.js";
import { binaryNameError, readStrictText } from "./strictTextFile.js";

/** Far beyond any real old_string or new_string; stops a runaway argument before it is matched. */
export const maxEditStringChars = 1_000_000;

/** Matching holds the whole file in memory several times over; larger files are rewritten, not edited. */
const maxEditableBytes = 10 * 1024 * 1024;

/** The file an edit tool works on: its text when it exists, after every check that guards it. */
export type EditTarget =
  | { ok: true; absPath: string; displayPath: string; content: string | undefined }
  | { ok: false; error: LatheErrorInfo };

/**
 * Resolves and reads the file to edit, refusing what may not be edited: paths outside the
 * project, directories, binary or huge files, and files the model has not read or that changed
 * since it read them (SPEC §4). A missing file is `content: undefined`, for the caller to decide.
 */
export async function loadEditTarget(
  inputPath: string,
  ctx: ToolContext,
  toolName: string,
): Promise<EditTarget> {
  const guarded = await resolveProjectPath(ctx.projectRoot, inputPath);
  if (!guarded.ok) return guarded;
  const { path: absPath, relative: displayPath } = guarded;
  const fail = (code: ErrorCode, message: string): EditTarget => ({
    ok: false,
    error: errorInfo(code, message),
  });

  const stats = await statIfExists(absPath);
  if (stats === undefined) return { ok: true, absPath, displayPath, content: undefined };
  if (stats.isDirectory())
    return fail("E_INVALID_ARGS", `${displayPath} is a directory; give the path of a file.`);
  const binaryName = binaryNameError(absPath, displayPath, `${toolName} edits`);
  if (binaryName !== undefined) return { ok: false, error: binaryName };
  if (stats.size > maxEditableBytes) {
    const message = `${displayPath} is ${stats.size.toLocaleString("en-US")} bytes, more than ${toolName} edits (${maxEditableBytes.toLocaleString("en-US")}); change it with a command instead.`;
    return fail("E_FILE_TOO_LARGE", message);
  }
  const file = await readStrictText(absPath, displayPath, `${toolName} edits`);
  if (!file.ok) return file;

  // Checked after the contents: asking to read first a file that can never be edited goes in circles.
  const stale = await staleFileError(ctx.fileReads, absPath, displayPath, "edit");
  if (stale !== undefined) return { ok: false, error: stale };
  return { ok: true, absPath, displayPath, content: (await editorText(absPath, ctx)) ?? file.text };
}

/**
 * The editor's text of a file, when the editor also takes the write: the edit is made to what the
 * user sees, so their unsaved typing is kept rather than overwritten by the disk's older text.
 */
async function editorText(absPath: string, ctx: ToolContext): Promise<string | undefined> {
  if (!ctx.editorBuffers?.write) return undefined;
  return ctx.editorBuffers.read(absPath, ctx.signal).catch(() => undefined);
}

/** The error for editing a file that does not exist. */
export async function missingTarget(absPath: string, displayPath: string): Promise<LatheErrorInfo> {
  const message = await missingFileMessage(absPath, displayPath);
  return errorInfo("E_FILE_NOT_FOUND", `${message} To create a file, give an empty old_string.`);
}

/**
 * Writes atomically inside the project (mode kept, parents created; through the editor too, when
 * it takes writes) and notes the write, so the next edit needs no read. An error when the path no
 * longer leads inside the project.
 */
export async function saveEditedFile(
  absPath: string,
  content: string,
  ctx: ToolContext,
): Promise<LatheErrorInfo | undefined> {
  const saved = await writeProjectText(ctx, absPath, content);
  if (!saved.ok) return saved.error;
  noteWrittenFile(ctx.fileReads, absPath, saved.value, Buffer.from(content, "utf8"));
  return undefined;
}

/** A file a tool wrote is as the model intended it, so it may change it again without a read. */
export function noteWrittenFile(
  fileReads: FileReadLedger,
  absPath: string,
  written: Stats,
  bytes: Uint8Array,
): void {
  fileReads.noteWrite(absPath, { mtimeMs: written.mtimeMs, size: written.size, hash: sha256Hex(bytes) });
}

/** "1 line", "3 lines". */
export function lineCount(count: number): string {
  return `${count} ${count === 1 ? "line" : "lines"}`;
}
