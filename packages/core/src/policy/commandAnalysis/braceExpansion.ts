/** More words than this from one brace expression are not worth judging one by one. */
const maxExpansions = 64;

/**
 * Bash brace expansion (`/{etc,usr}` → `/etc`, `/usr`) of a word whose characters are marked
 * active when they were unquoted (quoted or escaped braces and commas are literal). Ranges like
 * `{1..3}` are left as written: they only make numbers and letters, never a dangerous path.
 */
export function expandBraces(text: string, active: readonly boolean[]): string[] {
  const results: string[] = [];
  expandInto(text, active, results);
  return results;
}

function expandInto(text: string, active: readonly boolean[], results: string[]): void {
  const group = findGroup(text, active);
  if (group === undefined || results.length >= maxExpansions) {
    results.push(text);
    return;
  }
  const prefix = text.slice(0, group.open);
  const prefixMask = active.slice(0, group.open);
  const suffix = text.slice(group.close + 1);
  const suffixMask = active.slice(group.close + 1);
  let start = group.open + 1;
  for (const end of [...group.commas, group.close]) {
    const alternative = text.slice(start, end);
    const alternativeMask = active.slice(start, end);
    expandInto(prefix + alternative + suffix, [...prefixMask, ...alternativeMask, ...suffixMask], results);
    if (results.length >= maxExpansions) return;
    start = end + 1;
  }
}

interface BraceGroup {
  open: number;
  close: number;
  /** Positions of the commas that separate alternatives at this group's own depth. */
  commas: number[];
}

/** The first `{…}` with an unquoted top-level comma; groups without one are literal in bash. */
function findGroup(text: string, active: readonly boolean[]): BraceGroup | undefined {
  for (let open = 0; open < text.length; open++) {
    if (text[open] !== "{" || !active[open]) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < text.length; i++) {
      if (!active[i]) continue;
      const c = text[i];
      if (c === "{") depth++;
      else if (c === "}") {
        if (depth === 0) {
          if (commas.length > 0) return { open, close: i, commas };
          break;
        }
        depth--;
      } else if (c === "," && depth === 0) commas.push(i);
    }
  }
  return undefined;
}
