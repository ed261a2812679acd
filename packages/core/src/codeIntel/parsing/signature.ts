/** Signatures longer than this are cut: the repo map shows one per line. */
const maxSignatureChars = 160;
/** How much of a declaration without a body is looked at for its first line. */
const firstLineWindow = 2000;

/**
 * The declaration's head as one line: from `start` up to `bodyStart`, or its first line when there
 * is no body to stop at (not reading past `nodeEnd`). Decorator and attribute lines are dropped, spaces
 * collapsed, a dangling `{` removed, and the result cut to about 160 characters.
 */
export function signatureOf(
  source: string,
  start: number,
  bodyStart: number | undefined,
  nodeEnd: number,
): string {
  const text = source.slice(start, bodyStart ?? Math.min(nodeEnd, start + firstLineWindow));
  const lines = text.split("\n");
  while (lines.length > 1 && /^\s*(@|#\[)/.test(lines[0] ?? "")) lines.shift();
  const head = bodyStart === undefined ? (lines[0] ?? "") : lines.join(" ");
  const oneLine = head
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\s*\{$/, "");
  return oneLine.length <= maxSignatureChars ? oneLine : `${oneLine.slice(0, maxSignatureChars - 1)}…`;
}
