import { LatheError } from "@lathe/protocol";

export function cancelledError(): LatheError {
  return new LatheError("E_CANCELLED", "The browser action was cancelled.");
}

/**
 * Settles with `work`, or rejects with E_CANCELLED as soon as `signal` aborts. The work itself goes
 * on until its own timeout ends it; its outcome is then dropped, never left unhandled.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(cancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => {});
      reject(cancelledError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms`, ending early with E_CANCELLED when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const sleep = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return untilAborted(sleep, signal).finally(() => clearTimeout(timer));
}
