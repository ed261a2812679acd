import { canonicalJson } from "./canonicalJson.js";

/**
 * How many times in a row the same tool has been called with the same arguments. Any other call
 * in between starts the count again, so run tests → edit → run the same tests is not a repeat.
 */
export class IdenticalCalls {
  private last: string | undefined;
  private count = 0;

  record(name: string, args: unknown): number {
    const signature = `${name}\u0000${canonicalJson(args)}`;
    this.count = signature === this.last ? this.count + 1 : 1;
    this.last = signature;
    return this.count;
  }

  reset(): void {
    this.last = undefined;
    this.count = 0;
  }
}
