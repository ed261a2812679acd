import type { MentionKind } from "@lathe/protocol";

export { type MentionKind, mentionKinds } from "@lathe/protocol";

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
   * Likewise `@server:uri` is a mention only if an MCP server of that name is configured.
   */
  bare?: true;
}
