import type { LatheEvent } from "@lathe/protocol";

/** What a reconnecting client gets: the events after its last seq, and whether some were lost. */
export interface Replay {
  events: LatheEvent[];
  /** Set when events after `since` were dropped from the ring before this client asked for them. */
  droppedThrough?: number;
}

/**
 * The newest events of one session, in a fixed-size ring, so a client that reconnects with the
 * last seq it saw misses nothing while the ring still holds it, and memory stays bounded however
 * long the session runs.
 */
export class EventBuffer {
  private readonly ring: (LatheEvent | undefined)[];
  /** Index of the oldest event held. */
  private start = 0;
  private size = 0;
  /** Seq of the newest event pushed out of the ring; -1 while nothing was dropped. */
  private dropped = -1;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error("maxBufferedEvents must be a positive integer");
    this.ring = new Array(capacity);
  }

  push(event: LatheEvent): void {
    if (this.size < this.capacity) {
      this.ring[(this.start + this.size) % this.capacity] = event;
      this.size++;
      return;
    }
    this.dropped = this.ring[this.start]!.seq;
    this.ring[this.start] = event;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Seq of the newest event seen; -1 before the first. */
  get lastSeq(): number {
    return this.size === 0 ? this.dropped : this.ring[(this.start + this.size - 1) % this.capacity]!.seq;
  }

  /** Every held event with a seq above `since`, oldest first. */
  since(since: number): Replay {
    const events: LatheEvent[] = [];
    for (let i = 0; i < this.size; i++) {
      const event = this.ring[(this.start + i) % this.capacity]!;
      if (event.seq > since) events.push(event);
    }
    return this.dropped > since ? { events, droppedThrough: this.dropped } : { events };
  }
}
