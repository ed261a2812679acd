import { describe, expect, it } from "vitest";
import { discardRandomPool, idSchema, idTime, newId } from "../src/ids.js";

describe("newId", () => {
  it("makes UUIDv7 ids that carry their time and sort in the order they were made", () => {
    const now = Date.UTC(2026, 10, 28, 12, 0, 0);
    const ids = Array.from({ length: 600 }, () => newId(now));
    for (const id of ids) expect(idSchema.safeParse(id).success, id).toBe(true);
    expect(idTime(ids[0] as string)).toBe(now);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws new random bytes once the pool is discarded, rather than using the wiped ones", () => {
    newId();
    discardRandomPool();
    const ends = Array.from({ length: 50 }, () => newId().slice(-12));
    expect(ends.filter((end) => /^0+$/.test(end))).toEqual([]);
    expect(new Set(ends).size).toBe(50);
  });
});
