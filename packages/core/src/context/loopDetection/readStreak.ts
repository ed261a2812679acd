/**
 * Read-only calls in a row (seed 002's anti-pattern): before anything was changed in the run, a
 * long streak means researching instead of acting; after a change, verifying a task that may be
 * done. Any call that is not read-only ends the streak and marks the run as having acted.
 */
export class ReadStreak {
  private streak = 0;
  private acted = false;

  /** The streak length and which threshold applies, when a hint is due (at every multiple of it). */
  record(
    readOnly: boolean,
    thresholds: { beforeWrite: number; afterWrite: number },
  ): { count: number; afterWrite: boolean } | undefined {
    if (!readOnly) {
      this.streak = 0;
      this.acted = true;
      return undefined;
    }
    this.streak++;
    const threshold = this.acted ? thresholds.afterWrite : thresholds.beforeWrite;
    if (threshold <= 0 || this.streak % threshold !== 0) return undefined;
    return { count: this.streak, afterWrite: this.acted };
  }

  reset(): void {
    this.streak = 0;
    this.acted = false;
  }
}
