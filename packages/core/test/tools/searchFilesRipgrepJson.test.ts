import { describe, expect, it } from "vitest";
import { MatchCollector } from "../../src/tools/builtin/searchFiles/matchCollector.js";
import { RipgrepJsonReader } from "../../src/tools/builtin/searchFiles/ripgrepJson.js";
import type { SearchOutcome } from "../../src/tools/builtin/searchFiles/searchTypes.js";

/** ripgrep's --json messages for one file, as it writes them. */
function fileMessages(
  path: string,
  lines: Array<[number, string, boolean]>,
  binaryOffset: number | null = null,
): string[] {
  const matched = lines.filter(([, , isMatch]) => isMatch).length;
  return [
    JSON.stringify({ type: "begin", data: { path: { text: path } } }),
    ...lines.map(([number, text, isMatch]) =>
      JSON.stringify({
        type: isMatch ? "match" : "context",
        data: {
          path: { text: path },
          lines: { text: `${text}\n` },
          line_number: number,
          absolute_offset: 0,
          submatches: isMatch
            ? [
                {
                  match: { text: "hit" },
                  start: Buffer.byteLength(text.slice(0, text.indexOf("hit"))),
                  end: 0,
                },
              ]
            : [],
        },
      }),
    ),
    JSON.stringify({
      type: "end",
      data: {
        path: { text: path },
        binary_offset: binaryOffset,
        stats: { matched_lines: matched, matches: matched },
      },
    }),
  ];
}

const output = `${[
  ...fileMessages("./z.txt", [
    [1, "hit z1", true],
    [2, "hit z2", true],
  ]),
  ...fileMessages("./b.txt", [
    [1, "before", false],
    [2, "é hit b2", true],
    [3, "after", false],
    [7, "hit b7", true],
    [9, "hit b9", true],
    [10, "hit b10", true],
  ]),
  ...fileMessages("./bin.dat", [[1, "hit binary", true]], 4),
  ...fileMessages("./a.txt", [[5, `${"x".repeat(300)} hit a5`, true]]),
  ...fileMessages("./y.txt", [[1, "hit y1", true]]),
  JSON.stringify({ data: { elapsed_total: { secs: 0 } }, type: "summary" }),
].join("\n")}\n`;

function read(chunkSize: number): SearchOutcome {
  const collector = new MatchCollector(3);
  const reader = new RipgrepJsonReader(collector, { matchLimit: 3, includeFile: undefined });
  const bytes = Buffer.from(output);
  for (let start = 0; start < bytes.length; start += chunkSize)
    reader.push(bytes.subarray(start, start + chunkSize));
  reader.finish();
  return collector.outcome();
}

describe("RipgrepJsonReader", () => {
  it("keeps the files that can be shown, counts the others and drops binary files", () => {
    const outcome = read(1 << 20);
    expect(outcome.totalMatches).toBe(8);
    expect(outcome.totalFiles).toBe(4);
    expect(outcome.files.map((file) => file.path)).toEqual(["a.txt", "b.txt"]);
    const b = outcome.files[1];
    // Lines stop one match past the limit; the count comes from ripgrep's statistics.
    expect(b?.matchCount).toBe(4);
    expect(b?.lines.map((line) => `${line.number}${line.match ? ":" : "-"}${line.column ?? ""}`)).toEqual([
      "1-",
      "2:2",
      "3-",
      "7:0",
      "9:0",
      "10:0",
    ]);
  });

  it("reads the same whatever the chunk boundaries", () => {
    const whole = read(1 << 20);
    for (const size of [1, 2, 3, 5, 7, 9, 10, 11, 13, 64, 100, 333])
      expect(read(size), `chunks of ${size}`).toEqual(whole);
  });
});
