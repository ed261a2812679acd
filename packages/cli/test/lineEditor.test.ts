import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import {
  type EditAction,
  type EditCommand,
  type EditorLine,
  editLine,
  onFirstRow,
  onLastRow,
} from "../src/terminalUi/lineEditor.js";
import { type PromptKey, promptKey } from "../src/terminalUi/promptKeys.js";

/** "ab|c": the text with the cursor written as `|`. */
function at(written: string): EditorLine {
  const cursor = written.indexOf("|");
  return { text: written.slice(0, cursor) + written.slice(cursor + 1), cursor };
}

function written(line: EditorLine): string {
  return `${line.text.slice(0, line.cursor)}|${line.text.slice(line.cursor)}`;
}

describe("the line editor", () => {
  const cases: [before: string, action: EditAction, after: string][] = [
    ["ab|", { insert: "c" }, "abc|"],
    ["a|c", { insert: "b" }, "ab|c"],
    ["|", { insert: "two\nrows" }, "two\nrows|"],
    ["abc|", "left", "ab|c"],
    ["|abc", "left", "|abc"],
    ["a|bc", "right", "ab|c"],
    ["abc|", "right", "abc|"],
    ["a😀|", "left", "a|😀"],
    ["a|😀b", "right", "a😀|b"],
    ["a😀|", "deleteBackward", "a|"],
    ["fix the bug|", "wordLeft", "fix the |bug"],
    ["fix the |bug", "wordLeft", "fix |the bug"],
    ["fix the-|bug", "wordLeft", "fix |the-bug"],
    ["|fix the bug", "wordRight", "fix| the bug"],
    ["fix| the bug", "wordRight", "fix the| bug"],
    ["one\ntw|o", "rowStart", "one\n|two"],
    ["o|ne\ntwo", "rowEnd", "one|\ntwo"],
    ["one|", "rowStart", "|one"],
    ["one\ntwo|", "rowEnd", "one\ntwo|"],
    ["abc|", "deleteBackward", "ab|"],
    ["|abc", "deleteBackward", "|abc"],
    ["a|bc", "deleteForward", "a|c"],
    ["abc|", "deleteForward", "abc|"],
    ["git commit -m fix|", "deleteWordBackward", "git commit -m |"],
    ["src/app.ts  |", "deleteWordBackward", "|"],
    ["go to src/app.ts|", "deleteWordBackward", "go to |"],
    ["a |quick fox", "deleteWordForward", "a | fox"],
    ["first\nsecond ro|w", "deleteToRowStart", "first\n|w"],
    ["one| two\nthree", "deleteToRowEnd", "one|\nthree"],
    ["long row\nsh|ort", "rowUp", "lo|ng row\nshort"],
    ["ab\nlong ro|w", "rowUp", "ab|\nlong row"],
    ["a|bc", "rowUp", "a|bc"],
    ["lon|g\nab", "rowDown", "long\nab|"],
    ["a|b\ncd", "rowDown", "ab\nc|d"],
    ["ab\nc|d", "rowDown", "ab\nc|d"],
  ];
  it.each(cases)("%j, %j → %j", (before, action, after) => {
    expect(written(editLine(at(before), action))).toBe(after);
  });

  const placeholder = "[Pasted text #1 +30 lines]";
  const atomCases: [before: string, action: EditAction, after: string][] = [
    [`see ${placeholder}|`, "deleteBackward", "see |"],
    [`|${placeholder} here`, "deleteForward", "| here"],
    [`see ${placeholder}|`, "left", `see |${placeholder}`],
    [`see |${placeholder}`, "right", `see ${placeholder}|`],
    [`see ${placeholder}x|`, "deleteBackward", `see ${placeholder}|`],
  ];
  it.each(atomCases)("steps over a paste's placeholder whole: %j, %j → %j", (before, action, after) => {
    expect(written(editLine(at(before), action, [placeholder]))).toBe(after);
  });

  it("tells whether the cursor is on the first or the last row", () => {
    expect([onFirstRow(at("ab|c")), onLastRow(at("ab|c"))]).toEqual([true, true]);
    expect([onFirstRow(at("a|b\nc")), onLastRow(at("a|b\nc"))]).toEqual([true, false]);
    expect([onFirstRow(at("ab\nc|")), onLastRow(at("ab\nc|"))]).toEqual([false, true]);
    expect([onFirstRow(at("a\n|b\nc")), onLastRow(at("a\n|b\nc"))]).toEqual([false, false]);
  });
});

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

