/**
 * `untilAborted` for a run of work on one signal, such as the reads of a streamed response: one
 * abort listener serves them all. Adding and removing a listener for each read costs more than
 * the read of a small chunk itself.
 */
export class AbortRace {
  private readonly pending = new Set<(reason: unknown) => void>();
  private readonly onAbort = () => {
    for (const reject of this.pending) reject(this.signal.reason);
    this.pending.clear();
  };

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /**
   * Settles with `work`, or rejects with the signal's reason as soon as it aborts. The work itself
   * is abandoned, not stopped, and its late failure is swallowed.
   */
  run<T>(work: PromiseLike<T>): Promise<T> {
    const settled = Promise.resolve(work);
    if (this.signal.aborted) {
      settled.catch(() => {});
      return Promise.reject(this.signal.reason);
    }
    return new Promise<T>((resolve, reject) => {
      const abandon = (reason: unknown) => {
        settled.catch(() => {});
        reject(reason);
      };
      this.pending.add(abandon);
      settled.then(
        (value) => {
          this.pending.delete(abandon);
          resolve(value);
        },
        (error: unknown) => {
          this.pending.delete(abandon);
          reject(error);
        },
      );
    });
  }

  /** Stops listening to the signal; work still pending is no longer raced. */
  dispose(): void {
    this.signal.removeEventListener("abort", this.onAbort);
    this.pending.clear();
  }
}
