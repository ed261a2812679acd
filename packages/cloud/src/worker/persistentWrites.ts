import { isConnectionLoss } from "../database/cloudDatabase.js";

const firstPauseMs = 100;
const lastPauseMs = 2_000;

/**
 * Runs a database write until it goes through: a dropped connection (the server restarting) is
 * waited out with a growing pause, up to `giveUpMs`; any other error is the caller's. Writes that
 * may run twice carry their own idempotency (an event's id, a step's lease).
 */
export async function untilWritten<T>(write: () => Promise<T>, giveUpMs = 120_000): Promise<T> {
  const deadline = Date.now() + giveUpMs;
  let pause = firstPauseMs;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isConnectionLoss(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, lastPauseMs);
    }
  }
}

/**
 * A step's log lines written in the order they happened, one at a time, each until it is stored:
 * nothing is lost while the database restarts, and nothing is stored twice (each line has its id).
 */
export class OrderedWrites {
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;

  add(write: () => Promise<unknown>): void {
    this.chain = this.chain.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await untilWritten(write);
      } catch (error) {
        this.failure = error;
      }
    });
  }

  /** Waits for every line added so far; throws the first write that could not be made. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }
}
