import type { EventDraft, LatheEvent } from "@lathe/protocol";

export type EventListener = (event: LatheEvent) => void;

/**
 * One ordered stream of events per session. Stamps each draft with the session, run, sequence
 * number and time, so every face sees the same numbering and can resume from a sequence number.
 */
export class EventBus {
  private readonly listeners = new Set<EventListener>();
  private seq = 0;

  constructor(private readonly sessionId: string) {}

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(runId: string, draft: EventDraft): LatheEvent {
    const event = {
      ...draft,
      sessionId: this.sessionId,
      runId,
      seq: this.seq++,
      at: Date.now(),
    } as LatheEvent;
    for (const listener of this.listeners) listener(event);
    return event;
  }
}
