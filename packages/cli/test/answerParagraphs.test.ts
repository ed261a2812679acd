import { describe, expect, it } from "vitest";
import { finishedLength } from "../src/terminalUi/answerParagraphs.js";

describe("the finished part of a streaming answer", () => {
  const cases: [answer: string, finished: string][] = [
    ["", ""],
    ["One paragraph, still being written", ""],
    ["First paragraph.\n\nSecond, still", "First paragraph.\n\n"],
    ["First.\n\nSecond.\n\n", "First.\n\nSecond.\n\n"],
    // A blank line in a code block does not end it; the block ends at its closing fence.
    ["```ts\nconst a = 1;\n\nconst b = 2;\n", ""],
    ["```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter", "```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n"],
    // The line being written is not finished, even when it is blank so far.
    ["Done.\n", ""],
    ["Done.\n   ", ""],
  ];
  for (const [answer, finished] of cases)
    it(JSON.stringify(answer), () => {
      expect(answer.slice(0, finishedLength(answer))).toBe(finished);
    });
});
