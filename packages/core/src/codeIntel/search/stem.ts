/**
 * A light English stemmer, enough to make "parses", "parsing", "parsed" and "parse" one term.
 * Inflections only (plural, -ing, -ed, final e): code names are short and a full Porter stemmer
 * merges words that mean different things there ("general", "generate"). The same word always
 * gives the same stem, which is all matching needs.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\p{N}/u.test(word)) return word;
  let base = word;
  if (base.endsWith("ies") && base.length > 4) base = `${base.slice(0, -3)}y`;
  else if (base.endsWith("sses")) base = base.slice(0, -2);
  else if (base.endsWith("s") && !/(ss|us|is)$/.test(base)) base = base.slice(0, -1);
  if (base.endsWith("ing") && base.length > 5) base = undouble(base.slice(0, -3));
  else if (base.endsWith("ed") && base.length > 4) base = undouble(base.slice(0, -2));
  if (base.endsWith("e") && base.length > 3) base = base.slice(0, -1);
  return base;
}

/** "setting" → "sett" → "set"; "falling" → "fall" is left alone (l, s, z double in the root). */
function undouble(base: string): string {
  const last = base.at(-1);
  if (last !== undefined && base.at(-2) === last && !"lsz".includes(last) && /[a-z]/.test(last)) {
    return base.slice(0, -1);
  }
  return base;
}
