import { keyPatterns } from "./keyPatterns.js";

/** What a secret is replaced with wherever Lathe writes text out. */
export const redactedMarker = "[redacted]";

/**
 * Shorter values are skipped: an empty or tiny "secret" (a typo, a placeholder like "x") would
 * blank out ordinary words everywhere, and real API keys are far longer.
 */
const minSecretLength = 8;

/**
 * The one redactor for everything Lathe shows or writes: replaces every occurrence of each known
 * secret, then every string in a well-known key format (`keyPatterns`), with "[redacted]". Longer
 * secrets go first, so a key that contains another key is removed whole rather than left half
 * visible; the known values go before the patterns, so a pattern never cuts a known key in two.
 */
export function secretRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const usable = [
    ...new Set(secrets.filter((s): s is string => s !== undefined && s.length >= minSecretLength)),
  ].sort((a, b) => b.length - a.length);
  return (text) => {
    const known = usable.reduce((out, secret) => out.split(secret).join(redactedMarker), text);
    return keyPatterns.reduce((out, pattern) => out.replace(pattern, redactedMarker), known);
  };
}

/**
 * A copy of `value` with `redact` applied to every string inside its arrays and plain objects.
 * Keys stay as they are; class instances (Date, Error, Map…) are returned unchanged, since copying
 * them field by field would lose what they are. Cycles are kept as cycles of the copies.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  return copy(value, redact, new Map()) as T;
}

function copy(value: unknown, redact: (text: string) => string, seen: Map<object, unknown>): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, redact, seen));
    return out;
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, item] of Object.entries(value)) out[key] = copy(item, redact, seen);
  return out;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
