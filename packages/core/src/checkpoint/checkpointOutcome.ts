import { type ErrorCode, errorInfo, type LatheErrorInfo } from "@lathe/protocol";

/** Checkpoint operations report failures as values: a failed snapshot must never abort a tool call. */
export type CheckpointOutcome<T> = { ok: true; value: T } | { ok: false; error: LatheErrorInfo };

export function succeed<T>(value: T): CheckpointOutcome<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ErrorCode, message: string): CheckpointOutcome<T> {
  return { ok: false, error: errorInfo(code, message) };
}
