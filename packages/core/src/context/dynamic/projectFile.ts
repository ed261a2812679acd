import { open, stat } from "node:fs/promises";
import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { binaryExtensionOf, binarySniffBytes, containsNulByte } from "../../fileSystem/binaryFiles.js";
import { resolveProjectPath } from "../../policy/pathGuard.js";
import { sensitivePathMatch } from "../../policy/sensitivePaths.js";
import { type FileSnapshot, sha256Hex } from "../../tools/fileReadLedger.js";
import { missingFileError } from "../../tools/missingFile.js";

export interface ProjectTextFile {
  ok: true;
  kind: "file";
  /** Relative to the project root, `/` separated. */
  relative: string;
  absolute: string;
  text: string;
  /** False when the file is larger than what was read. */
  complete: boolean;
  /** What was read from disk when it was the whole file; absent for an editor buffer. */
  snapshot?: FileSnapshot;
}

export interface ProjectDirectory {
  ok: true;
  kind: "directory";
  relative: string;
  absolute: string;
}

export type ProjectEntry = ProjectTextFile | ProjectDirectory | { ok: false; error: LatheErrorInfo };

export interface ReadProjectOptions {
  maxBytes: number;
  /** Unsaved editor text: it is what the user sees, so it wins over the disk. */
  unsaved?: string;
}

/**
 * Reads a file a user, an editor or a model named, as context: through the path guard (never
 * outside the project), never a sensitive file (those are read only with the user's approval,
 * through read_file), never a binary one, at most `maxBytes` of it.
 */
export async function readProjectEntry(
  projectRoot: string,
  input: string,
  options: ReadProjectOptions,
): Promise<ProjectEntry> {
  const guarded = await resolveProjectPath(projectRoot, input);
  if (!guarded.ok) return guarded;
  const relative = toPosix(guarded.relative);
  const sensitive = sensitivePathMatch(input, { projectRoot });
  if (sensitive !== undefined) {
    const message = `${relative} is a sensitive file (${sensitive}); it is not put into context. Ask for it to be read with read_file, which asks the user first.`;
    return { ok: false, error: errorInfo("E_SECURITY_BLOCKED", message) };
  }
  const binaryExtension = binaryExtensionOf(relative);
  if (binaryExtension !== undefined) return binary(relative, binaryExtension);
  if (options.unsaved !== undefined) {
    if (options.unsaved.includes("\0")) return binary(relative, "it contains NUL bytes");
    return {
      ok: true,
      kind: "file",
      relative,
      absolute: guarded.path,
      text: options.unsaved,
      complete: true,
    };
  }
  return readFromDisk(guarded.path, relative, options.maxBytes);
}

async function readFromDisk(absolute: string, relative: string, maxBytes: number): Promise<ProjectEntry> {
  try {
    const stats = await stat(absolute);
    if (stats.isDirectory()) return { ok: true, kind: "directory", relative, absolute };
    const handle = await open(absolute, "r");
    try {
      const before = await handle.stat();
      const buffer = Buffer.alloc(Math.min(before.size, maxBytes));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const bytes = buffer.subarray(0, bytesRead);
      if (containsNulByte(bytes.subarray(0, binarySniffBytes)))
        return binary(relative, "it contains NUL bytes");
      const complete = before.size <= maxBytes;
      // A file cut short ends at its last whole line, so no character or line is shown in part.
      const end = complete ? bytes.length : bytes.lastIndexOf(0x0a) + 1;
      const text = bytes.subarray(0, end).toString("utf8");
      const file: ProjectTextFile = { ok: true, kind: "file", relative, absolute, text, complete };
      if (complete) file.snapshot = { mtimeMs: before.mtimeMs, size: bytesRead, hash: sha256Hex(bytes) };
      return file;
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR")
      return { ok: false, error: await missingFileError(absolute, relative) };
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `Cannot read ${relative}: ${reason}`) };
  }
}

function binary(relative: string, why: string): ProjectEntry {
  return { ok: false, error: errorInfo("E_BINARY_FILE", `${relative} is a binary file (${why}).`) };
}

export function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}
