/** A large paste: the input shows `placeholder`, the message sent carries `text` in its place. */
export interface PastedText {
  readonly placeholder: string;
  readonly text: string;
}

/** Past either, a paste is shown as a placeholder: it would push the input off the screen. */
export const largePasteCharacters = 800;
export const largePasteLines = 10;

/** A CSI sequence (a colour, a cursor move), removed whole rather than leaving `[31m` behind. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the sequences start with ESC
const escapeSequence = /\x1b\[[0-?]*[ -/]*[@-~]/g;
/** Every C0 control character but tab and newline, and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const controlCharacter = /[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * Pasted and typed text as the message holds it: the terminal's line ends (CR, CR LF) as LF, and
 * no other control characters (a key the terminal sent along with text, escapes of coloured
 * output), which would only garble the input's drawing.
 */
export function insertable(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(escapeSequence, "").replace(controlCharacter, "");
}

/** Lines of a paste; a newline at its very end starts no line of its own. */
export function lineCount(text: string): number {
  return text.replace(/\n$/, "").split("\n").length;
}

export function isLargePaste(text: string): boolean {
  return text.length > largePasteCharacters || lineCount(text) > largePasteLines;
}

/** `[Pasted text #1 +42 lines]`, or with the characters counted for one long line. */
export function pastePlaceholder(text: string, number: number): string {
  const lines = lineCount(text);
  const size = lines > 1 ? `+${lines} lines` : `${text.length} characters`;
  return `[Pasted text #${number} ${size}]`;
}

/**
 * The message as sent: each placeholder still in it replaced by the text it stands for, in one
 * pass, so a pasted text that itself reads like a placeholder stays as pasted.
 */
export function expandPastes(text: string, pastes: readonly PastedText[]): string {
  if (pastes.length === 0) return text;
  const byPlaceholder = new Map(pastes.map((paste) => [paste.placeholder, paste.text]));
  const pattern = new RegExp([...byPlaceholder.keys()].map(literalPattern).join("|"), "g");
  return text.replace(pattern, (found) => byPlaceholder.get(found) ?? found);
}

function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
