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
