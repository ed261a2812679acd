import { mkdir, rm, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { type GitOutcome, type GitRequest, runGit } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

export interface CheckoutRequest {
  /** The worker's folder of checkouts. */
  root: string;
  taskId: string;
  stepIndex: number;
  /** Where to clone from when there is no bundle: an https URL or a path on the worker. */
  repoUrl: string | null;
  bundle?: Buffer;
  ref: string | null;
  /** The changes of the steps this one builds on, applied and committed in order as they were. */
  priorSteps: readonly { patch: string; message: string }[];
  deviceId: string;
  signal: AbortSignal;
}

export interface Checkout {
  dir: string;
  branch: string;
  /** The commit the task started from: the task's patch is everything since. */
  taskBase: string;
  /** The commit this step started from: its own patch is everything since. */
  stepBase: string;
}

export type CheckoutOutcome = { ok: true; checkout: Checkout } | { ok: false; error: LatheErrorInfo };

/** The branch a task's work is delivered on. */
export function taskBranch(taskId: string): string {
  return `lathe/task-${taskId.slice(0, 8)}`;
}

/** A clone of the task's repository for one step, at the task's ref, with the steps before it. */
export async function prepareCheckout(request: CheckoutRequest): Promise<CheckoutOutcome> {
  const dir = join(request.root, `${request.taskId}-${request.stepIndex}`);
  // What an earlier attempt left (a worker killed mid-step) is discarded, never built upon.
  await rm(dir, { recursive: true, force: true });
  await rm(`${dir}.bundle`, { force: true });
  await mkdir(request.root, { recursive: true });
  const source = await cloneSource(request, dir);
  if (!source.ok) return source;
  const git = gitIn(dir, request.signal, request.deviceId);
  const cloned = await runGit({
    args: ["clone", "--quiet", "--no-checkout", source.from, dir],
    cwd: request.root,
    transports: source.transports,
    signal: request.signal,
  });
  await rm(`${dir}.bundle`, { force: true });
  const cloneFailure = failureOf(cloned, `git could not clone ${source.shown}`);
  if (cloneFailure !== undefined) return { ok: false, error: cloneFailure };
  const ref = request.ref ?? "HEAD";
  const commit = await resolveCommit(git, ref);
  if (commit === undefined)
    return { ok: false, error: errorInfo("E_REPO_UNAVAILABLE", `The repository has no ref ${ref}.`) };
  const branch = taskBranch(request.taskId);
  const switched = await git(["checkout", "--quiet", "-B", branch, commit]);
  const switchFailure = failureOf(switched, `git could not check out ${ref}`);
  if (switchFailure !== undefined) return { ok: false, error: switchFailure };
  for (const [index, { patch, message }] of request.priorSteps.entries()) {
    if (patch.trim() === "") continue;
    const applied = await git(["apply", "--index", "--binary", "-"], patch);
    const applyFailure = failureOf(applied, `the changes of an earlier step (${index + 1}) do not apply`);
    if (applyFailure !== undefined) return { ok: false, error: applyFailure };
    const committed = await git(["commit", "--quiet", "--no-verify", "-m", message]);
    const commitFailure = failureOf(committed, "git could not commit an earlier step's changes");
    if (commitFailure !== undefined) return { ok: false, error: commitFailure };
  }
  const stepBase = (await resolveCommit(git, "HEAD")) ?? commit;
  return { ok: true, checkout: { dir, branch, taskBase: commit, stepBase } };
}

export interface StepChanges {
  /** This step's changes (a binary-safe unified diff), empty when it changed nothing. */
  stepPatch: string;
  /** The task's changes so far: every step's up to and including this one. */
  taskPatch: string;
}

/** Everything the step changed in its checkout, committed on the task's branch. */
export async function collectChanges(
  checkout: Checkout,
  message: string,
  deviceId: string,
  signal: AbortSignal,
): Promise<{ ok: true; changes: StepChanges } | { ok: false; error: LatheErrorInfo }> {
  const git = gitIn(checkout.dir, signal, deviceId);
  const added = await git(["add", "--all"]);
  const addFailure = failureOf(added, "git could not stage the step's changes");
  if (addFailure !== undefined) return { ok: false, error: addFailure };
  const stepDiff = await git(["diff", "--cached", "--binary", checkout.stepBase]);
  const stepFailure = failureOf(stepDiff, "git could not diff the step's changes");
  if (stepFailure !== undefined || !stepDiff.ok)
    return { ok: false, error: stepFailure ?? errorInfo("E_TOOL_EXECUTION", "git diff failed") };
  const stepPatch = stepDiff.value.stdout.toString("utf8");
  if (stepPatch !== "") {
    const committed = await git(["commit", "--quiet", "--no-verify", "-m", message]);
    const commitFailure = failureOf(committed, "git could not commit the step's changes");
    if (commitFailure !== undefined) return { ok: false, error: commitFailure };
  }
  const taskDiff = await git(["diff", "--binary", checkout.taskBase, "HEAD"]);
  const taskFailure = failureOf(taskDiff, "git could not diff the task's changes");
  if (taskFailure !== undefined || !taskDiff.ok)
    return { ok: false, error: taskFailure ?? errorInfo("E_TOOL_EXECUTION", "git diff failed") };
  return { ok: true, changes: { stepPatch, taskPatch: taskDiff.value.stdout.toString("utf8") } };
}

/** Pushes the task's branch to the repository it came from (never for a bundle). */
export async function pushBranch(
  checkout: Checkout,
  repoUrl: string,
  signal: AbortSignal,
): Promise<LatheErrorInfo | undefined> {
  const transports = transportsFor(repoUrl);
  if (transports === undefined)
    return errorInfo("E_REPO_UNAVAILABLE", `Lathe pushes over https or to a path, not to ${repoUrl}.`);
  const pushed = await runGit({
    args: ["push", "--quiet", "--force", repoUrl, `HEAD:refs/heads/${checkout.branch}`],
    cwd: checkout.dir,
    transports,
    signal,
  });
  return failureOf(pushed, `git could not push ${checkout.branch}`);
}

async function cloneSource(
  request: CheckoutRequest,
  dir: string,
): Promise<
  | { ok: true; from: string; shown: string; transports: ("file" | "https")[] }
  | { ok: false; error: LatheErrorInfo }
> {
  if (request.bundle !== undefined) {
    const file = `${dir}.bundle`;
    await writeFile(file, request.bundle);
    return { ok: true, from: file, shown: "the task's bundle", transports: ["file"] };
  }
  if (request.repoUrl === null)
    return { ok: false, error: errorInfo("E_REPO_UNAVAILABLE", "The task names no repository.") };
  const transports = transportsFor(request.repoUrl);
  if (transports === undefined)
    return {
      ok: false,
      error: errorInfo(
        "E_REPO_UNAVAILABLE",
        `Workers clone over https or from a path, not ${request.repoUrl}.`,
      ),
    };
  return { ok: true, from: request.repoUrl, shown: request.repoUrl, transports };
}

/** https for URLs, file for paths; nothing else (ssh would need a program git starts). */
export function transportsFor(repoUrl: string): ("file" | "https")[] | undefined {
  if (repoUrl.startsWith("https://")) return ["https"];
  if (repoUrl.startsWith("file://") || isAbsolute(repoUrl)) return ["file"];
  return undefined;
}

function gitIn(dir: string, signal: AbortSignal, deviceId: string) {
  return (args: GitRequest["args"], input?: string) =>
    runGit({
      args,
      cwd: dir,
      input,
      signal,
      env: {
        GIT_AUTHOR_NAME: "Lathe worker",
        GIT_AUTHOR_EMAIL: `worker@${deviceId}.lathe`,
        GIT_COMMITTER_NAME: "Lathe worker",
        GIT_COMMITTER_EMAIL: `worker@${deviceId}.lathe`,
      },
    });
}

async function resolveCommit(git: ReturnType<typeof gitIn>, ref: string): Promise<string | undefined> {
  if (ref.startsWith("-")) return undefined;
  for (const candidate of [ref, `origin/${ref}`]) {
    const found = await git(["rev-parse", "--verify", "--quiet", `${candidate}^{commit}`]);
    if (found.ok && found.value.exitCode === 0) return found.value.stdout.toString("utf8").trim();
  }
  return undefined;
}

function failureOf(outcome: GitOutcome, what: string): LatheErrorInfo | undefined {
  if (!outcome.ok) return outcome.error;
  if (outcome.value.exitCode === 0) return undefined;
  const detail = outcome.value.stderr.trim().split("\n").slice(-2).join(" ");
  return errorInfo("E_REPO_UNAVAILABLE", `${what}${detail ? `: ${detail}` : ""}.`);
}
