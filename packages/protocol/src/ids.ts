import { z } from "zod";

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation time,
 * which keeps message and event order stable in storage. A counter in the random field keeps
 * ids made within one millisecond strictly increasing.
 */
let lastMs = 0;
let sequence = 0;

/**
 * Random bytes drawn 4 KB at a time: a run makes several ids per round, and each draw goes
 * through Web Crypto's argument checks and a system call.
 */
const randomPool = new Uint8Array(4096);
let poolOffset = randomPool.length;

/**
 * Throws away the random bytes drawn so far. The CLI's start-up snapshot calls this as it is
 * saved: every process started from it must draw its own, or two would make the same ids.
 */
export function discardRandomPool(): void {
  randomPool.fill(0);
  poolOffset = randomPool.length;
}

const hexOfByte = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export function newId(now: number = Date.now()): string {
  if (poolOffset === randomPool.length) {
    // Web Crypto, not node:crypto: the protocol also runs in the browser (the web UI).
    crypto.getRandomValues(randomPool);
    poolOffset = 0;
  }
  const bytes = randomPool.slice(poolOffset, poolOffset + 16);
  poolOffset += 16;
  let ms = now;
  if (ms <= lastMs) {
    ms = lastMs;
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) ms = ++lastMs;
  } else {
    sequence = ((bytes[6]! << 8) | bytes[7]!) & 0x7ff;
  }
  lastMs = ms;
  for (let i = 5, rest = ms; i >= 0; i--, rest = Math.floor(rest / 256)) bytes[i] = rest % 256;
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  let hex = "";
  for (const byte of bytes) hex += hexOfByte[byte];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const idSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, "expected a UUIDv7");

export type Id = z.infer<typeof idSchema>;

/** Milliseconds since the epoch encoded in a UUIDv7. */
export function idTime(id: string): number {
  return Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);
}
