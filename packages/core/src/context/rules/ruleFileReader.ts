import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import path from "node:path";
import { utf8PrefixEnd } from "../../fileSystem/utf8Slice.js";
import { isWithin } from "../../policy/pathGuard.js";

export type RuleFileRead =
  | { kind: "text"; text: string }
  /** Nothing to read there: no such file, or not a regular file. */
  | { kind: "absent" }
  | { kind: "error"; message: string };

/**
 * Reads a rule file of the project, at most `maxBytes` of it (a note says when it was cut).
 * A path whose real location is outside the project, through a symlink, is refused: rules
 * are instructions to the model and must come from the project itself.
 */
export async function readRuleFile(
  realRoot: string,
  relative: string,
  maxBytes: number,
): Promise<RuleFileRead> {
  const located = await locateInside(realRoot, relative);
  if (located.kind !== "inside") return located;
  try {
    // Non-blocking, so a FIFO planted under a rule's name cannot hang the load.
    const handle = await open(located.path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return { kind: "absent" };
      const buffer = Buffer.alloc(Math.min(stats.size, maxBytes + 1));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const bytes = buffer.subarray(0, bytesRead);
      if (bytes.length <= maxBytes) return { kind: "text", text: bytes.toString("utf8") };
      const kept = bytes.subarray(0, utf8PrefixEnd(bytes, maxBytes)).toString("utf8");
      const note = `[The rest of this file is cut: it is ${stats.size} bytes and only the first ${maxBytes} are read.]`;
      return { kind: "text", text: `${kept}\n\n${note}` };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { kind: "error", message: `could not be read: ${errorMessage(error)}` };
  }
}

export type Located =
  | { kind: "inside"; path: string }
  | { kind: "absent" }
  | { kind: "error"; message: string };

/** The real path of `relative` when it exists and is inside the project. */
export async function locateInside(realRoot: string, relative: string): Promise<Located> {
  let real: string;
  try {
    real = await realpath(path.join(realRoot, relative));
  } catch (error) {
    if (isMissing(error)) return { kind: "absent" };
    return { kind: "error", message: `could not be resolved: ${errorMessage(error)}` };
  }
  if (!isWithin(realRoot, real)) {
    return { kind: "error", message: `is a symbolic link to ${real}, outside the project; ignored` };
  }
  return { kind: "inside", path: real };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
