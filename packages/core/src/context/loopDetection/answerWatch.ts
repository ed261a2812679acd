import type { LoopSettings } from "./loopSettings.js";
import { ProseFilter } from "./proseFilter.js";
import { RepeatedContent } from "./repeatedContent.js";

/** One answer's repetition check: the prose filter feeding the chunk detector. Reports once. */
export class AnswerWatch {
  private readonly filter: ProseFilter | undefined;
  private repeated: string | undefined;
  private reported = false;

  constructor(settings: LoopSettings) {
    const { repeatedChunkLength, repeatedChunkCount, repeatedContentMaxPeriod } = settings;
    if (repeatedChunkLength <= 0 || repeatedChunkCount <= 1) return;
    const detector = new RepeatedContent({
      chunkLength: repeatedChunkLength,
      count: repeatedChunkCount,
      maxPeriod: Math.max(repeatedContentMaxPeriod, repeatedChunkLength),
    });
    this.filter = new ProseFilter((code) => {
      this.repeated ??= detector.push(code);
    });
  }

  /** The repeated chunk, the first time the answer is found looping; undefined otherwise. */
  push(delta: string): string | undefined {
    if (!this.filter || this.reported) return undefined;
    this.filter.push(delta);
    if (this.repeated === undefined) return undefined;
    this.reported = true;
    return this.repeated;
  }
}
