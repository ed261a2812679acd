import { attemptsOf } from "../tasks/stepSettlement.js";
import type { StepRecord, TaskRecord } from "../tasks/taskRecords.js";
import { lineageOf } from "./stepLineage.js";

/** Caps on what one step is handed, so a large patch or answer cannot crowd out the task. */
const answerCap = 12_000;
const patchCap = 40_000;
const outputCap = 4_000;

/**
 * What a pipeline step is asked: the task, its part in the pipeline, and the artifacts of the
 * steps it builds on (the plan, notes, the review's requests, the changes and their check). The
 * agent's own instructions go with every request as a system prompt; a plain step is asked its
 * prompt as it is.
 */
export function stepPrompt(task: TaskRecord, step: StepRecord, steps: readonly StepRecord[]): string {
  if (step.agent === null) return step.prompt;
  const pipeline = task.pipeline;
  const lineage = lineageOf(step, steps);
  const chain = pipeline?.steps.map((each) => each.agent.name).join(" → ") ?? step.agent.name;
  const parts = [
    step.prompt.trim(),
    "---",
    `You are the ${step.agent.name} of the pipeline "${pipeline?.name ?? "custom"}" (${chain}). ${partOf(step)}`,
  ];
  if (step.attemptNo !== null)
    parts.push(
      `This is attempt ${step.attemptNo} of ${task.attempts}: the other attempts do the same task side by side, and the best one that passes the project's check is kept.`,
    );
  if (pipeline !== null && pipeline.instructions.trim() !== "") parts.push(pipeline.instructions.trim());
  for (const earlier of lineage) {
    if (earlier.status === "skipped" || earlier.purpose === "rank") continue;
    const said = earlier.summary?.trim() ?? "";
    if (said !== "" && earlier.agent !== null && earlier.agent.readonly)
      parts.push(`## From the ${earlier.agent.name}\n\n${capped(said, answerCap)}`);
  }
  const sender = steps.find((each) => each.index === step.sentBackBy);
  if (sender?.verdict !== null && sender?.verdict !== undefined)
    parts.push(
      `## The review sent the work back\n\nThe earlier work is already in your checkout. Make what the reviewer asks for:\n\n${capped(sender.verdict.notes, answerCap)}`,
    );
  if (step.purpose === "review") parts.push(...reviewMaterial(lineage));
  if (step.purpose === "rank") parts.push(...rankMaterial(step, steps));
  return parts.join("\n\n");
}

function partOf(step: StepRecord): string {
  if (step.purpose === "review")
    return "Review the changes below against the task. End with exactly one line: `VERDICT: approve`, or `VERDICT: revise` with the changes you want listed above it.";
  if (step.purpose === "rank")
    return "Rank the attempts below, which each passed the project's check, by how well they do the task. End with exactly one line: `RANKING:` and the attempt numbers, best first.";
  if (step.agent?.readonly)
    return "You can read and search but not change anything; what you answer is handed to the steps after you.";
  return "Make the changes in this checkout; your changes are handed to the steps after you.";
}

function reviewMaterial(lineage: readonly StepRecord[]): string[] {
  const coding = [...lineage].reverse().find((each) => each.agent !== null && !each.agent.readonly);
  const patch = [...lineage].reverse().find((each) => each.taskPatch !== null)?.taskPatch ?? "";
  const parts = [
    patch.trim() === ""
      ? "## The changes so far\n\nNone: the steps before changed no file."
      : `## The changes so far\n\n\`\`\`diff\n${capped(patch, patchCap)}\n\`\`\``,
  ];
  const verify = coding?.verify;
  if (verify !== null && verify !== undefined)
    parts.push(
      `## The project's check: \`${verify.command}\` ${verify.passed ? "passed" : `failed${verify.exitCode === null ? "" : ` (exit ${verify.exitCode})`}`}\n\n\`\`\`\n${tail(verify.output, outputCap)}\n\`\`\``,
    );
  return parts;
}

function rankMaterial(rank: StepRecord, steps: readonly StepRecord[]): string[] {
  const { passed, rejected } = attemptsOf(rank, steps);
  const parts = passed.map(
    (attempt) =>
      `## Attempt ${attempt.attemptNo}\n\nIts coder said: ${capped(attempt.summary?.trim() || "(nothing)", 2_000)}\n\n\`\`\`diff\n${capped(attempt.taskPatch ?? "", patchCap / Math.max(1, passed.length))}\n\`\`\``,
  );
  if (rejected.length > 0)
    parts.push(
      `## Not ranked\n\n${rejected.map((each) => `- Attempt ${each.attempt}: ${each.reason}`).join("\n")}`,
    );
  return parts;
}

function capped(text: string, limit: number): string {
  return text.length <= limit
    ? text
    : `${text.slice(0, limit)}\n[… ${text.length - limit} more characters not shown]`;
}

function tail(text: string, limit: number): string {
  return text.length <= limit
    ? text
    : `[… ${text.length - limit} earlier characters not shown]\n${text.slice(-limit)}`;
}
