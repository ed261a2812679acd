import { describe, expect, it } from "vitest";
import {
  newSearch,
  searchErased,
  searchOlder,
  searchPrompt,
  searchTyped,
} from "../src/terminalUi/historySearch.js";
import { expandPastes, isLargePaste, pastePlaceholder } from "../src/terminalUi/pastedText.js";
import {
  draftOf,
  emptyDraft,
  type PromptChange,
  type PromptContext,
  type PromptDraft,
  pasted,
  pressed,
} from "../src/terminalUi/promptDraft.js";
import type { PromptKey } from "../src/terminalUi/promptKeys.js";

const history = ["Tidy the imports", "Rename the module", "tidy the tests", "Rename the module"];
const idle: PromptContext = { history, busy: false };

/** The draft after typing `text` key by key and then pressing `keys`. */
function after(keys: (PromptKey | string)[], context = idle, from: PromptDraft = emptyDraft): PromptChange {
  let change: PromptChange = { draft: from };
  for (const key of keys) {
    const pressedKey: PromptKey = typeof key === "string" ? { kind: "type", text: key } : key;
    change = pressed(change.draft, pressedKey, context);
  }
  return change;
}

const enter: PromptKey = { kind: "enter" };
const up: PromptKey = { kind: "up" };
const down: PromptKey = { kind: "down" };
const search: PromptKey = { kind: "search" };
const left: PromptKey = { kind: "edit", command: "left" };
const backspace: PromptKey = { kind: "edit", command: "deleteBackward" };

describe("the input's draft", () => {
  it("sends the trimmed text on Enter and starts empty again", () => {
    const change = after(["  fix it  ", enter]);
    expect(change.effect).toEqual({ kind: "submit", text: "fix it" });
    expect(change.draft).toEqual(emptyDraft);
  });

  it("sends nothing for a blank line", () => {
    expect(after(["   ", enter]).effect).toBeUndefined();
  });

  it("inserts where the cursor is", () => {
    const change = after(["fix bug", left, left, left, "the ", enter]);
    expect(change.effect).toEqual({ kind: "submit", text: "fix the bug" });
  });

  it("goes on on a new line after a backslash, or on Shift+Enter, instead of sending", () => {
    const change = after(["one\\", enter, "two", { kind: "newline" }, "three"]);
    expect(change.effect).toBeUndefined();
    expect(change.draft.line).toEqual({ text: "one\ntwo\nthree", cursor: 13 });
    expect(after(["one\\", enter, "two", { kind: "newline" }, "three", enter]).effect).toEqual({
      kind: "submit",
      text: "one\ntwo\nthree",
    });
  });

  it("walks back through the history with Up and returns to the draft with Down", () => {
    expect(after(["half typed", up]).draft.line.text).toBe("Rename the module");
    expect(after(["half typed", up, up]).draft.line.text).toBe("tidy the tests");
    expect(after(["half typed", up, up, up, up, up]).draft.line.text).toBe("Tidy the imports");
    expect(after(["half typed", up, up, down]).draft.line.text).toBe("Rename the module");
    expect(after(["half typed", up, up, down, down]).draft.line).toEqual({ text: "half typed", cursor: 10 });
    expect(after(["half typed", down]).draft.line.text).toBe("half typed");
  });

  it("moves between the rows of a message before reaching into the history", () => {
    const twoRows = after(["first", { kind: "newline" }, "second", up]);
    expect(twoRows.draft.line).toEqual({ text: "first\nsecond", cursor: 5 });
    expect(after([up], idle, twoRows.draft).draft.line.text).toBe("Rename the module");
  });

  it("clears the draft on Ctrl+C, asks to interrupt when empty, and stops a run", () => {
    expect(after(["some text", { kind: "ctrlC" }])).toEqual({ draft: emptyDraft });
    expect(after([{ kind: "ctrlC" }]).effect).toEqual({ kind: "interrupt" });
    const busy = after(["queued", { kind: "ctrlC" }], { history, busy: true });
    expect(busy.effect).toEqual({ kind: "stop" });
    expect(busy.draft.line.text).toBe("queued");
  });

  it("exits on Ctrl+D only when empty, and deletes forward otherwise", () => {
    expect(after([{ kind: "ctrlD" }]).effect).toEqual({ kind: "exit" });
    const change = after(["abc", left, left, { kind: "ctrlD" }]);
    expect(change.effect).toBeUndefined();
    expect(change.draft.line).toEqual({ text: "ac", cursor: 1 });
  });

  it("stops a run on Esc, and otherwise leaves the draft alone", () => {
    expect(after(["x", { kind: "escape" }], { history, busy: true }).effect).toEqual({ kind: "stop" });
    expect(after(["x", { kind: "escape" }])).toEqual(after(["x"]));
  });

  it("asks for completion on Tab and for the next mode on Shift+Tab", () => {
    expect(after(["/he", { kind: "tab" }]).effect).toEqual({ kind: "complete" });
    expect(after([{ kind: "shiftTab" }]).effect).toEqual({ kind: "cycleMode" });
  });

  it("takes a message put back, the cursor at its end", () => {
    expect(draftOf("undone message")).toEqual({
      ...emptyDraft,
      line: { text: "undone message", cursor: 14 },
    });
  });
});

