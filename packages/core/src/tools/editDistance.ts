/** Levenshtein distance: insertions, deletions and substitutions, each costing one. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Up to `limit` candidates that look like a slip for `wanted`: close in spelling, or one containing
 * the other. `normalize` removes differences that do not count (case, separators).
 */
export function closestNames(
  wanted: string,
  candidates: Iterable<string>,
  limit: number,
  normalize: (name: string) => string = (name) => name.toLowerCase(),
): string[] {
  const target = normalize(wanted);
  if (target === "") return [];
  const scored: { name: string; distance: number }[] = [];
  for (const name of candidates) {
    const candidate = normalize(name);
    const distance = editDistance(target, candidate);
    const closeInSpelling =
      distance <= Math.max(2, Math.floor(Math.max(candidate.length, target.length) / 3));
    // Very short strings are contained in almost everything, which suggests nothing useful.
    const contained =
      Math.min(candidate.length, target.length) >= 3 &&
      (candidate.includes(target) || target.includes(candidate));
    if (closeInSpelling || contained) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((entry) => entry.name);
}
