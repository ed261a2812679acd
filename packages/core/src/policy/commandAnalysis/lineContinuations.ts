type LexState = "plain" | "double" | "single" | "ansiC" | "comment";

/**
 * Removes backslash-newline pairs the way bash's reader does before it splits words, so that
 * `r\` + newline + `m -rf /` is read as `rm -rf /` (tree-sitter keeps them as word breaks). They
 * stay inside single quotes and comments, where bash keeps them too.
 */
export function joinLineContinuations(source: string): string {
  if (!source.includes("\\\n")) return source;
  let out = "";
  let state: LexState = "plain";
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? "";
    const next = source[i + 1];
    if (state === "single" || state === "comment") {
      out += c;
      if ((state === "single" && c === "'") || (state === "comment" && c === "\n")) state = "plain";
      continue;
    }
    if (c === "\\" && next === "\n" && state !== "ansiC") {
      i++;
      continue;
    }
    if (c === "\\" && next !== undefined) {
      out += c + next;
      i++;
      continue;
    }
    out += c;
    state = nextState(state, c, source[i - 1]);
  }
  return out;
}

function nextState(state: LexState, c: string, previous: string | undefined): LexState {
  if (state === "double") return c === '"' ? "plain" : "double";
  if (state === "ansiC") return c === "'" ? "plain" : "ansiC";
  if (c === '"') return "double";
  if (c === "'") return previous === "$" ? "ansiC" : "single";
  if (c === "#" && (previous === undefined || /[\s;&|()]/.test(previous))) return "comment";
  return "plain";
}
