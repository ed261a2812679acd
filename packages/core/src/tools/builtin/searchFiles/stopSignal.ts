/**
 * Ends a search on cancel or after its time limit, whichever comes first, and remembers which.
 * Engines watch `signal`; `dispose` must be called when the search is over.
 */
export class SearchStop {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  reason: "timeout" | "cancelled" | undefined;

  constructor(
    private readonly outer: AbortSignal,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => this.stop("timeout"), timeoutMs);
    if (outer.aborted) this.stop("cancelled");
    else outer.addEventListener("abort", this.onAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener("abort", this.onAbort);
  }

  private readonly onAbort = () => this.stop("cancelled");

  private stop(reason: "timeout" | "cancelled"): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.controller.abort();
  }
}
