import { fileURLToPath } from "node:url";
import { loadEvalCases, runEvalCase } from "@lathe/testkit";
import { describe, expect, it } from "vitest";

const casesDir = fileURLToPath(new URL("./cases", import.meta.url));
const cases = loadEvalCases(casesDir);

// Each case: its fixture project, its task, and a scripted model that does what a competent
// model would do (mistakes included), over HTTP; verify.mjs judges the outcome.
describe("evaluation cases with scripted models", () => {
  it.each(cases.map((c) => [`${c.id} ${c.title}`, c] as const))("%s", async (_name, evalCase) => {
    const outcome = await runEvalCase(evalCase);
    expect(outcome.failures).toEqual([]);
    expect(outcome.result.iterations).toBe(evalCase.expectedIterations);
    // A competent model's script scores full marks on completion and efficiency.
    expect([outcome.scores.completion, outcome.scores.efficiency]).toEqual([10, 10]);
  });
});
