import type { DatabaseSync } from "node:sqlite";

/**
 * The fewest characters an id is shown with. The first 8 of a UUIDv7 are its creation time to
 * about a minute, so ids made close together need more: each is shown as long as it takes to
 * tell it from its neighbours.
 */
const minLength = 8;

/** The shortest prefix of `id`, `minLength` at least and never ending at a dash, that no other id shares. */
export function uniquePrefix(id: string, others: readonly string[]): string {
  let length = minLength;
  for (const other of others) {
    if (other === id) continue;
    let common = 0;
    while (common < id.length && id[common] === other[common]) common++;
    length = Math.max(length, common + 1);
  }
  if (id[length - 1] === "-") length++;
  return id.slice(0, length);
}

/** Each id's unique prefix within the given set (the messages of one session). */
export function uniquePrefixes(ids: readonly string[]): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const prefixes = new Map<string, string>();
  sorted.forEach((id, i) => {
    const neighbours = [sorted[i - 1], sorted[i + 1]].filter((other) => other !== undefined);
    prefixes.set(id, uniquePrefix(id, neighbours));
  });
  return prefixes;
}

/** The unique prefix of a stored session or checkpoint id: only its two neighbours in id order matter. */
export function storedUniquePrefix(db: DatabaseSync, table: "sessions" | "checkpoints", id: string): string {
  const before = db.prepare(`SELECT id FROM ${table} WHERE id < ? ORDER BY id DESC LIMIT 1`).get(id);
  const after = db.prepare(`SELECT id FROM ${table} WHERE id > ? ORDER BY id LIMIT 1`).get(id);
  const neighbours = [before?.id, after?.id].filter((other) => typeof other === "string");
  return uniquePrefix(id, neighbours);
}

/** The error text for a prefix several ids share: the candidates as lists show them. */
export function ambiguousPrefix(
  kind: string,
  prefix: string,
  candidates: readonly string[],
  more: boolean,
): string {
  const named = `${candidates.join(", ")}${more ? ", …" : ""}`;
  return `More than one ${kind} starts with "${prefix}" (${named}); give more of the id.`;
}
