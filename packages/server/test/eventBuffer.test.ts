import type { LatheEvent } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { EventBuffer } from "../src/eventBuffer.js";

const event = (seq: number): LatheEvent => ({
  type: "notice",
  level: "info",
  message: `event ${seq}`,
  sessionId: "s",
  runId: "r",
  seq,
  at: 0,
});

const seqs = (events: LatheEvent[]) => events.map((e) => e.seq);

describe("EventBuffer", () => {
  it("replays what follows a seq, and says nothing was lost while nothing was dropped", () => {
    const buffer = new EventBuffer(5);
    expect(buffer.lastSeq).toBe(-1);
    for (let seq = 0; seq < 4; seq++) buffer.push(event(seq));
    expect(buffer.lastSeq).toBe(3);
    expect(buffer.since(-1)).toEqual({ events: [0, 1, 2, 3].map(event) });
    expect(seqs(buffer.since(1).events)).toEqual([2, 3]);
    expect(buffer.since(3).events).toEqual([]);
  });

  it("keeps the newest events once full and reports the newest one dropped", () => {
    const buffer = new EventBuffer(3);
    for (let seq = 0; seq < 8; seq++) buffer.push(event(seq));
    expect(buffer.lastSeq).toBe(7);
    expect(seqs(buffer.since(-1).events)).toEqual([5, 6, 7]);
    expect(buffer.since(-1).droppedThrough).toBe(4);
    expect(buffer.since(3).droppedThrough).toBe(4);
    // A client that saw seq 4 lost nothing: 5, 6 and 7 are all still held.
    expect(buffer.since(4)).toEqual({ events: [5, 6, 7].map(event) });
  });

  it("refuses a capacity that could hold nothing", () => {
    expect(() => new EventBuffer(0)).toThrow(/positive integer/);
  });
});
