/** The kinds of @-mention a user message may carry (SPEC §6): parsed by the engine, offered by faces. */
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
