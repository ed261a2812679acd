import { randomUUID } from "node:crypto";
import type pg from "pg";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import { runHereQuestion } from "../tasks/taskControl.js";
import { appendEvent } from "../tasks/taskEvents.js";
import { readStep } from "../tasks/taskRecords.js";
import { refreshTaskStatus } from "../tasks/taskStatusRefresh.js";
import { type OrderedWrites, untilWritten } from "./persistentWrites.js";
import type { RunningStep } from "./runningStep.js";
import type { StepLog } from "./stepEvents.js";

/** Puts an approval to every device and waits for the first answer (or the step's end). */
export async function waitForAnswer(
  pool: pg.Pool,
  deviceId: string,
  running: RunningStep,
  question: { requestId: string; tool: string; input: unknown; reason: string },
  log: StepLog,
  logs: OrderedWrites,
): Promise<{ allow: boolean; message?: string }> {
  const stored = {
    id: question.requestId,
    tool: question.tool,
    input: question.input,
    reason: question.reason,
  };
  const answer = await askAndWait(
    pool,
    deviceId,
    running,
    stored,
    `needs an answer: allow ${question.tool}? ${question.reason}`.trim(),
    logs,
  );
  log({ kind: "log", message: answer.allow ? `${question.tool} allowed` : `${question.tool} refused` });
  return answer;
}

/**
 * Asks this device's user whether a device step may run here (the seed's LocalExecutionPrompt),
 * before anything of it runs: only an answer given on this device counts (answerTask checks it).
 */
export async function askToRunHere(
  pool: pg.Pool,
  deviceId: string,
  running: RunningStep,
  step: { name: string; agent: string; prompt: string },
  logs: OrderedWrites,
): Promise<{ allow: boolean; message?: string }> {
  const stored = {
    id: randomUUID(),
    kind: runHereQuestion,
    device: deviceId,
    step: step.name,
    agent: step.agent,
    prompt: step.prompt.slice(0, 2_000),
  };
  return askAndWait(
    pool,
    deviceId,
    running,
    stored,
    `asks to run step ${running.stepIndex + 1} (${step.name}) on device ${deviceId}: consent there with \`lathe cloud answer ${running.taskId.slice(0, 8)} --allow\` (or --deny)`,
    logs,
  );
}

/** Stores the question, says it, and waits for the first answer (or the step's end). */
async function askAndWait(
  pool: pg.Pool,
  deviceId: string,
  running: RunningStep,
  stored: Record<string, unknown>,
  message: string,
  logs: OrderedWrites,
): Promise<{ allow: boolean; message?: string }> {
  const { taskId, stepIndex, lease } = running;
  await logs.flush();
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
        message,
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
    if (step !== undefined && step.status !== "needs_input" && answer !== null && answer !== undefined)
      return { allow: answer.allow === true, message: answer.message };
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
