import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { isWithin, type ToolKind } from "@lathe/core";

/** Past this size a file's diff is not sent: the editor gets the tool's own output alone. */
const maxDiffBytes = 1024 * 1024;

/**
 * The diffs an editor shows for a session's edits, writes and deletes: each file's text is noted
 * when the model has sent the call (before it can run) and read again when it has completed. Only
 * files inside the project, as text, under 1 MB; a file that was absent has no old text.
 */
export class EditDiffs {
  private readonly before = new Map<string, { path: string; oldText: string | null }>();

  constructor(private readonly projectRoot: string) {}

  noteCall(callId: string, kind: ToolKind | undefined, args: unknown): void {
    if (kind !== "edit" && kind !== "delete") return;
    const path = callPath(args, this.projectRoot);
    if (path === undefined) return;
    const oldText = projectText(this.projectRoot, path);
    if (oldText !== undefined) this.before.set(callId, { path, oldText });
  }

  /** The completed call's diff, if its file was noted. */
  diffOf(callId: string): acp.ToolCallContent | undefined {
    const noted = this.before.get(callId);
    this.before.delete(callId);
    if (!noted) return undefined;
    const newText = projectText(this.projectRoot, noted.path);
    if (newText === undefined) return undefined;
    return { type: "diff", path: noted.path, oldText: noted.oldText, newText: newText ?? "" };
  }

  /** A call that did not complete leaves nothing to show. */
  forget(callId: string): void {
    this.before.delete(callId);
  }
}

/** The file a call names in its `path` argument, absolute (relative ones start at the project). */
export function callPath(args: unknown, projectRoot: string): string | undefined {
  if (args === null || typeof args !== "object") return undefined;
  const { path } = args as { path?: unknown };
  if (typeof path !== "string") return undefined;
  return isAbsolute(path) ? path : join(projectRoot, path);
}

/**
 * The change a call's arguments spell out, as diffs: each replacement of an edit (its old and new
 * text), or a write's new text over the file as it is now. A call of another shape has none.
 */
export function proposedDiffs(args: unknown, projectRoot: string): acp.ToolCallContent[] {
  const path = callPath(args, projectRoot);
  if (path === undefined) return [];
  const { old_string, new_string, edits, contents } = args as Record<string, unknown>;
  if (typeof contents === "string") {
    const oldText = projectText(projectRoot, path);
    return oldText === undefined ? [] : [{ type: "diff", path, oldText, newText: contents }];
  }
  const pairs: unknown[] = Array.isArray(edits) ? edits : [{ old_string, new_string }];
  return pairs.flatMap((pair): acp.ToolCallContent[] => {
    const { old_string: oldText, new_string: newText } = (pair ?? {}) as Record<string, unknown>;
    return typeof oldText === "string" && typeof newText === "string"
      ? [{ type: "diff", path, oldText, newText }]
      : [];
  });
}

/** A project file's text; null when it is absent; undefined when it is not one to show. */
function projectText(projectRoot: string, path: string): string | null | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return null;
  }
  if (!isWithin(projectRoot, real)) return undefined;
  const stats = statSync(real);
  if (!stats.isFile() || stats.size > maxDiffBytes) return undefined;
  const text = readFileSync(real, "utf8");
  return text.includes("\0") ? undefined : text;
}
