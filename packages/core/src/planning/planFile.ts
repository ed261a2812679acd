import { errorInfo, type LatheErrorInfo, type TodoItem } from "@lathe/protocol";
import { atomicWriteFile } from "../fileSystem/atomicWrite.js";
import { statIfExists } from "../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../policy/pathGuard.js";
import { planFileNames } from "./planFileName.js";
import { planTitle, renderPlan } from "./planMarkdown.js";
import { planRunPrompt } from "./planPrompt.js";

/** Where plans live, relative to the project root (SPEC §3). */
export const plansDirectory = ".lathe/plans";

/** Same-day plans of one task before the engine stops looking for a free name. */
const maxNameAttempts = 1000;

export interface SavedPlan {
  /** Relative to the project root, with `/` separators. */
  path: string;
  title: string;
  /** The message that carries the plan out in agent mode. */
  prompt: string;
}

/**
 * Plan mode's one write, made by the engine and never by a model tool: the answer of a completed
 * plan-mode run, with its todo list, saved under `.lathe/plans/` through the path guard (a
 * `.lathe` that leads out of the project is refused) and written atomically, never over an
 * existing plan.
 */
export async function savePlanFile(
  projectRoot: string,
  plan: { task: string; answer: string; todos: readonly TodoItem[] },
  now: Date,
): Promise<{ ok: true; plan: SavedPlan } | { ok: false; error: LatheErrorInfo }> {
  const title = planTitle(plan.task);
  const markdown = renderPlan({ title, answer: plan.answer, todos: plan.todos });
  const names = planFileNames(plan.task, now);
  for (let attempt = 0; attempt < maxNameAttempts; attempt++) {
    const path = `${plansDirectory}/${names.next().value}`;
    const guarded = await resolveProjectPath(projectRoot, path);
    if (!guarded.ok) return guarded;
    try {
      if (await statIfExists(guarded.path)) continue;
      await atomicWriteFile(guarded.path, markdown);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `Cannot write ${path}: ${reason}`) };
    }
    return { ok: true, plan: { path, title, prompt: planRunPrompt(markdown, path) } };
  }
  return {
    ok: false,
    error: errorInfo(
      "E_TOOL_EXECUTION",
      `${plansDirectory} already holds ${maxNameAttempts} plans of this name.`,
    ),
  };
}
