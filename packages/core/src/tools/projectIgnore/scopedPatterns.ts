/**
 * Rewrites the lines of an ignore file found in `directory` (relative to the project root, `/`
 * separated, "" for the root) into patterns relative to the project root, so the rules of every
 * directory can live in one matcher. Git's rules for a nested file: a pattern with a slash at its
 * start or middle is anchored to the file's directory; one without matches at any depth below it.
 */
export function scopeIgnorePatterns(text: string, directory: string): string[] {
  const lines = text.split(/\r?\n/);
  if (directory === "") return lines;
  const prefix = escapeDirectory(directory);
  const scoped: string[] = [];
  for (const line of lines) {
    const pattern = scopeLine(line, prefix);
    if (pattern !== undefined) scoped.push(pattern);
  }
  return scoped;
}

function scopeLine(line: string, prefix: string): string | undefined {
  // Git drops trailing spaces unless escaped with a backslash.
  const trimmed = line.replace(/(?<!\\) +$/, "");
  if (trimmed === "" || trimmed.startsWith("#")) return undefined;
  const negated = trimmed.startsWith("!");
  const body = negated ? trimmed.slice(1) : trimmed;
  const withoutTrailingSlash = body.endsWith("/") ? body.slice(0, -1) : body;
  const relativeBody = body.startsWith("/") ? body.slice(1) : body;
  if (withoutTrailingSlash === "" || relativeBody === "") return undefined;
  const anchored = withoutTrailingSlash.includes("/");
  const scoped = anchored ? `${prefix}/${relativeBody}` : `${prefix}/**/${relativeBody}`;
  return negated ? `!${scoped}` : scoped;
}

/** A directory name is literal text in a pattern: glob characters and a leading `!` or `#` are escaped. */
function escapeDirectory(directory: string): string {
  const escaped = directory.replace(/[\\*?[\]]/g, "\\$&");
  return /^[!#]/.test(escaped) ? `\\${escaped}` : escaped;
}
