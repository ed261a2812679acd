import { eventLatencies, percentile } from "@lathe/server";
import { describe, expect, it } from "vitest";
import { ScriptedFactory } from "./scriptedFactory.js";
import { startTestServer } from "./serverHarness.js";

describe("many sessions", () => {
  it("runs 10 sessions in different projects at once, each stream complete and in order", async () => {
    const t = await startTestServer({
      factory: new ScriptedFactory({
        turns: [{ text: "A steady answer in several chunks.", chunk_delay_ms: 5 }],
      }),
    });
    try {
      const ids = await Promise.all(Array.from({ length: 10 }, () => t.openSession()));
      expect(new Set(ids).size).toBe(10);
      const streams = await Promise.all(ids.map((id) => t.stream(id)));
      const sent = await Promise.all(
        ids.map((id, i) => t.api("POST", `/api/sessions/${id}/messages`, { text: `task ${i}` })),
      );
      expect(sent.every((answer) => answer.status === 202)).toBe(true);
      await Promise.all(
        streams.map((stream) => stream.waitFor((m) => m.type === "state_change" && m.to === "idle")),
      );

      for (const [i, stream] of streams.entries()) {
        const made = t.factory.made.find((m) => m.session.id === ids[i])!;
        expect(stream.events()).toEqual(made.events);
        expect(stream.events().find((e) => e.type === "run_complete")).toMatchObject({ reason: "completed" });
        expect(new Set(stream.events().map((e) => e.sessionId))).toEqual(new Set([ids[i]]));
      }
      const roots = new Set(t.factory.made.map((m) => m.request.projectRoot));
      expect(roots.size).toBe(10);
      const latencies = streams.flatMap((stream) => eventLatencies(stream.received));
      expect(latencies.length).toBeGreaterThan(100);
      // Not a performance gate (that is the bench's job): a sanity bound for a local socket.
      expect(percentile(latencies, 99)).toBeLessThan(1_000);
    } finally {
      await t.close();
    }
  });

  it("close() ends every session, running or idle, and every event socket", async () => {
    const factory = new ScriptedFactory({ turns: [{ hang_ms: 60_000, text: "never" }] });
    const t = await startTestServer({ factory });
    const ids = await Promise.all([t.openSession(), t.openSession(), t.openSession()]);
    const streams = await Promise.all(ids.map((id) => t.stream(id)));
    await t.api("POST", `/api/sessions/${ids[0]}/messages`, { text: "hang" });
    await streams[0]!.waitFor((m) => m.type === "state_change" && m.to === "streaming");

    await t.server.close();
    expect(factory.made.map((m) => m.closed)).toEqual([true, true, true]);
    for (const stream of streams) expect((await stream.closed).code).toBe(1001);
    expect(factory.made[0]!.events.find((e) => e.type === "run_complete")).toMatchObject({
      reason: "cancelled",
    });
    await expect(fetch(`${t.server.origin}/api/sessions`)).rejects.toThrow();
    // A second close is harmless.
    await t.close();
  });
});
