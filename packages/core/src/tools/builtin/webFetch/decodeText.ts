/**
 * Turns body bytes into a string using the declared charset, or for HTML the one a `<meta>` tag
 * names near the top (as browsers do), else UTF-8. An unknown label falls back to UTF-8 rather
 * than failing: a few odd characters beat no page at all.
 */
export function decodeText(body: Uint8Array, declaredCharset: string | undefined, isHtml: boolean): string {
  const label = declaredCharset ?? (isHtml ? metaCharset(body) : undefined) ?? "utf-8";
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** `<meta charset="…">` or `<meta http-equiv="Content-Type" content="…; charset=…">` in the first 1 KB. */
function metaCharset(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.subarray(0, 1024)).toString("latin1");
  const match = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return match?.[1];
}
