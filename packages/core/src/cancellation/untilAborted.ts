/**
 * Settles with `work`, or rejects as soon as `signal` aborts: for work that does not notice the
 * signal in time (an SDK call, a DNS lookup, a Playwright step). The work itself is abandoned,
 * not stopped, and its late failure is swallowed.
 */
export function untilAborted<T>(
  work: PromiseLike<T>,
  signal: AbortSignal,
  reason: () => unknown = () => signal.reason,
): Promise<T> {
  const settled = Promise.resolve(work);
  if (signal.aborted) {
    settled.catch(() => {});
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      settled.catch(() => {});
      reject(reason());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    settled.then(
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
