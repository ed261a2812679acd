import { describe, expect, it } from "vitest";
import { applyEdit } from "../../../src/tools/editEngine/applyEdit.js";

/** A small seeded generator, so a failure names a trial that can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Repeated lines make many edits ambiguous, which the engine must refuse rather than guess. */
const commonLines = [
  "}",
  "return value;",
  "count += 1;",
  "if (ready) {",
  'log("value");',
  "value = next(value);",
];

type Drift = (lines: readonly string[]) => string[];

/** Ways models get old_string (and new_string) slightly wrong. */
const drifts: Record<string, { old: Drift; new: Drift }> = {
  none: { old: (lines) => [...lines], new: (lines) => [...lines] },
  "trailing spaces": { old: (lines) => lines.map((line) => `${line}  `), new: (lines) => [...lines] },
  "tabs for spaces": {
    old: (lines) => lines.map(spacesToTabs),
    new: (lines) => lines.map(spacesToTabs),
  },
  "one level less": {
    old: (lines) => lines.map((line) => line.slice(4)),
    new: (lines) => lines.map((line) => line.slice(4)),
  },
  "2-space levels for 4": {
    old: (lines) => lines.map((line) => scaleIndent(line, 0.5)),
    new: (lines) => lines.map((line) => scaleIndent(line, 0.5)),
  },
  "8-space levels for 4": {
    old: (lines) => lines.map((line) => scaleIndent(line, 2)),
    new: (lines) => lines.map((line) => scaleIndent(line, 2)),
  },
  "smart quotes": {
    old: (lines) => lines.map((line) => line.replace(/"(\w+)"/g, (_quoted, word: string) => `“${word}”`)),
    new: (lines) => [...lines],
  },
  "misremembered middle": {
    old: (lines) =>
      lines.map((line, index) => (index === 1 && lines.length >= 3 ? `${line.slice(0, -2)}x;` : line)),
    new: (lines) => [...lines],
  },
};

function scaleIndent(line: string, factor: number): string {
  const indent = line.length - line.trimStart().length;
  return " ".repeat(indent * factor) + line.trimStart();
}

function spacesToTabs(line: string): string {
  const indent = line.length - line.trimStart().length;
  return "\t".repeat(indent / 4) + line.trimStart();
}

describe("the matcher never edits a wrong place", () => {
  it("applies drifted edits where they belong, or refuses them", () => {
    const random = seededRandom(20240611);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    let applied = 0;
    let tried = 0;
    for (let trial = 0; trial < 600; trial++) {
      const lines = Array.from({ length: 60 }, (_, index) => {
        const content = random() < 0.5 ? pick(commonLines) : `const v${index} = compute(${index});`;
        return " ".repeat(4 * (1 + Math.floor(random() * 3))) + content;
      });
      const file = `${lines.join("\n")}\n`;
      const first = Math.floor(random() * 55);
      const block = lines.slice(first, first + 1 + Math.floor(random() * 5));
      const intended = block.map((line) => `${line} // edited`);
      const [name, drift] = pick(Object.entries(drifts));
      const oldString = drift.old(block).join("\n");
      // Text that occurs as it is elsewhere is a real match there, not a drift.
      if (name !== "none" && file.includes(oldString)) continue;
      tried++;

      const outcome = applyEdit(file, { oldString, newString: drift.new(intended).join("\n") });
      const replay = `trial ${trial} (${name}): ${JSON.stringify(oldString)}`;
      if (!outcome.ok) {
        expect(["E_MULTIPLE_MATCHES", "E_NOT_FOUND"], replay).toContain(outcome.error.code);
        continue;
      }
      const expected = [...lines.slice(0, first), ...intended, ...lines.slice(first + block.length)];
      expect(outcome.content, replay).toBe(`${expected.join("\n")}\n`);
      applied++;
    }
    // Guards against a matcher that passes by refusing everything.
    expect(applied).toBeGreaterThan(tried / 3);
  });
});