describe("Ctrl+R in the input", () => {
  it("finds the newest input with the typed text, and an older one on Ctrl+R again", () => {
    const found = after(["draft", search, "t", "i", "d"]);
    expect(searchPrompt(found.draft.search!.state, history)).toBe("(reverse-i-search)`tid': tidy the tests");
    const older = after([search], idle, found.draft);
    expect(searchPrompt(older.draft.search!.state, history)).toBe(
      "(reverse-i-search)`tid': Tidy the imports",
    );
    const none = after([search], idle, older.draft);
    expect(searchPrompt(none.draft.search!.state, history)).toBe(
      "(failed reverse-i-search)`tid': Tidy the imports",
    );
  });

  it("sends the match on Enter", () => {
    const change = after([search, "imp", enter]);
    expect(change.effect).toEqual({ kind: "submit", text: "Tidy the imports" });
    expect(change.draft).toEqual(emptyDraft);
  });

  it("leaves the search with the match in the input on Esc or Right, and as it was on Ctrl+C or Ctrl+G", () => {
    expect(after(["draft", search, "ren", { kind: "escape" }]).draft.line).toEqual({
      text: "Rename the module",
      cursor: 17,
    });
    expect(after(["draft", search, "ren", { kind: "edit", command: "right" }]).draft.line.text).toBe(
      "Rename the module",
    );
    expect(after(["draft", search, "ren", left]).draft.line).toEqual({
      text: "Rename the module",
      cursor: 16,
    });
    expect(after(["draft", search, "ren", { kind: "ctrlC" }]).draft).toEqual(after(["draft"]).draft);
    expect(after(["draft", search, "ren", { kind: "abort" }]).draft).toEqual(after(["draft"]).draft);
  });

  it("skips an older copy of the input shown", () => {
    const state = searchOlder(searchTyped(newSearch, "rename", history), history);
    expect(state).toEqual({ query: "rename", match: 3, failed: true });
  });

  it("widens the search again on Backspace", () => {
    const failed = searchTyped(searchTyped(newSearch, "tidy", history), "x", history);
    expect(failed).toEqual({ query: "tidyx", match: 2, failed: true });
    expect(searchErased(failed, history)).toEqual({ query: "tidy", match: 2, failed: false });
    expect(searchErased({ query: "t", match: 2, failed: false }, history)).toEqual(newSearch);
    expect(after([search, "tidyx", backspace]).draft.search?.state).toEqual({
      query: "tidy",
      match: 2,
      failed: false,
    });
  });
});

describe("pastes in the input", () => {
  const thirty = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");

  it("inserts a small paste as it is, its newlines part of the message", () => {
    const draft = pasted(after(["see "]).draft, "a\r\nb", history);
    expect(draft.line).toEqual({ text: "see a\nb", cursor: 7 });
    expect(draft.pastes).toEqual([]);
  });

  it("shows a large paste as a placeholder and sends the whole text", () => {
    const draft = pasted(after(["Look: "]).draft, thirty, history);
    expect(draft.line.text).toBe("Look: [Pasted text #1 +30 lines]");
    const second = pasted(draft, "x".repeat(801), history);
    expect(second.line.text).toBe("Look: [Pasted text #1 +30 lines][Pasted text #2 801 characters]");
    expect(after([enter], idle, second).effect).toEqual({
      kind: "submit",
      text: `Look: ${thirty}${"x".repeat(801)}`,
    });
  });

  it("removes a placeholder whole with one Backspace", () => {
    const draft = pasted(after(["Look: "]).draft, thirty, history);
    expect(after([backspace], idle, draft).draft.line.text).toBe("Look: ");
  });

  it("takes a chunk with a line break as a paste, not as Enter", () => {
    const change = after(["one\rtwo"]);
    expect(change.effect).toBeUndefined();
    expect(change.draft.line.text).toBe("one\ntwo");
  });

  it("leaves out control characters that came along with typed or pasted text", () => {
    expect(after(["\x12zz"]).draft.line.text).toBe("zz");
    expect(pasted(emptyDraft, "\x1b[31mred\x1b[0m\tcell", history).line.text).toBe("red\tcell");
  });

  it("adds a paste to the query during Ctrl+R", () => {
    const draft = pasted(after([search]).draft, "module\nmore", history);
    expect(draft.search?.state).toEqual({ query: "module", match: 3, failed: false });
  });

  it("tells large pastes by lines or characters", () => {
    expect(isLargePaste("a\n".repeat(10))).toBe(false);
    expect(isLargePaste("a\n".repeat(11))).toBe(true);
    expect(isLargePaste("x".repeat(800))).toBe(false);
    expect(isLargePaste("x".repeat(801))).toBe(true);
    expect(pastePlaceholder("a\nb\n", 3)).toBe("[Pasted text #3 +2 lines]");
  });

  it("expands each placeholder once, even a paste that reads like one", () => {
    const pastes = [
      { placeholder: "[Pasted text #1 +2 lines]", text: "[Pasted text #2 +3 lines]" },
      { placeholder: "[Pasted text #2 +3 lines]", text: "b" },
    ];
    expect(expandPastes("[Pasted text #1 +2 lines] and [Pasted text #2 +3 lines]", pastes)).toBe(
      "[Pasted text #2 +3 lines] and b",
    );
  });
});
