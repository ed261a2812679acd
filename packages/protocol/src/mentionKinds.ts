/**
 * The kinds of @-mention a user message may carry (SPEC §6): parsed by the engine, offered by faces.
 * `mcp` is an MCP server's resource, written `@server:uri` (or `@mcp server:uri`).
 */
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
  "mcp",
] as const;

export type MentionKind = (typeof mentionKinds)[number];

/** A name a bare `@path` can hold whole (the mention parser ends one at any other character). */
export const bareMentionName = /^[^\s"'`<>()[\]{},;@]+$/;
/** A last character the mention parser drops from a bare `@path` as sentence punctuation or a closing bracket. */
export const droppedAtMentionEnd = /[.,;:!?'"`)\]}]$/;
/** `@file src/a` or `@folder src`: the kind is chosen, the path is being typed. */
export const explicitPathMention = /^(file|folder)[ \t]+(.*)$/;
