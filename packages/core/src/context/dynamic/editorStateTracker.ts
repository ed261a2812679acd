import {
  type EditorState,
  type EditorStateDelta,
  editorStateDeltaSchema,
  editorStateSchema,
  errorInfo,
  type LatheErrorInfo,
} from "@lathe/protocol";
import type { z } from "zod";

export type EditorStateUpdate = { full: EditorState } | { delta: EditorStateDelta };

export type EditorStateApplied = { ok: true } | { ok: false; error: LatheErrorInfo };

/**
 * The engine's copy of what the editor shows (SPEC §6). Editors send everything once, then only
 * what changed (seed 004 §4.3), so this keeps the last full state and folds deltas into it. A delta
 * before any full state is refused: the engine may have restarted while the editor believes it
 * already sent everything, and the error is what tells it to send the full state again.
 */
export class EditorStateTracker {
  private state: EditorState = { openFiles: [], diagnostics: [] };
  private received = false;

  /** Fields present in a delta replace the old ones, null clears; invalid input leaves the state as it was. */
  apply(update: EditorStateUpdate): EditorStateApplied {
    if ("full" in update) {
      const parsed = editorStateSchema.safeParse(update.full);
      if (!parsed.success) return invalid("full editor state", parsed.error);
      this.state = parsed.data;
      this.received = true;
      return { ok: true };
    }
    if (!("delta" in update)) {
      return { ok: false, error: errorInfo("E_INVALID_ARGS", "An editor update carries `full` or `delta`.") };
    }
    if (!this.received) {
      const message = "An editor state delta arrived before any full state; send the full state first.";
      return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
    }
    const parsed = editorStateDeltaSchema.safeParse(update.delta);
    if (!parsed.success) return invalid("editor state delta", parsed.error);
    this.state = merged(this.state, parsed.data);
    return { ok: true };
  }

  /** Replaced, never mutated, by `apply`; callers must treat it as read-only. */
  get current(): EditorState {
    return this.state;
  }
}

function merged(state: EditorState, delta: EditorStateDelta): EditorState {
  const next: EditorState = { ...state };
  if (delta.openFiles !== undefined) next.openFiles = delta.openFiles;
  if (delta.diagnostics !== undefined) next.diagnostics = delta.diagnostics;
  if (delta.activeFile === null) delete next.activeFile;
  else if (delta.activeFile !== undefined) next.activeFile = delta.activeFile;
  if (delta.terminalOutput === null) delete next.terminalOutput;
  else if (delta.terminalOutput !== undefined) next.terminalOutput = delta.terminalOutput;
  return next;
}

function invalid(what: string, error: z.ZodError): EditorStateApplied {
  const issues = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  return { ok: false, error: errorInfo("E_INVALID_ARGS", `Invalid ${what}: ${issues}`) };
}
