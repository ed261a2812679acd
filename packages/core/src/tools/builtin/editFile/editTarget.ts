import { readFile } from "node:fs/promises";
import { type ErrorCode, errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { binaryExtensionOf, binarySniffBytes, containsNulByte } from "../../../fileSystem/binaryFiles.js";
import { writeProjectFile } from "../../../fileSystem/projectFiles.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { sha256Hex } from "../../fileReadLedger.js";
import { missingFileMessage } from "../../missingFile.js";
import { staleFileError } from "../../staleFileCheck.js";
import type { ToolContext } from "../../tool.js";

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
  const binaryExtension = binaryExtensionOf(absPath);
  if (binaryExtension !== undefined) {
    return fail(
      "E_BINARY_FILE",
      `${displayPath} is a binary file (${binaryExtension}); ${toolName} edits text files only.`,
    );
  }
  if (stats.size > maxEditableBytes) {
    const message = `${displayPath} is ${stats.size.toLocaleString("en-US")} bytes, more than ${toolName} edits (${maxEditableBytes.toLocaleString("en-US")}); change it with a command instead.`;
    return fail("E_FILE_TOO_LARGE", message);
  }

  const bytes = await readFile(absPath);
  if (containsNulByte(bytes.subarray(0, binarySniffBytes))) {
    return fail(
      "E_BINARY_FILE",
      `${displayPath} is a binary file (it contains NUL bytes); ${toolName} edits text files only.`,
    );
  }
  let content: string;
  try {
    // Strict: decoding invalid UTF-8 leniently would rewrite the bytes around the edit too.
    content = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return fail(
      "E_BINARY_FILE",
      `${displayPath} is not valid UTF-8 text; ${toolName} edits UTF-8 text files only.`,
    );
  }

  // Checked after the contents: asking to read first a file that can never be edited goes in circles.
  const stale = await staleFileError(ctx.fileReads, absPath, displayPath, "edit");
  if (stale !== undefined) return { ok: false, error: stale };
  return { ok: true, absPath, displayPath, content };
}

/** The error for editing a file that does not exist. */
export async function missingTarget(absPath: string, displayPath: string): Promise<LatheErrorInfo> {
  const message = await missingFileMessage(absPath, displayPath);
  return errorInfo("E_FILE_NOT_FOUND", `${message} To create a file, give an empty old_string.`);
}

/**
 * Writes atomically inside the project (mode kept, parents created) and notes the write, so the
 * next edit needs no read. An error when the path no longer leads inside the project.
 */
export async function saveEditedFile(
  absPath: string,
  content: string,
  ctx: ToolContext,
): Promise<LatheErrorInfo | undefined> {
  const bytes = Buffer.from(content, "utf8");
  const saved = await writeProjectFile(ctx.projectRoot, absPath, bytes);
  if (!saved.ok) return saved.error;
  const written = saved.value;
  ctx.fileReads.noteWrite(absPath, { mtimeMs: written.mtimeMs, size: written.size, hash: sha256Hex(bytes) });
  return undefined;
}

/** "1 line", "3 lines". */
export function lineCount(count: number): string {
  return `${count} ${count === 1 ? "line" : "lines"}`;
}