describe("the input's keys", () => {
  const edit = (command: EditCommand): PromptKey => ({ kind: "edit", command });
  const cases: [what: string, input: string, key: Partial<Key>, expected: PromptKey | undefined][] = [
    ["a letter", "a", {}, { kind: "type", text: "a" }],
    ["a chunk typed fast", "abc", {}, { kind: "type", text: "abc" }],
    ["Enter", "\r", { return: true }, { kind: "enter" }],
    ["Shift+Enter (kitty CSI 13;2u)", "\r", { return: true, shift: true }, { kind: "newline" }],
    ["Alt+Enter (ESC CR)", "\r", { return: true, meta: true }, { kind: "newline" }],
    ["Ctrl+J", "\n", {}, { kind: "newline" }],
    ["Left", "", { leftArrow: true }, edit("left")],
    ["Right", "", { rightArrow: true }, edit("right")],
    ["Alt+Left", "", { leftArrow: true, meta: true }, edit("wordLeft")],
    ["Ctrl+Right", "", { rightArrow: true, ctrl: true }, edit("wordRight")],
    ["Alt+B", "b", { meta: true }, edit("wordLeft")],
    ["Alt+F", "f", { meta: true }, edit("wordRight")],
    ["Alt+D", "d", { meta: true }, edit("deleteWordForward")],
    ["Home", "", { home: true }, edit("rowStart")],
    ["End", "", { end: true }, edit("rowEnd")],
    ["Ctrl+A", "a", { ctrl: true }, edit("rowStart")],
    ["Ctrl+E", "e", { ctrl: true }, edit("rowEnd")],
    ["Ctrl+U", "u", { ctrl: true }, edit("deleteToRowStart")],
    ["Ctrl+K", "k", { ctrl: true }, edit("deleteToRowEnd")],
    ["Ctrl+W", "w", { ctrl: true }, edit("deleteWordBackward")],
    ["Backspace", "", { backspace: true }, edit("deleteBackward")],
    ["Alt+Backspace", "", { backspace: true, meta: true }, edit("deleteWordBackward")],
    ["Delete", "", { delete: true }, edit("deleteForward")],
    ["Up", "", { upArrow: true }, { kind: "up" }],
    ["Down", "", { downArrow: true }, { kind: "down" }],
    ["Ctrl+R", "r", { ctrl: true }, { kind: "search" }],
    ["Ctrl+G", "g", { ctrl: true }, { kind: "abort" }],
    ["Tab", "", { tab: true }, { kind: "tab" }],
    ["Shift+Tab", "", { tab: true, shift: true }, { kind: "shiftTab" }],
    ["Esc", "", { escape: true }, { kind: "escape" }],
    ["Ctrl+C", "c", { ctrl: true }, { kind: "ctrlC" }],
    ["Ctrl+D", "d", { ctrl: true }, { kind: "ctrlD" }],
    ["an unbound Ctrl key", "t", { ctrl: true }, undefined],
    ["an unbound Alt key", "x", { meta: true }, undefined],
    ["Page Up", "", { pageUp: true }, undefined],
    ["a key's release (kitty)", "a", { eventType: "release" }, undefined],
  ];
  it.each(cases)("%s", (_what, input, key, expected) => {
    expect(promptKey(input, { ...noKey, ...key })).toEqual(expected);
  });
});
