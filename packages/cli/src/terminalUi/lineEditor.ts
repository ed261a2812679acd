/** The text being typed and where the cursor stands in it (a UTF-16 index, 0…text.length). */
export interface EditorLine {
  readonly text: string;
  readonly cursor: number;
}

/** What a key does to the text, the way readline does it. */
export type EditCommand =
  | "left"
  | "right"
  | "wordLeft"
  | "wordRight"
  | "rowStart"
  | "rowEnd"
  | "rowUp"
  | "rowDown"
  | "deleteBackward"
  | "deleteForward"
  | "deleteWordBackward"
  | "deleteWordForward"
  | "deleteToRowStart"
  | "deleteToRowEnd";

export type EditAction = EditCommand | { insert: string };

export const emptyLine: EditorLine = { text: "", cursor: 0 };

/** `text` with the cursor at its end, as a recalled or completed line is. */
export function lineOf(text: string): EditorLine {
  return { text, cursor: text.length };
}

/** Characters of a word for the word moves (Alt+Left/Right, Alt+B/F, Alt+D). */
const wordCharacter = /[\p{L}\p{N}_]/u;
const space = /\s/;

/**
 * The line after one edit. `atoms` are pieces of text that the cursor steps over and Backspace and
 * Delete remove whole (the placeholders of large pastes), so one key never leaves half of one.
 */
export function editLine(line: EditorLine, action: EditAction, atoms: readonly string[] = []): EditorLine {
  const { text, cursor } = line;
  if (typeof action === "object") {
    return {
      text: text.slice(0, cursor) + action.insert + text.slice(cursor),
      cursor: cursor + action.insert.length,
    };
  }
  switch (action) {
    case "left":
      return { text, cursor: atomBefore(text, cursor, atoms) ?? previousCharacter(text, cursor) };
    case "right":
      return { text, cursor: atomAfter(text, cursor, atoms) ?? nextCharacter(text, cursor) };
    case "wordLeft":
      return { text, cursor: wordStartBefore(text, cursor) };
    case "wordRight":
      return { text, cursor: wordEndAfter(text, cursor) };
    case "rowStart":
      return { text, cursor: rowStart(text, cursor) };
    case "rowEnd":
      return { text, cursor: rowEnd(text, cursor) };
    case "rowUp":
      return { text, cursor: verticalMove(text, cursor, -1) };
    case "rowDown":
      return { text, cursor: verticalMove(text, cursor, 1) };
    case "deleteBackward":
      return cut(text, atomBefore(text, cursor, atoms) ?? previousCharacter(text, cursor), cursor);
    case "deleteForward":
      return cut(text, cursor, atomAfter(text, cursor, atoms) ?? nextCharacter(text, cursor));
    case "deleteWordBackward":
      return cut(text, spaceSeparatedStartBefore(text, cursor), cursor);
    case "deleteWordForward":
      return cut(text, cursor, wordEndAfter(text, cursor));
    case "deleteToRowStart":
      return cut(text, rowStart(text, cursor), cursor);
    case "deleteToRowEnd":
      return cut(text, cursor, rowEnd(text, cursor));
  }
}

/** Whether the cursor is on the first row, where Up reaches into the history instead. */
export function onFirstRow(line: EditorLine): boolean {
  return !line.text.slice(0, line.cursor).includes("\n");
}

/** Whether the cursor is on the last row, where Down reaches into the history instead. */
export function onLastRow(line: EditorLine): boolean {
  return !line.text.slice(line.cursor).includes("\n");
}

function cut(text: string, from: number, to: number): EditorLine {
  return { text: text.slice(0, from) + text.slice(to), cursor: from };
}

function atomBefore(text: string, cursor: number, atoms: readonly string[]): number | undefined {
  const found = atoms.find((atom) => atom !== "" && text.slice(0, cursor).endsWith(atom));
  return found === undefined ? undefined : cursor - found.length;
}

function atomAfter(text: string, cursor: number, atoms: readonly string[]): number | undefined {
  const found = atoms.find((atom) => atom !== "" && text.startsWith(atom, cursor));
  return found === undefined ? undefined : cursor + found.length;
}

/** One character back; an emoji or other astral character is two UTF-16 units and goes whole. */
function previousCharacter(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const low = text.charCodeAt(cursor - 1);
  const high = text.charCodeAt(cursor - 2);
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return cursor - (pair ? 2 : 1);
}

function nextCharacter(text: string, cursor: number): number {
  if (cursor >= text.length) return text.length;
  const code = text.codePointAt(cursor) ?? 0;
  return cursor + (code > 0xffff ? 2 : 1);
}

function isWord(character: string | undefined): boolean {
  return character !== undefined && wordCharacter.test(character);
}

/** Back over what is not a word, then over the word: where Alt+B lands. */
function wordStartBefore(text: string, cursor: number): number {
  let at = cursor;
  while (at > 0 && !isWord(text[at - 1])) at--;
  while (at > 0 && isWord(text[at - 1])) at--;
  return at;
}

/** On over what is not a word, then over the word: where Alt+F lands. */
function wordEndAfter(text: string, cursor: number): number {
  let at = cursor;
  while (at < text.length && !isWord(text[at])) at++;
  while (at < text.length && isWord(text[at])) at++;
  return at;
}

/** Back over spaces, then to the previous space: what Ctrl+W removes, as in a shell. */
function spaceSeparatedStartBefore(text: string, cursor: number): number {
  let at = cursor;
  while (at > 0 && space.test(text[at - 1] ?? "")) at--;
  while (at > 0 && !space.test(text[at - 1] ?? "")) at--;
  return at;
}

function rowStart(text: string, cursor: number): number {
  return text.lastIndexOf("\n", cursor - 1) + 1;
}

function rowEnd(text: string, cursor: number): number {
  const newline = text.indexOf("\n", cursor);
  return newline === -1 ? text.length : newline;
}

/** The same column on the row above or below, or that row's end when it is shorter. */
function verticalMove(text: string, cursor: number, rows: -1 | 1): number {
  const start = rowStart(text, cursor);
  const column = cursor - start;
  if (rows === -1) {
    if (start === 0) return cursor;
    const above = rowStart(text, start - 1);
    return Math.min(above + column, start - 1);
  }
  const end = rowEnd(text, cursor);
  if (end === text.length) return cursor;
  const below = end + 1;
  return Math.min(below + column, rowEnd(text, below));
}
