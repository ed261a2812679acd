import type { CloudPlace, NoticeLevel } from "./cloudRunner.js";
import { commandWords } from "./commandWords.js";

/** What `/cloud` needs of the terminal UI. */
export interface CloudFace {
  /** A line (or lines) for the transcript. */
  show(text: string, level: NoticeLevel): void;
  /** The session's project; undefined before there is a session. */
  projectRoot(): string | undefined;
  env: Record<string, string | undefined>;
}

type CloudRunner = typeof import("./cloudRunner.js");

/**
 * `/cloud …`: `lathe cloud`'s own commands (`list` when none is named), run in this process with
 * their output in the transcript, never waited on, so the input stays free. `submit` goes on to
 * watch the task it queued. One watch streams at a time (a new one takes the place of the last);
 * Esc stops it and leaves the task alone.
 */
export class CloudSlashCommand {
  private watch?: { stop: AbortController; ended: Promise<void> };

  constructor(private readonly face: CloudFace) {}

  /** A task's events are streaming in. */
  get watching(): boolean {
    return this.watch !== undefined;
  }

  /** Stops the watch, not the task; false when there was none. */
  stopWatching(): boolean {
    if (this.watch === undefined) return false;
    this.watch.stop.abort();
    return true;
  }

  run(args: string): void {
    const split = commandWords(args);
    if (!split.ok) {
      this.face.show(`/cloud: ${split.message}.`, "warning");
      return;
    }
    const words = split.words.length === 0 ? ["list"] : split.words;
    // A command that throws (a connection lost mid-query) is said; the UI goes on.
    void this.dispatch(words).catch((error: unknown) =>
      this.face.show(`/cloud: ${error instanceof Error ? error.message : String(error)}`, "error"),
    );
  }

  private async dispatch(words: string[]): Promise<void> {
    const cwd = this.face.projectRoot();
    if (cwd === undefined) return;
    if (words[0] === "submit" && words.includes("--local")) {
      this.face.show(
        "/cloud submit --local would run the task outside this session: type it as a message to run it here.",
        "warning",
      );
      return;
    }
    const place: CloudPlace = { cwd, env: this.face.env, show: this.face.show };
    // Loaded on the first /cloud: the cloud's packages are no part of the terminal UI's start.
    const runner = await import("./cloudRunner.js");
    if (words[0] === "watch") return this.follow(runner, words, place);
    if (words[0] !== "submit") {
      await runner.runCloud(words, place);
      return;
    }
    const watch = await runner.submitCloud(words, place);
    if (watch !== undefined) await this.follow(runner, watch, place);
  }

  private async follow(runner: CloudRunner, words: string[], place: CloudPlace): Promise<void> {
    // Two watches asked for at once: each stops the one before it, so the last one asked streams.
    while (this.watch !== undefined) {
      this.watch.stop.abort();
      await this.watch.ended;
    }
    const stop = new AbortController();
    const streaming = runner.watchTask(words, place, stop.signal);
    // Its failure is said by dispatch, through `await streaming`.
    const ended = streaming
      .catch(() => undefined)
      .then(() => {
        if (this.watch?.stop === stop) this.watch = undefined;
      });
    this.watch = { stop, ended };
    await streaming;
  }
}
