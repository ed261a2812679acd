import { readSteps, type StepRecord, type TaskRecord } from "@lathe/cloud";
import { runGit } from "@lathe/core";
import { errorInfo, type LatheErrorInfo, newId } from "@lathe/protocol";
import { checkpointRepositoryFor } from "../checkpointRepository.js";
import { exitCodes } from "../exitCodes.js";
import { openSessionStore } from "../sessionDatabase.js";
import { type CloudContext, failed } from "./cloudContext.js";
import { patchSummary } from "./cloudOutput.js";

export interface ApplyRequest {
  latheHome: string;
  env: Record<string, string | undefined>;
  projectRoot: string;
  task: TaskRecord;
  steps: readonly StepRecord[];
  /** A best-of-N attempt (1-based) to apply instead of the task's own result. */
  attempt?: number;
}

export interface TaskApplied {
  /** The patch that was applied ("" when the task or attempt changed nothing). */
  patch: string;
  /** The checkpoint taken before, which undoes it; absent when nothing was applied. */
  checkpoint?: { id: string; shortId: string };
}

export type ApplyOutcome = { ok: true; value: TaskApplied } | { ok: false; error: LatheErrorInfo };

type PatchChoice = { ok: true; patch: string } | { ok: false; error: LatheErrorInfo };

/**
 * What `apply` takes: the task's patch once it has completed, or attempt K's — the changes of the
 * latest step of that attempt (a send-back repeats an attempt's step), which must have completed
 * and passed its verify.
 */
export function patchToApply(task: TaskRecord, steps: readonly StepRecord[], attempt?: number): PatchChoice {
  const id = task.id.slice(0, 8);
  const refuse = (message: string): PatchChoice => ({ ok: false, error: errorInfo("E_TASK_STATE", message) });
  if (attempt === undefined) {
    if (task.status !== "completed")
      return refuse(`Task ${id} is ${task.status}: only a completed task has a patch to apply.`);
    return { ok: true, patch: task.patch ?? "" };
  }
  const step = steps.filter((candidate) => candidate.attemptNo === attempt).at(-1);
  if (step === undefined)
    return refuse(
      task.attempts > 1
        ? `Task ${id} has no attempt ${attempt}: it ran attempts 1 to ${task.attempts}.`
        : `Task ${id} has no attempt ${attempt}: it ran no best-of-N attempts.`,
    );
  if (step.status !== "completed")
    return refuse(
      `Attempt ${attempt} of task ${id} is ${step.status}: only a completed attempt can be applied.`,
    );
  if (step.verify !== null && !step.verify.passed)
    return refuse(
      `Attempt ${attempt} of task ${id} did not pass its verify (\`${step.verify.command}\` exited ${step.verify.exitCode ?? "without a code"}): it is not applied.`,
    );
  return { ok: true, patch: step.taskPatch ?? "" };
}

/**
 * The chosen patch applied to the project, all or nothing (git apply checks every hunk before it
 * writes one), after a checkpoint of the project taken and recorded in a session of its own, so
 * `lathe checkpoints restore` undoes it. git apply refuses paths that leave the project or pass
 * through a symbolic link. The CLI and `lathe serve` both apply through here.
 */
export async function applyTaskPatch(request: ApplyRequest): Promise<ApplyOutcome> {
  const { task, projectRoot, latheHome } = request;
  const chosen = patchToApply(task, request.steps, request.attempt);
  if (!chosen.ok) return chosen;
  const patch = chosen.patch;
  if (patch === "") return { ok: true, value: { patch } };
  const check = await runGit({ args: ["apply", "--check", "--binary", "-"], cwd: projectRoot, input: patch });
  if (!check.ok) return check;
  if (check.value.exitCode !== 0) {
    const detail = check.value.stderr.trim().split("\n").slice(0, 3).join("; ");
    return {
      ok: false,
      error: errorInfo(
        "E_TASK_STATE",
        `The ${request.attempt === undefined ? "task's patch" : `patch of attempt ${request.attempt}`} does not apply to ${projectRoot}: ${detail}. Nothing was changed.`,
      ),
    };
  }
  const opened = openSessionStore(latheHome, request.env);
  if (!opened.ok) return opened;
  const store = opened.value;
  try {
    const shadow = await checkpointRepositoryFor(latheHome, projectRoot);
    if (!shadow.ok) return shadow;
    const snapshot = await shadow.value.snapshot(`Before applying cloud task ${task.id}`);
    if (!snapshot.ok) return snapshot;
    const sessionId = newId();
    const which = request.attempt === undefined ? "" : ` (attempt ${request.attempt})`;
    store.ensureSession({
      id: sessionId,
      projectRoot,
      mode: "agent",
      model: task.model ?? "cloud",
      title: `Cloud task ${task.id.slice(0, 8)}${which}: ${task.title}`,
    });
    const checkpoint = store.addCheckpoint({
      sessionId,
      reason: "before_apply",
      commit: snapshot.value.commit,
    });
    const applied = await runGit({ args: ["apply", "--binary", "-"], cwd: projectRoot, input: patch });
    if (!applied.ok) return applied;
    if (applied.value.exitCode !== 0)
      return {
        ok: false,
        error: errorInfo("E_TASK_STATE", `git apply failed: ${applied.value.stderr.trim()}`),
      };
    return {
      ok: true,
      value: { patch, checkpoint: { id: checkpoint.id, shortId: store.shortCheckpointId(checkpoint.id) } },
    };
  } finally {
    store.close();
  }
}

/** `lathe cloud apply ID [--attempt K]`. */
export async function applyTask(context: CloudContext, task: TaskRecord): Promise<number> {
  const { io, args, latheHome } = context;
  const attemptText = args.values.attempt;
  const attempt = attemptText === undefined ? undefined : Number(attemptText);
  if (attempt !== undefined && (!Number.isInteger(attempt) || attempt < 1))
    return args.misuse("--attempt takes an attempt's number (1, 2, …)");
  // Only an attempt is chosen among the steps; the task's own patch is on the task.
  const steps = attempt === undefined ? [] : await readSteps(context.database.pool, task.id);
  const outcome = await applyTaskPatch({
    latheHome,
    env: io.env,
    projectRoot: args.projectRoot,
    task,
    steps,
    attempt,
  });
  if (!outcome.ok) return failed(io, outcome.error);
  const { patch, checkpoint } = outcome.value;
  const what =
    attempt === undefined
      ? `task ${task.id.slice(0, 8)}`
      : `attempt ${attempt} of task ${task.id.slice(0, 8)}`;
  if (checkpoint === undefined) {
    io.stdout(`${what[0]?.toUpperCase()}${what.slice(1)} changed nothing: there is nothing to apply.\n`);
    return exitCodes.completed;
  }
  if (args.values.json) {
    io.stdout(
      `${JSON.stringify({ applied: true, task: task.id, ...(attempt === undefined ? {} : { attempt }), checkpoint: checkpoint.id })}\n`,
    );
  } else {
    io.stdout(
      `Applied ${what} (${patchSummary(patch)}). Undo with: lathe checkpoints restore ${checkpoint.shortId}\n`,
    );
  }
  return exitCodes.completed;
}
