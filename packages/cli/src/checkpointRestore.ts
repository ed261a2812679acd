import type { CheckpointRecord, SessionInfo, SessionStore } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { checkpointRepositoryFor } from "./checkpointRepository.js";

export interface RestoreRequest {
  store: SessionStore;
  latheHome: string;
  checkpoint: CheckpointRecord;
  /** The session the checkpoint belongs to; no engine may hold it while it is restored. */
  session: SessionInfo;
  /** The project files. */
  code: boolean;
  /** The conversation, back to just before the checkpoint's user message. */
  conversation: boolean;
}

export interface CheckpointRestoreResult {
  /**
   * Present when the files were restored. `refused`: paths left alone because a symlink stands
   * where the checkpoint has a directory on their way. `recovered`: what a killed Lathe had left
   * and was repaired first (a stale lock, a restore half-done).
   */
  code?: { written: string[]; removed: string[]; refused: string[]; recovered: string[] };
  /** Present when the conversation was restored. */
  conversation?: { messagesRemoved: number; backupSession: string };
}

export type RestoreOutcome =
  | { ok: true; value: CheckpointRestoreResult }
  /** `refused`: the request cannot be honoured for this checkpoint, as opposed to a restore that failed. */
  | { ok: false; error: LatheErrorInfo; refused?: true };

/**
 * Puts a checkpoint back (SPEC §7), for `lathe checkpoints restore` and `lathe serve` alike. The
 * files: after a `before_restore` checkpoint, so the restore itself can be undone. The
 * conversation: only a checkpoint taken at a user message has a place in it, so with both asked
 * another checkpoint restores the files alone, and the conversation alone is refused; the full
 * conversation is first kept as a fork, then the message and everything after it is dropped.
 */
export async function restoreCheckpoint(request: RestoreRequest): Promise<RestoreOutcome> {
  const { store, checkpoint, session } = request;
  const atMessage = checkpoint.reason === "user_message" && checkpoint.messageId !== undefined;
  if (!request.code && !request.conversation) {
    const error = errorInfo("E_INVALID_ARGS", "Restore the code, the conversation or both.");
    return { ok: false, error, refused: true };
  }
  if (!request.code && !atMessage) {
    const message = "Only a checkpoint taken at a user message can restore the conversation.";
    return { ok: false, error: errorInfo("E_CHECKPOINT", message), refused: true };
  }
  const result: CheckpointRestoreResult = {};
  if (request.code) {
    const shadow = await checkpointRepositoryFor(request.latheHome, session.projectRoot);
    if (!shadow.ok) return shadow;
    const restored = await shadow.value.restore(checkpoint.commit);
    if (!restored.ok) return restored;
    const { written, removed, refused, recovered, before } = restored.value;
    if (before) store.addCheckpoint({ sessionId: session.id, reason: "before_restore", commit: before });
    result.code = { written, removed, refused, recovered };
  }
  if (request.conversation && atMessage) {
    const backup = store.fork(session.id, undefined, { backup: true });
    if (!backup.ok) return backup;
    const dropped = store.truncateFrom(session.id, checkpoint.messageId!);
    if (!dropped.ok) return dropped;
    result.conversation = { messagesRemoved: dropped.value, backupSession: backup.value };
  }
  return { ok: true, value: result };
}
