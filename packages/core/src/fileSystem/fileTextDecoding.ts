/**
 * A file's bytes as ripgrep reads them: a UTF-8 byte-order mark dropped, UTF-16 (marked by its
 * byte-order mark) transcoded, anything else taken as UTF-8 with invalid bytes replaced. A file
 * holding a NUL byte once decoded is binary and not searched: undefined. The UTF-16 decoders are
 * made per file, not at load: each holds a native converter, which a start-up snapshot cannot keep.
 */
export function decodeSearchText(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return textWithoutNul(new TextDecoder("utf-16le").decode(bytes.subarray(2)));
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return textWithoutNul(new TextDecoder("utf-16be").decode(bytes.subarray(2)));
  if (bytes.indexOf(0) !== -1) return undefined;
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString("utf8", start);
}

function textWithoutNul(text: string): string | undefined {
  return text.includes("\0") ? undefined : text;
}
