import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { noUsage } from "../pipelines/pipelineSpec.js";
import { attemptsOf } from "../tasks/stepSettlement.js";
import type { StepRecord } from "../tasks/taskRecords.js";
import { untilWritten } from "./persistentWrites.js";
import type { RunningStep } from "./runningStep.js";
import { completeStep } from "./stepClaim.js";

/**
 * A ranking with one attempt or none to weigh needs no model: the one that passed is the best
 * (the step is completed here), and with none passed the task fails, saying why each was
 * rejected. Undefined when there are attempts to rank.
 */
export async function rankWithoutModel(
  pool: pg.Pool,
  boss: PgBoss,
  deviceId: string,
  running: RunningStep,
  rank: StepRecord,
  steps: readonly StepRecord[],
): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo } | undefined> {
  const { passed, rejected } = attemptsOf(rank, steps);
  if (passed.length > 1) return undefined;
  const only = passed[0];
  if (only === undefined)
    return {
      ok: false,
      error: errorInfo(
        "E_TOOL_EXECUTION",
        `No attempt passed: ${rejected.map((each) => `#${each.attempt} ${each.reason}`).join("; ")}.`,
      ),
    };
  await untilWritten(() =>
    completeStep(pool, boss, deviceId, running, {
      stepPatch: "",
      taskPatch: only.taskPatch ?? "",
      answer: `Attempt ${only.attemptNo} is the only one that passed its check.\nRANKING: ${only.attemptNo}`,
      branch: null,
      verify: null,
      usage: noUsage,
    }),
  );
  return { ok: true };
}
