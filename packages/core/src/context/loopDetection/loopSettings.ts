/** SPEC §6 loop detection. A count of 0 turns that check off (e.g. read streaks in ask mode, where nothing can be written). */
export interface LoopSettings {
  /** The same call (tool and canonical arguments) this many times in a row → a warning to the model. */
  warnIdenticalCalls: number;
  /** … and this many times → the run stops (`E_LOOP_DETECTED`). */
  stopIdenticalCalls: number;
  /** Length of the chunk compared in a streamed answer, in characters. */
  repeatedChunkLength: number;
  /** A chunk repeated this many times in one answer → the stream is aborted and the model warned. */
  repeatedChunkCount: number;
  /** Longest stretch (characters) that may repeat as a unit; longer repeats are not looked for, which bounds memory. */
  repeatedContentMaxPeriod: number;
  /** Read-only calls in a row, before any other call in the run, that earn a hint to start acting. */
  readsBeforeWrite: number;
  /** Read-only calls in a row after a change that earn a hint that the task may be done. */
  readsAfterWrite: number;
}

export const defaultLoopSettings: LoopSettings = {
  warnIdenticalCalls: 4,
  stopIdenticalCalls: 6,
  repeatedChunkLength: 50,
  repeatedChunkCount: 10,
  repeatedContentMaxPeriod: 1000,
  readsBeforeWrite: 5,
  readsAfterWrite: 10,
};

export type LoopVerdict =
  | { action: "none" }
  | { action: "warn"; kind: "identical_calls" | "read_streak"; count: number; message: string }
  /** The answer is repeating itself: abort the stream, keep what came before, and give the model `message`. */
  | { action: "abort_stream"; kind: "repeated_content"; count: number; message: string }
  /** End the run with reason `loop_detected` (`E_LOOP_DETECTED`); `message` says why. */
  | { action: "stop"; kind: "identical_calls"; count: number; message: string };

export const noLoop: LoopVerdict = { action: "none" };
