import type pg from "pg";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import { appendEvent, type NewEvent } from "../tasks/taskEvents.js";
import { readStep } from "../tasks/taskRecords.js";
import { refreshTaskStatus } from "../tasks/taskStatusRefresh.js";
import { type OrderedWrites, untilWritten } from "./persistentWrites.js";
import type { RunningStep } from "./runningStep.js";

/** Puts an approval to every device and waits for the first answer (or the step's end). */
export async function waitForAnswer(
  pool: pg.Pool,
  deviceId: string,
  running: RunningStep,
  question: { requestId: string; tool: string; input: unknown; reason: string },
  log: (event: Omit<NewEvent, "taskId" | "stepIndex" | "deviceId" | "id">) => void,
  logs: OrderedWrites,
): Promise<{ allow: boolean; message?: string }> {
  const { taskId, stepIndex, lease } = running;
  await logs.flush();
  const stored = {
    id: question.requestId,
    tool: question.tool,
    input: question.input,
    reason: question.reason,
  };
  await untilWritten(() =>
    inTransaction(pool, async (client) => {
      await client.query(
        `UPDATE ${cloudSchema}.steps SET status = 'needs_input', question = $4, answer = NULL, updated_at = now()
          WHERE task_id = $1 AND step_index = $2 AND lease = $3`,
        [taskId, stepIndex, lease, JSON.stringify(stored)],
      );
      await appendEvent(client, {
        taskId,
        stepIndex,
        kind: "question",
        level: "warn",
        message: `needs an answer: allow ${question.tool}? ${question.reason}`.trim(),
        data: stored,
        deviceId: deviceId,
      });
      await refreshTaskStatus(client, taskId, deviceId);
    }),
  );
  const signal = running.controller.signal;
  for (;;) {
    if (signal.aborted) return { allow: false, message: "The step was stopped." };
    const step = await untilWritten(() => readStep(pool, taskId, stepIndex));
    const answer = step?.answer as { allow?: boolean; message?: string } | null | undefined;
    if (step !== undefined && step.status !== "needs_input" && answer !== null && answer !== undefined) {
      log({
        kind: "log",
        message: answer.allow === true ? `${question.tool} allowed` : `${question.tool} refused`,
      });
      return { allow: answer.allow === true, message: answer.message };
    }
    // Woken by the answer's notification, by the worker's housekeeping every few seconds (the
    // backstop for a notification lost while disconnected), or by the step's end.
    await new Promise<void>((resolve) => {
      const wake = () => {
        signal.removeEventListener("abort", wake);
        running.answered = undefined;
        resolve();
      };
      running.answered = wake;
      signal.addEventListener("abort", wake, { once: true });
    });
  }
}
