import { LatheError } from "@lathe/protocol";
import { untilAborted } from "../../../cancellation/untilAborted.js";

export function cancelledError(): LatheError {
  return new LatheError("E_CANCELLED", "The browser action was cancelled.");
}

/** Settles with `work`, or rejects with E_CANCELLED as soon as `signal` aborts. */
export function untilCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return untilAborted(work, signal, cancelledError);
}

/** Waits `ms`, ending early with E_CANCELLED when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const sleep = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return untilCancelled(sleep, signal).finally(() => clearTimeout(timer));
}
