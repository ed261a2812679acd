import type { Key } from "ink";
import type { EditCommand } from "./lineEditor.js";

/** A key of the input as the prompt understands it, whatever the terminal sent for it. */
export type PromptKey =
  | { kind: "edit"; command: EditCommand }
  | { kind: "type"; text: string }
  /** Shift+Enter (kitty's CSI 13;2u), Alt+Enter (ESC CR) or Ctrl+J. */
  | { kind: "newline" }
  | { kind: "enter" }
  | { kind: "up" }
  | { kind: "down" }
  /** Ctrl+R. */
  | { kind: "search" }
  /** Ctrl+G: leaves the search, the line as it was before it. */
  | { kind: "abort" }
  | { kind: "tab" }
  | { kind: "shiftTab" }
  /** Ctrl+Y: the next approval mode. */
  | { kind: "cycleApproval" }
  | { kind: "escape" }
  | { kind: "ctrlC" }
  | { kind: "ctrlD" };

const withCtrl: Record<string, PromptKey> = {
  a: { kind: "edit", command: "rowStart" },
  e: { kind: "edit", command: "rowEnd" },
  b: { kind: "edit", command: "left" },
  f: { kind: "edit", command: "right" },
  u: { kind: "edit", command: "deleteToRowStart" },
  k: { kind: "edit", command: "deleteToRowEnd" },
  w: { kind: "edit", command: "deleteWordBackward" },
  c: { kind: "ctrlC" },
  d: { kind: "ctrlD" },
  r: { kind: "search" },
  g: { kind: "abort" },
  y: { kind: "cycleApproval" },
};

/** Alt+letter, which terminals send as ESC and the letter (macOS Option as Meta). */
const withMeta: Record<string, PromptKey> = {
  b: { kind: "edit", command: "wordLeft" },
  f: { kind: "edit", command: "wordRight" },
  d: { kind: "edit", command: "deleteWordForward" },
};

const edit = (command: EditCommand): PromptKey => ({ kind: "edit", command });

/** What an Ink key event means to the prompt; undefined for keys it leaves alone. */
export function promptKey(input: string, key: Key): PromptKey | undefined {
  if (key.eventType === "release") return undefined;
  if (key.return) return key.shift || key.meta ? { kind: "newline" } : { kind: "enter" };
  // Ctrl+J, and what some terminals are set up to send for Shift+Enter.
  if (input === "\n") return { kind: "newline" };
  if (key.escape) return { kind: "escape" };
  if (key.tab) return key.shift ? { kind: "shiftTab" } : { kind: "tab" };
  if (key.upArrow) return { kind: "up" };
  if (key.downArrow) return { kind: "down" };
  const byWord = key.meta || key.ctrl;
  if (key.leftArrow) return edit(byWord ? "wordLeft" : "left");
  if (key.rightArrow) return edit(byWord ? "wordRight" : "right");
  if (key.home) return edit("rowStart");
  if (key.end) return edit("rowEnd");
  if (key.backspace) return edit(byWord ? "deleteWordBackward" : "deleteBackward");
  if (key.delete) return edit(byWord ? "deleteWordForward" : "deleteForward");
  if (key.ctrl) return withCtrl[input];
  if (key.meta) return withMeta[input];
  if (input === "") return undefined;
  return { kind: "type", text: input };
}
