import { AnswerWatch } from "./answerWatch.js";
import { IdenticalCalls } from "./identicalCalls.js";
import { defaultLoopSettings, type LoopSettings, type LoopVerdict, noLoop } from "./loopSettings.js";
import { ReadStreak } from "./readStreak.js";

/**
 * SPEC §6 loop detection for one session's runs. Feed it every tool call in order and the text
 * of each answer as it streams; act on the verdicts (the caller emits `loop_warning`, adds the
 * message for the model, aborts the stream or ends the run).
 */
export class LoopDetector {
  private readonly settings: LoopSettings;
  private readonly identical = new IdenticalCalls();
  private readonly reads = new ReadStreak();
  private answer: AnswerWatch;

  constructor(settings: Partial<LoopSettings> = {}) {
    this.settings = { ...defaultLoopSettings, ...settings };
    this.answer = new AnswerWatch(this.settings);
  }

  /** After each tool call, in order. `readOnly`: the tool only looks (read and search kinds). */
  recordCall(call: { name: string; arguments: unknown; readOnly: boolean }): LoopVerdict {
    const { warnIdenticalCalls, stopIdenticalCalls } = this.settings;
    const repeats = this.identical.record(call.name, call.arguments);
    const streak = this.reads.record(call.readOnly, {
      beforeWrite: this.settings.readsBeforeWrite,
      afterWrite: this.settings.readsAfterWrite,
    });
    if (stopIdenticalCalls > 0 && repeats >= stopIdenticalCalls) {
      return {
        action: "stop",
        kind: "identical_calls",
        count: repeats,
        message: `Stopped: ${call.name} was called ${repeats} times in a row with the same arguments, so the run was ended as a loop (E_LOOP_DETECTED). Look at what the call returned and choose a different approach.`,
      };
    }
    if (warnIdenticalCalls > 0 && repeats >= warnIdenticalCalls) {
      const left = stopIdenticalCalls > 0 ? ` The run stops at ${stopIdenticalCalls}.` : "";
      return {
        action: "warn",
        kind: "identical_calls",
        count: repeats,
        message: `You have called ${call.name} ${repeats} times in a row with the same arguments. Repeating it will not change the result: read the last result, then change the arguments or take a different approach.${left}`,
      };
    }
    if (!streak) return noLoop;
    return {
      action: "warn",
      kind: "read_streak",
      count: streak.count,
      message: streak.afterWrite
        ? `You have made ${streak.count} read-only calls in a row since your last change. The task may already be done: if your change is verified, stop and report; otherwise make the next change.`
        : `You have made ${streak.count} read-only calls in a row without changing anything. If you know enough, start making the change now; read more only for a specific missing fact.`,
    };
  }

  /** Streamed text of the current answer. Reports a loop once per answer. */
  recordText(delta: string): LoopVerdict {
    const chunk = this.answer.push(delta);
    if (chunk === undefined) return noLoop;
    const count = this.settings.repeatedChunkCount;
    return {
      action: "abort_stream",
      kind: "repeated_content",
      count,
      message: `Your answer was cut off because it kept repeating the same text (“${chunk.trim()}” ${count} times in a row). Do not repeat it: continue from the last new point, or summarize what you have.`,
    };
  }

  /** Between answers: each answer is checked on its own. */
  resetAnswer(): void {
    this.answer = new AnswerWatch(this.settings);
  }

  /** At the start of each run (user message): counts and streaks do not carry over. */
  resetRun(): void {
    this.identical.reset();
    this.reads.reset();
    this.resetAnswer();
  }
}
