import type { EventDraft } from "@lathe/protocol";
import type { SessionStore } from "../store/sessionStore.js";

/**
 * The session's writes to its store. Storage trouble must not end the user's run: the write is
 * dropped and the user told once (a notice, not an exception: the conversation in memory is
 * still whole).
 */
export class SessionStorage {
  private failed = false;

  constructor(
    readonly store: SessionStore | undefined,
    private readonly warn: (notice: EventDraft) => void,
  ) {}

  write(write: (store: SessionStore) => void): void {
    if (!this.store) return;
    try {
      write(this.store);
    } catch (error) {
      if (this.failed) return;
      this.failed = true;
      this.warn({
        type: "notice",
        level: "warning",
        code: "E_STORAGE",
        message: `Session storage failed; this session is no longer being saved: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
}
