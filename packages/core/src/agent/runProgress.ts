import {
  type EventDraft,
  emptyUsage,
  type LatheErrorInfo,
  type RunEndReason,
  type Usage,
} from "@lathe/protocol";

export interface RunResult {
  runId: string;
  status: RunEndReason;
  iterations: number;
  final: string;
  usage: Usage;
  error?: LatheErrorInfo;
  /** The model's last answer was stopped by the provider as content it would not give. */
  refused?: boolean;
}

/** Where one run stands: what the loop and its stop conditions read and update. */
export interface RunProgress {
  readonly runId: string;
  readonly startedAt: number;
  /** Emits an event of this run. */
  readonly emit: (draft: EventDraft) => void;
  iterations: number;
  /** The answer the run ends with: the model's last text, or why the run stopped. */
  final: string;
  usage: Usage;
  /** A Stop hook has already asked for more work in this run. */
  stopHookActive: boolean;
  /** The stop guard has already asked the model to go on with its plan. */
  stopGuarded: boolean;
  overflowRetried: boolean;
  /** The next request is compacted first, whatever its size. */
  forceCompaction: boolean;
  /** The last answer was a refusal (`RunResult.refused`). */
  refused: boolean;
  /** The checkpoint taken at the user message, until it has been recorded. */
  userCheckpoint?: Promise<void>;
}

export function startProgress(runId: string, emit: (draft: EventDraft) => void): RunProgress {
  return {
    runId,
    startedAt: performance.now(),
    emit,
    iterations: 0,
    final: "",
    usage: emptyUsage(),
    stopHookActive: false,
    stopGuarded: false,
    overflowRetried: false,
    forceCompaction: false,
    refused: false,
  };
}

/** No tool runs before the user message's snapshot has settled, and no run ends before it either. */
export async function userCheckpointSettled(run: RunProgress): Promise<void> {
  const pending = run.userCheckpoint;
  run.userCheckpoint = undefined;
  await pending;
}

export function durationOf(run: RunProgress): number {
  return Math.round(performance.now() - run.startedAt);
}
