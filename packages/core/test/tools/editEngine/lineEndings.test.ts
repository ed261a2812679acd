import { describe, expect, it } from "vitest";
import { type EndedLine, endingsOfWrittenLines } from "../../../src/tools/editEngine/lineEndings.js";

const crlf = (text: string): EndedLine => ({ text, ending: "\r\n" });
const lf = (text: string): EndedLine => ({ text, ending: "\n" });

describe("the line endings an edit writes", () => {
  it.each([
    {
      name: "a rewritten line keeps its ending",
      replaced: [lf("b")],
      written: ["B"],
      nearby: undefined,
      expected: ["\n"],
    },
    {
      name: "rewritten lines take the replaced endings in order",
      replaced: [crlf("a"), lf("b")],
      written: ["A", "B"],
      nearby: undefined,
      expected: ["\r\n", "\n"],
    },
    {
      name: "lines beyond the replaced ones take the last replaced ending",
      replaced: [lf("a")],
      written: ["A", "B", "C"],
      nearby: "\r\n" as const,
      expected: ["\n", "\n", "\n"],
    },
    {
      name: "unchanged lines at either end keep their own endings",
      replaced: [crlf("a"), lf("b")],
      written: ["a", "x", "b"],
      nearby: undefined,
      expected: ["\r\n", "\r\n", "\n"],
    },
    {
      name: "an insertion replacing nothing takes the ending nearby",
      replaced: [],
      written: ["x"],
      nearby: "\r\n" as const,
      expected: ["\r\n"],
    },
    {
      name: "a last line without an ending leaves the file's usual one",
      replaced: [{ text: "z", ending: undefined }],
      written: ["Z", "W"],
      nearby: undefined,
      expected: [undefined, undefined],
    },
  ])("$name", ({ replaced, written, nearby, expected }) => {
    expect(endingsOfWrittenLines(replaced, written, nearby)).toEqual(expected);
  });
});
