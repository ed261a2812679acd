/**
 * Tails of the per-git-dir queues. Module-wide rather than per instance: two ShadowRepository
 * objects opened on one project share one shadow index, so they must share one queue too.
 */
const tails = new Map<string, Promise<void>>();

/** Runs `task` after every task queued before it under `key` has settled. */
export function serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const result = previous.then(task);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
}
