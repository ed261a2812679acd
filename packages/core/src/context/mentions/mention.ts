export const mentionKinds = [
  "file",
  "folder",
  "symbol",
  "rule",
  "url",
  "web",
  "git",
  "chat",
  "lints",
  "terminal",
] as const;

export type MentionKind = (typeof mentionKinds)[number];

/** An @-mention found in a user message (SPEC §6). */
export interface Mention {
  kind: MentionKind;
  /** Quotes removed; "" for the kinds that take none (lints, terminal). */
  argument: string;
  /** The text of the message it was read from: `text.slice(start, end)`. */
  raw: string;
  start: number;
  /** Exclusive. */
  end: number;
  /**
   * Written as `@path/to/file.ts` without `@file`: a mention only if that path exists, so a bare
   * one that names nothing (`@types/node`, `@scope/pkg`) stays plain text instead of an error.
   */
  bare?: true;
}
