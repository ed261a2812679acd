import type { TaskRecord } from "@lathe/cloud";
import { runGit } from "@lathe/core";
import { errorInfo, newId } from "@lathe/protocol";
import { checkpointRepositoryFor } from "../checkpointRepository.js";
import { exitCodes } from "../exitCodes.js";
import { withSessionStore } from "../sessionDatabase.js";
import { type CloudContext, failed } from "./cloudContext.js";
import { patchSummary } from "./cloudOutput.js";

/**
 * `lathe cloud apply ID`: the task's patch applied to this project, all or nothing (git apply
 * checks every hunk before it writes one), after a checkpoint of the project taken and recorded
 * in a session of its own, so `lathe checkpoints restore` undoes it. git apply refuses paths that
 * leave the project or pass through a symbolic link.
 */
export async function applyTask(context: CloudContext, task: TaskRecord): Promise<number> {
  const { io, args, latheHome } = context;
  const projectRoot = args.projectRoot;
  if (task.status !== "completed")
    return failed(
      io,
      errorInfo(
        "E_TASK_STATE",
        `Task ${task.id.slice(0, 8)} is ${task.status}: only a completed task has a patch to apply.`,
      ),
    );
  if (task.patch === null || task.patch === "") {
    io.stdout(`Task ${task.id.slice(0, 8)} changed nothing: there is nothing to apply.\n`);
    return exitCodes.completed;
  }
  const patch = task.patch;
  const check = await runGit({ args: ["apply", "--check", "--binary", "-"], cwd: projectRoot, input: patch });
  if (!check.ok) return failed(io, check.error);
  if (check.value.exitCode !== 0) {
    const detail = check.value.stderr.trim().split("\n").slice(0, 3).join("; ");
    return failed(
      io,
      errorInfo(
        "E_TASK_STATE",
        `The task's patch does not apply to ${projectRoot}: ${detail}. Nothing was changed.`,
      ),
    );
  }
  return withSessionStore(io, "cloud", async (store) => {
    const shadow = await checkpointRepositoryFor(latheHome, projectRoot);
    if (!shadow.ok) return failed(io, shadow.error);
    const snapshot = await shadow.value.snapshot(`Before applying cloud task ${task.id}`);
    if (!snapshot.ok) return failed(io, snapshot.error);
    const sessionId = newId();
    store.ensureSession({
      id: sessionId,
      projectRoot,
      mode: "agent",
      model: task.model ?? "cloud",
      title: `Cloud task ${task.id.slice(0, 8)}: ${task.title}`,
    });
    const checkpoint = store.addCheckpoint({
      sessionId,
      reason: "before_apply",
      commit: snapshot.value.commit,
    });
    const applied = await runGit({ args: ["apply", "--binary", "-"], cwd: projectRoot, input: patch });
    if (!applied.ok) return failed(io, applied.error);
    if (applied.value.exitCode !== 0)
      return failed(io, errorInfo("E_TASK_STATE", `git apply failed: ${applied.value.stderr.trim()}`));
    const undo = store.shortCheckpointId(checkpoint.id);
    if (args.values.json) {
      io.stdout(`${JSON.stringify({ applied: true, task: task.id, checkpoint: checkpoint.id })}\n`);
    } else {
      io.stdout(
        `Applied task ${task.id.slice(0, 8)} (${patchSummary(patch)}). Undo with: lathe checkpoints restore ${undo}\n`,
      );
    }
    return exitCodes.completed;
  });
}
