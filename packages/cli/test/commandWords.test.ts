import { describe, expect, it } from "vitest";
import { commandWords } from "../src/terminalUi/commandWords.js";

describe("a slash command's arguments split into words as a shell splits them", () => {
  it("keeps quoted blanks, drops the quotes, and reads escapes as the character", () => {
    expect(commandWords(`submit "fix the bug" --priority 2`)).toEqual({
      ok: true,
      words: ["submit", "fix the bug", "--priority", "2"],
    });
    expect(commandWords(`submit 'say "hi"'  --message="no, it's \\"wrong\\"" a\\ b`)).toEqual({
      ok: true,
      words: ["submit", 'say "hi"', '--message=no, it\'s "wrong"', "a b"],
    });
    expect(commandWords(`answer "" x"y z"w 'a\\b'`)).toEqual({
      ok: true,
      words: ["answer", "", "xy zw", "a\\b"],
    });
    expect(commandWords("  \t ")).toEqual({ ok: true, words: [] });
  });

  it("refuses a quote left open", () => {
    expect(commandWords(`submit "fix it`)).toEqual({ ok: false, message: "the double quote is not closed" });
    expect(commandWords("submit 'fix it")).toEqual({ ok: false, message: "the single quote is not closed" });
  });
});
