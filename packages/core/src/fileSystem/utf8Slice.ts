/** A UTF-8 continuation byte (10xxxxxx) never starts a character. */
function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** The largest end ≤ `maxBytes` that does not cut a character of `bytes` in two. */
export function utf8PrefixEnd(bytes: Uint8Array, maxBytes: number): number {
  if (maxBytes >= bytes.length) return bytes.length;
  let end = Math.max(0, maxBytes);
  while (end > 0 && isContinuationByte(bytes[end])) end--;
  return end;
}

/** The smallest start ≥ `minStart` that does not cut a character of `bytes` in two. */
export function utf8SuffixStart(bytes: Uint8Array, minStart: number): number {
  let start = Math.max(0, minStart);
  while (start < bytes.length && isContinuationByte(bytes[start])) start++;
  return start;
}

/** The first `maxBytes` bytes of `text`, or fewer so that no character is cut. */
export function utf8Head(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  return bytes.subarray(0, utf8PrefixEnd(bytes, maxBytes)).toString("utf8");
}

/** The last `maxBytes` bytes of `text`, or fewer so that no character is cut. */
export function utf8Tail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  return bytes.subarray(utf8SuffixStart(bytes, bytes.length - maxBytes)).toString("utf8");
}
