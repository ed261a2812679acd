import { readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type PathCase, type PathExpectation, pathOutcome } from "../../../../bench/security/pathBed.mjs";
import { resolveProjectPath } from "../../src/policy/pathGuard.js";
import { isSensitivePath } from "../../src/policy/sensitivePaths.js";

type Expectation = PathExpectation;

const corpus: { cases: PathCase[] } = JSON.parse(
  readFileSync(new URL("./corpora/paths.json", import.meta.url), "utf8"),
);

const bases: string[] = [];
afterAll(() => {
  for (const base of bases) rmSync(base, { recursive: true, force: true });
});

function outcome(testCase: PathCase): Promise<Expectation> {
  return pathOutcome(testCase, { resolveProjectPath, isSensitivePath }, bases);
}

// Backslashes, drive letters and device names mean other things on Windows; see the corpus's decisions.
describe.skipIf(process.platform === "win32")("path corpus", () => {
  it("has at least 100 cases of every kind", () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(100);
    const kinds = new Set(corpus.cases.map((testCase) => testCase.expect));
    expect([...kinds].sort()).toEqual(["E_PATH_TRAVERSAL", "E_SECURITY_BLOCKED", "allow", "sensitive"]);
  });

  it.each(
    corpus.cases.map(
      (testCase, index) => [index, JSON.stringify(testCase.path), testCase.why, testCase] as const,
    ),
  )("#%i %s: %s", async (_index, _shown, _why, testCase) => {
    expect(await outcome(testCase)).toBe(testCase.expect);
  });
});
