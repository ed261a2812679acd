// The drift corpus (cases/*.json) is the specification of the edit matcher: every case's expected
// text was written by hand from the intended edit, never produced by the engine. Each case runs
// through applyEdit once; an edit whose text differs from the intended one — or any edit on a case
// that must be refused — is a wrong-location edit and fails loudly.
import { assert, describe, expect, it } from "vitest";
import { applyEdit } from "../../../src/tools/editEngine/index.js";
import { type CorpusCase, changedLineSpan, firstDifference, judge, loadCorpus } from "./corpusFiles.js";

const corpus = loadCorpus();

describe("edit corpus shape", () => {
  it("has enough cases, refusals and themes to mean something", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(corpus.filter((testCase) => !testCase.intended).length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.map((testCase) => testCase.theme)).size).toBeGreaterThanOrEqual(10);
  });
});

const byTheme = new Map<string, CorpusCase[]>();
for (const testCase of corpus)
  byTheme.set(testCase.theme, [...(byTheme.get(testCase.theme) ?? []), testCase]);

for (const [theme, cases] of byTheme) {
  describe(`edit corpus: ${theme}`, () => {
    it.each(cases.map((testCase) => [testCase.name, testCase] as const))("%s", (_name, testCase) => {
      const outcome = applyEdit(testCase.file, {
        oldString: testCase.old_string,
        newString: testCase.new_string,
        replaceAll: testCase.replace_all,
      });
      const judgement = judge(testCase, outcome);
      if (judgement.verdict === "wrong-edit" && outcome.ok) {
        // Checked first and for every case: a wrong edit is worse than any refusal.
        const span = changedLineSpan(testCase.file, outcome.content);
        const what =
          "content" in testCase.expect
            ? `edited text differs from the intended edit at ${firstDifference(testCase.expect.content, outcome.content)}`
            : `edited lines ${span.first}–${span.last} where it must refuse with ${testCase.expect.refuse}`;
        assert.fail(`wrong-location edit (strategy ${outcome.strategy}): ${what}`);
      }
      if ("content" in testCase.expect) {
        assert(
          outcome.ok,
          outcome.ok ? "" : `refused an intended edit: ${outcome.error.code} ${outcome.error.message}`,
        );
        expect(outcome.content).toBe(testCase.expect.content);
      } else {
        assert(!outcome.ok, `must refuse with ${testCase.expect.refuse}`);
        expect(outcome.error.code).toBe(testCase.expect.refuse);
      }
    });
  });
}
