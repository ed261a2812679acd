import { useCallback, useState } from "react";
import { describeFailure } from "../displayFormat.js";

/**
 * Runs one user-triggered request at a time (save, delete, restore) and keeps what the UI needs
 * about it: whether it is in flight, to disable the button, and its error as `code: message`.
 */
export function useApiAction(): {
  pending: boolean;
  error: string | undefined;
  run<T>(action: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }>;
} {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(async <T>(action: () => Promise<T>) => {
    setPending(true);
    setError(undefined);
    try {
      return { ok: true as const, value: await action() };
    } catch (failure) {
      setError(describeFailure(failure));
      return { ok: false as const };
    } finally {
      setPending(false);
    }
  }, []);
  return { pending, error, run };
}
