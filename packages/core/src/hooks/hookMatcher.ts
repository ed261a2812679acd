/** Tests a value (a tool name, a session source…) against a hooks.json matcher. */
export type HookMatcher = (value: string | undefined) => boolean;

const plainNames = /^[A-Za-z0-9_|-]+$/;

/**
 * Claude Code's matcher forms: absent, empty or `*` matches everything; plain names, optionally
 * joined by `|`, match exactly; anything else is a regular expression. The expression must match
 * the whole value, so `edit` never catches `edit_file` by accident and `mcp__github__.*` still
 * reads as written. Throws on an invalid expression, which the config loader reports.
 */
export function compileMatcher(matcher: string | undefined): HookMatcher {
  const pattern = matcher?.trim() ?? "";
  if (pattern === "" || pattern === "*") return () => true;
  if (plainNames.test(pattern)) {
    const names = new Set(pattern.split("|").filter((name) => name !== ""));
    return (value) => value === undefined || names.has(value);
  }
  const expression = new RegExp(`^(?:${pattern})$`);
  return (value) => value === undefined || expression.test(value);
}
