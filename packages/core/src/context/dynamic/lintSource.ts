import { largestFitting, tagged } from "./contextText.js";
import { formatLintProblems, type LintProblem } from "./lintProblems.js";
import type { SourceContext } from "./sourceContext.js";

/** Known lint problems (seed 001 D1 priority 3), at most maxLintProblems, fewer when the budget is short. */
export function addLinterErrors(context: SourceContext, problems: readonly LintProblem[]): void {
  if (problems.length === 0) return;
  const render = (count: number) => tagged("linter_errors", {}, formatLintProblems(problems, count));
  const count = largestFitting(Math.min(problems.length, context.settings.maxLintProblems), (n) =>
    context.assembly.fits(render(n)),
  );
  if (count <= 0) return;
  context.assembly.add({ source: "linter_errors", text: render(count), items: count, files: [] });
}
