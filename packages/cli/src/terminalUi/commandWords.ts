export type CommandWords = { ok: true; words: string[] } | { ok: false; message: string };

/**
 * A command's arguments split into words as a shell splits them, nothing expanded: blanks
 * separate words; '…' keeps what it holds as typed; "…" keeps blanks, and `\"` and `\\` inside
 * it stand for the character; outside quotes a backslash keeps the next character. So
 * `/cloud submit "fix the bug" --priority 2` is the same as `lathe cloud submit "fix the bug"
 * --priority 2` typed in a shell.
 */
export function commandWords(text: string): CommandWords {
  const words: string[] = [];
  // Undefined between words; "" once a word has begun (`""` is an empty word).
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text.charAt(at);
    const next = text.charAt(at + 1);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && (next === '"' || next === "\\")) {
        word += next;
        at++;
      } else word += char;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === '"' || char === "'") {
      word ??= "";
      quote = char;
    } else if (char === "\\" && next !== "") {
      word = (word ?? "") + next;
      at++;
    } else word = (word ?? "") + char;
  }
  if (quote !== undefined)
    return { ok: false, message: `the ${quote === '"' ? "double" : "single"} quote is not closed` };
  if (word !== undefined) words.push(word);
  return { ok: true, words };
}
