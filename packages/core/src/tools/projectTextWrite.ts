import type { Stats } from "node:fs";
import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { errorInfo } from "@lathe/protocol";
import type { InProject } from "../fileSystem/projectDirectory.js";
import { writeProjectFile } from "../fileSystem/projectFiles.js";
import type { ToolContext } from "./tool.js";

/**
 * Writes a text file of the project for a file tool. In an editor that takes writes, the editor
 * writes it first, so the change lands in its buffer and undo history; then the disk is made to
 * hold exactly these bytes, atomically and inside the project, whatever the editor did with them.
 * An editor that refuses the write fails the call, and the disk is left as it was.
 */
export async function writeProjectText(
  ctx: Pick<ToolContext, "projectRoot" | "editorBuffers" | "signal">,
  absPath: string,
  text: string,
): Promise<InProject<Stats>> {
  const bytes = Buffer.from(text, "utf8");
  const editorWrite = ctx.editorBuffers?.write;
  if (!editorWrite || !(await stillResolved(absPath)))
    return writeProjectFile(ctx.projectRoot, absPath, bytes);
  // An editor that refuses the write has the user's word on it: nothing is written behind its back.
  const written = await editorWrite
    .call(ctx.editorBuffers, absPath, text, ctx.signal)
    .catch((error: unknown) => ({ ok: false as const, message: String(error) }));
  if (!written.ok) {
    const message = `The editor did not write ${path.relative(ctx.projectRoot, absPath)}: ${written.message}`;
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
  }
  const onDisk = await readFile(absPath).catch(() => undefined);
  if (onDisk?.equals(bytes) && (await stillResolved(absPath)))
    return { ok: true, value: await lstat(absPath), createdDirectories: [] };
  return writeProjectFile(ctx.projectRoot, absPath, bytes);
}

/**
 * Whether the guard's resolved path still leads where it did, with no link put on the way since:
 * the editor writes by path, so only such a path is handed to it.
 */
async function stillResolved(absPath: string): Promise<boolean> {
  const real = await realpath(absPath).catch(() => undefined);
  if (real !== undefined) return real === absPath;
  const parent = path.dirname(absPath);
  return (await realpath(parent).catch(() => undefined)) === parent;
}
