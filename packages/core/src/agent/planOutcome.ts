import type { TodoItem } from "@lathe/protocol";
import { savePlanFile } from "../planning/planFile.js";
import type { CompletedRun } from "./agentRun.js";
import type { RunProgress } from "./runProgress.js";

/**
 * What a completed plan-mode run leaves behind (SPEC §3): its answer and todo list saved as a
 * markdown plan, announced with `plan_saved`. A plan that cannot be saved is a notice: the
 * answer stands, and the run still completes.
 */
export async function savePlanOf(
  run: CompletedRun,
  session: { projectRoot: string; todos: TodoItem[] },
  emit: RunProgress["emit"],
): Promise<void> {
  if (run.mode !== "plan" || run.answer.trim() === "") return;
  const saved = await savePlanFile(
    session.projectRoot,
    { task: run.task, answer: run.answer, todos: session.todos },
    new Date(),
  );
  if (saved.ok) {
    emit({ type: "plan_saved", ...saved.plan });
    return;
  }
  emit({
    type: "notice",
    level: "warning",
    code: saved.error.code,
    message: `The plan was not saved: ${saved.error.message}`,
  });
}
