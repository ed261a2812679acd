import { type EventDraft, type LatheErrorInfo, newId } from "@lathe/protocol";
import type { SessionStorage } from "./sessionStorage.js";

/** What the session needs of a checkpoint repository (`ShadowRepository` is one). */
export interface Checkpointer {
  snapshot(
    label: string,
  ): Promise<
    | { ok: true; value: { commit: string; recovered?: readonly string[] } }
    | { ok: false; error: LatheErrorInfo }
  >;
}

export type CheckpointReason = "user_message" | "tool_call";

/** The message a checkpoint belongs to, and the call when it was taken before one. */
export interface CheckpointPlace {
  messageId: string;
  callId?: string;
}

type Snapshot = ReturnType<Checkpointer["snapshot"]>;

/**
 * Snapshots of the project at each user message and before each call that may change it
 * (SPEC §7). A snapshot that fails is an error notice, never the end of the run: the run goes on,
 * but the user must see that what it changes next cannot be undone. Repairs the repository made
 * (a stale lock of a killed process cleared, an interrupted restore finished) are info notices.
 */
export class SessionCheckpoints {
  constructor(
    private readonly sessionId: string,
    private readonly checkpointer: Checkpointer | undefined,
    private readonly storage: SessionStorage,
  ) {}

  get enabled(): boolean {
    return this.checkpointer !== undefined;
  }

  async take(
    emit: (draft: EventDraft) => void,
    reason: CheckpointReason,
    at: CheckpointPlace,
  ): Promise<void> {
    const snapshot = this.start(reason, at);
    if (snapshot) await this.record(emit, reason, at, snapshot);
  }

  /** Starts the snapshot without announcing it, so other preparation can overlap the git work. */
  start(reason: CheckpointReason, at: CheckpointPlace): Snapshot | undefined {
    return this.checkpointer?.snapshot(`${reason} ${at.callId ?? at.messageId}`);
  }

  /** Stores and announces a snapshot once it has settled. */
  async record(
    emit: (draft: EventDraft) => void,
    reason: CheckpointReason,
    at: CheckpointPlace,
    snapshot: Snapshot,
  ): Promise<void> {
    const taken = await snapshot;
    if (!taken.ok) {
      emit({
        type: "notice",
        level: "error",
        code: "E_CHECKPOINT",
        message: `No checkpoint was taken (${reason === "tool_call" ? "before a tool call" : "at this message"}), so what follows cannot be undone with a restore: ${taken.error.message}`,
      });
      return;
    }
    for (const note of taken.value.recovered ?? []) {
      emit({ type: "notice", level: "info", message: note });
    }
    const record = { sessionId: this.sessionId, reason, commit: taken.value.commit, ...at };
    let checkpointId = newId();
    this.storage.write((store) => {
      checkpointId = store.addCheckpoint(record).id;
    });
    emit({ type: "checkpoint", checkpointId, ...record });
  }
}
