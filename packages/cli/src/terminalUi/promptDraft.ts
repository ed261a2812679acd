import {
  type HistorySearch,
  newSearch,
  searchErased,
  searchMatch,
  searchOlder,
  searchTyped,
} from "./historySearch.js";
import { type EditorLine, editLine, emptyLine, lineOf, onFirstRow, onLastRow } from "./lineEditor.js";
import { expandPastes, insertable, isLargePaste, type PastedText, pastePlaceholder } from "./pastedText.js";
import type { PromptKey } from "./promptKeys.js";

/** Everything the input holds between two messages. */
export interface PromptDraft {
  readonly line: EditorLine;
  /** Large pastes shown as placeholders in `line`. */
  readonly pastes: readonly PastedText[];
  /** Large pastes numbered so far in this draft: the next placeholder's number follows. */
  readonly pasted: number;
  /** Ctrl+R under way, and the line to go back to if it is abandoned. */
  readonly search?: { readonly state: HistorySearch; readonly before: EditorLine };
  /** How far Up has gone back in the history: 0 is the draft itself. */
  readonly back: number;
  /** The draft as it was before the first Up, back again on Down. */
  readonly kept?: EditorLine;
}

/** What a key asks of the session, beyond the draft. */
export type PromptEffect =
  | { kind: "submit"; text: string }
  | { kind: "stop" }
  | { kind: "interrupt" }
  | { kind: "exit" }
  | { kind: "cycleMode" }
  | { kind: "cycleApprovalMode" }
  | { kind: "complete" };

export interface PromptContext {
  /** Earlier messages of the project, oldest first. */
  history: readonly string[];
  /** A run is going on (or messages wait for one). */
  busy: boolean;
}

export interface PromptChange {
  draft: PromptDraft;
  effect?: PromptEffect;
}

export const emptyDraft: PromptDraft = { line: emptyLine, pastes: [], pasted: 0, back: 0 };

/** A draft holding `text`, the cursor at its end: a message put back into the input. */
export function draftOf(text: string): PromptDraft {
  return { ...emptyDraft, line: lineOf(text) };
}

/** The draft after a key. */
export function pressed(draft: PromptDraft, key: PromptKey, context: PromptContext): PromptChange {
  if (draft.search) return pressedInSearch(draft, draft.search, key, context);
  switch (key.kind) {
    case "edit":
      return { draft: { ...draft, line: editLine(draft.line, key.command, placeholders(draft)) } };
    case "type":
      return {
        draft: /[\r\n]/.test(key.text)
          ? pasted(draft, key.text, context.history)
          : inserted(draft, insertable(key.text)),
      };
    case "newline":
      return { draft: inserted(draft, "\n") };
    case "enter":
      return entered(draft);
    case "up":
      return {
        draft: onFirstRow(draft.line) ? historyStep(draft, 1, context.history) : moved(draft, "rowUp"),
      };
    case "down":
      return {
        draft: onLastRow(draft.line) ? historyStep(draft, -1, context.history) : moved(draft, "rowDown"),
      };
    case "search":
      return { draft: { ...draft, search: { state: newSearch, before: draft.line } } };
    case "abort":
      return { draft };
    case "tab":
      return { draft, effect: { kind: "complete" } };
    case "shiftTab":
      return { draft, effect: { kind: "cycleMode" } };
    case "cycleApproval":
      return { draft, effect: { kind: "cycleApprovalMode" } };
    case "escape":
      return context.busy ? { draft, effect: { kind: "stop" } } : { draft };
    case "ctrlC":
      if (context.busy) return { draft, effect: { kind: "stop" } };
      return draft.line.text === "" ? { draft, effect: { kind: "interrupt" } } : { draft: emptyDraft };
    case "ctrlD":
      return draft.line.text === ""
        ? { draft, effect: { kind: "exit" } }
        : { draft: { ...draft, line: editLine(draft.line, "deleteForward", placeholders(draft)) } };
  }
}

/** Pasted text, inserted whole: its newlines are part of the message, a large one a placeholder. */
export function pasted(draft: PromptDraft, text: string, history: readonly string[]): PromptDraft {
  const normalized = insertable(text);
  if (draft.search) {
    const firstLine = normalized.split("\n")[0] ?? "";
    return {
      ...draft,
      search: { ...draft.search, state: searchTyped(draft.search.state, firstLine, history) },
    };
  }
  if (!isLargePaste(normalized)) return inserted(draft, normalized);
  const number = draft.pasted + 1;
  const placeholder = pastePlaceholder(normalized, number);
  return {
    ...inserted(draft, placeholder),
    pastes: [...draft.pastes, { placeholder, text: normalized }],
    pasted: number,
  };
}

/** The draft with its line replaced (a completion), pastes and history position kept. */
export function withLine(draft: PromptDraft, line: EditorLine): PromptDraft {
  return { ...draft, line };
}

function placeholders(draft: PromptDraft): string[] {
  return draft.pastes.map((paste) => paste.placeholder);
}

function inserted(draft: PromptDraft, text: string): PromptDraft {
  return { ...draft, line: editLine(draft.line, { insert: text }) };
}

function moved(draft: PromptDraft, command: "rowUp" | "rowDown"): PromptDraft {
  return { ...draft, line: editLine(draft.line, command) };
}

/** Enter: a backslash before the cursor asks for a new line instead; otherwise the message goes. */
function entered(draft: PromptDraft): PromptChange {
  const { text, cursor } = draft.line;
  if (text[cursor - 1] === "\\") {
    const line = { text: `${text.slice(0, cursor - 1)}\n${text.slice(cursor)}`, cursor };
    return { draft: { ...draft, line } };
  }
  const message = expandPastes(text, draft.pastes).trim();
  return message === ""
    ? { draft: emptyDraft }
    : { draft: emptyDraft, effect: { kind: "submit", text: message } };
}

/** Up (1) or Down (-1) through the history; the draft typed before the first Up comes back last. */
function historyStep(draft: PromptDraft, step: 1 | -1, history: readonly string[]): PromptDraft {
  const back = Math.max(0, Math.min(history.length, draft.back + step));
  if (back === draft.back) return draft;
  const kept = draft.back === 0 ? draft.line : draft.kept;
  const line = back === 0 ? (kept ?? emptyLine) : lineOf(history[history.length - back] ?? "");
  return { ...draft, line, back, kept };
}

function pressedInSearch(
  draft: PromptDraft,
  search: NonNullable<PromptDraft["search"]>,
  key: PromptKey,
  context: PromptContext,
): PromptChange {
  const { history } = context;
  const searching = (state: HistorySearch): PromptChange => ({
    draft: { ...draft, search: { ...search, state } },
  });
  switch (key.kind) {
    case "type":
      return searching(searchTyped(search.state, insertable(key.text).split("\n")[0] ?? "", history));
    case "search":
      return searching(searchOlder(search.state, history));
    case "abort":
    case "ctrlC":
      return { draft: { ...draft, search: undefined, line: search.before } };
    case "edit":
      if (key.command === "deleteBackward") return searching(searchErased(search.state, history));
      return pressed(accepted(draft, search, history), key, context);
    case "enter":
      return entered(accepted(draft, search, history));
    default:
      return { draft: accepted(draft, search, history) };
  }
}

/** The search left with its match in the input, ready to edit or send. */
function accepted(
  draft: PromptDraft,
  search: NonNullable<PromptDraft["search"]>,
  history: readonly string[],
): PromptDraft {
  const match = searchMatch(search.state, history);
  return { ...draft, search: undefined, line: match === undefined ? search.before : lineOf(match) };
}
