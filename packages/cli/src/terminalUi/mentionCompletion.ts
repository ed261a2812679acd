import { mentionKinds } from "@lathe/protocol";
import type { EditorLine } from "./lineEditor.js";

/** An `@` mention being typed, ending at the cursor: `query` is what follows the `@`. */
export interface MentionAtCursor {
  /** Where the `@` is. */
  start: number;
  query: string;
}

/**
 * `@`, `@src/ma`, `@fi` or `@file src/ma` right before the cursor, after a space, a bracket or a
 * quote as the mention parser wants it (an e-mail address is no mention).
 */
const typedMention = /(?:^|[\s([{"'`])@((?:(?:file|folder)[ \t]+)?[^\s@"'`]*)$/;

export function mentionAtCursor(line: EditorLine): MentionAtCursor | undefined {
  const found = typedMention.exec(line.text.slice(0, line.cursor));
  if (found === null) return undefined;
  const query = found[1] ?? "";
  return { start: line.cursor - query.length - 1, query };
}

const kinds: ReadonlySet<string> = new Set(mentionKinds);

/**
 * Tab on a mention: the query extended as far as the candidates (each what follows the `@`)
 * agree, and a single one completed. A folder (`docs/`) is left open for its own entries; a file
 * or a kind gets a space after it, and a file the parser would not take as a bare path (`Makefile`,
 * no dot or slash) is written `@file Makefile`.
 */
export function completedMention(
  line: EditorLine,
  mention: MentionAtCursor,
  candidates: readonly string[],
): EditorLine {
  const [only] = candidates;
  if (only === undefined) return line;
  const after = line.text.slice(line.cursor);
  const replacement = candidates.length === 1 ? finished(only, after) : commonPrefix(candidates);
  if (replacement.length <= mention.query.length) return line;
  const before = line.text.slice(0, mention.start + 1);
  return { text: before + replacement + after, cursor: before.length + replacement.length };
}

/** The hint under the input while a mention is typed: the candidates, each as a mention. */
export function mentionHint(candidates: readonly string[], shown = 10): string | undefined {
  if (candidates.length === 0) return undefined;
  const listed = candidates.slice(0, shown).map((candidate) => `@${candidate}`);
  const more = candidates.length - shown;
  return more > 0 ? `${listed.join("  ")}  … ${more} more` : listed.join("  ");
}

function finished(candidate: string, after: string): string {
  if (candidate.endsWith("/")) return candidate;
  const bareWorks = /[./]/.test(candidate) || kinds.has(candidate) || /^(file|folder)[ \t]/.test(candidate);
  const written = bareWorks ? candidate : `file ${candidate}`;
  return /^\s/.test(after) ? written : `${written} `;
}

function commonPrefix(texts: readonly string[]): string {
  let common = texts[0] ?? "";
  for (const text of texts) while (!text.startsWith(common)) common = common.slice(0, -1);
  return common;
}
