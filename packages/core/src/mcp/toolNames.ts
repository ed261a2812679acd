import { createHash } from "node:crypto";

/** The longest tool name the providers accept (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
const maxToolNameLength = 64;

/**
 * `mcp__<server>__<tool>`, the name permission rules use (`mcp__github__*`), in the characters
 * every provider accepts. A name over the limit keeps its beginning, so the server's rules still
 * match, and ends with a hash of the full name, so two long names stay apart.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  if (name.length <= maxToolNameLength) return name;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, maxToolNameLength - hash.length - 1)}_${hash}`;
}

/** `mcp__<server>__<prompt>`: the slash command (`/mcp__server__prompt args`) that fills in an MCP prompt. */
export function mcpPromptCommand(server: string, prompt: string): string {
  return `mcp__${sanitize(server)}__${sanitize(prompt)}`;
}

function sanitize(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}
