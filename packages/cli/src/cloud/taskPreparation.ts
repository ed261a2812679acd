import { isAbsolute, resolve } from "node:path";
import {
  createRepositoryBundle,
  type PipelineSpec,
  routeTask,
  type StepPlan,
  sensitiveFilesIn,
  type TaskBudget,
  type TaskSubmission,
  trackedFiles,
  uncommittedChanges,
} from "@lathe/cloud";
import type { LatheErrorInfo } from "@lathe/protocol";

/** What a task gets when its face does not say (`lathe cloud submit` without the flags). */
export const taskDefaults = { priority: 0, timeoutSeconds: 3600, maxRetries: 2 } as const;

/** A task as any face asks for it (the CLI's flags, the web form, the terminal's `/cloud`). */
export interface TaskRequest {
  prompt: string;
  /** The project a local repository is bundled from when `repo` is not given. */
  projectRoot: string;
  /** An https:// or file:// URL the workers clone, or a local repository's path. */
  repo?: string;
  ref?: string;
  /** Further plain steps, each after the one before (no pipeline). */
  steps?: readonly string[];
  model?: string;
  approvalMode: string;
  priority: number;
  timeoutSeconds: number;
  maxRetries: number;
  bundleCapBytes: number;
  /** The router's decision overridden: only `cloud` reaches here (`local` runs in the face). */
  forceCloud?: boolean;
  pipeline?: PipelineSpec;
  attempts: number;
  budget?: TaskBudget;
  /** Steps (by name) that must run on this device, after its user consents. */
  onDevice?: readonly string[];
}

export type PreparedTask =
  | { ok: true; submission: TaskSubmission; notices: string[] }
  | { ok: false; error: LatheErrorInfo }
  /** The router keeps the task on this machine, and says why. */
  | { ok: false; local: string };

/**
 * Routes a task and gathers what the workers need: the repository (a URL, or the project's last
 * commit as a bundle) and the plan. Nothing is stored here; `submitTask` stores it.
 */
export async function prepareTask(
  request: TaskRequest,
  identity: { owner: string; deviceId: string },
): Promise<PreparedTask> {
  const repo = request.repo ?? request.projectRoot;
  const byUrl = /^(https|file):\/\//.test(repo);
  const repoPath = byUrl ? undefined : isAbsolute(repo) ? repo : resolve(request.projectRoot, repo);
  let sensitive: string[] = [];
  if (repoPath !== undefined) {
    const files = await trackedFiles(repoPath);
    if (!files.ok) return files;
    sensitive = sensitiveFilesIn(files.files);
  }
  const route = routeTask({
    prompt: request.prompt,
    override: request.forceCloud ? "cloud" : undefined,
    cloudReachable: true,
    sensitiveFiles: sensitive,
  });
  if (route.target === "local") return { ok: false, local: route.reason };
  const notices: string[] = [];
  let bundle: Buffer | undefined;
  let ref = request.ref;
  if (repoPath !== undefined) {
    const made = await createRepositoryBundle({
      projectDir: repoPath,
      ref: request.ref,
      capBytes: request.bundleCapBytes,
    });
    if (!made.ok) return made;
    bundle = made.bundle;
    ref = made.commit;
    const pending = await uncommittedChanges(repoPath);
    if (pending.length > 0)
      notices.push(
        `${pending.length} uncommitted change(s) stay here (the workers get the last commit): ${pending.slice(0, 3).join(", ")}${pending.length > 3 ? ", …" : ""}`,
      );
  }
  const steps: StepPlan[] = [request.prompt, ...(request.steps ?? [])].map((text, index) => ({
    name: index === 0 ? "task" : `step ${index + 1}`,
    prompt: text,
    dependsOn: index === 0 ? [] : [index - 1],
  }));
  return {
    ok: true,
    notices,
    submission: {
      owner: identity.owner,
      deviceId: identity.deviceId,
      prompt: request.prompt,
      steps,
      repoUrl: byUrl ? repo : undefined,
      ref,
      bundle,
      model: request.model,
      approvalMode: request.approvalMode,
      priority: request.priority,
      timeoutSeconds: request.timeoutSeconds,
      maxRetries: request.maxRetries,
      route,
      pipeline: request.pipeline,
      attempts: request.attempts,
      budget: request.budget,
      onDevice: [...(request.onDevice ?? [])],
    },
  };
}
