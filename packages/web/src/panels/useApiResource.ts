import { useCallback, useEffect, useState } from "react";
import { describeFailure } from "../displayFormat.js";

export type ApiResource<T> =
  | { status: "loading" }
  | { status: "failed"; error: string; refreshing: boolean }
  | { status: "ready"; data: T; refreshing: boolean };

interface Settled<T> {
  load: () => Promise<T>;
  revision: string;
  outcome: { ok: true; data: T } | { ok: false; error: string };
}

/**
 * Loads `load()` and again whenever `refreshKey` changes or `reload()` is called. A refresh keeps
 * showing the previous answer (with `refreshing`) so lists do not flicker; a new `load` (another
 * session, another folder) starts from "loading" so one session's data never shows under another.
 * Answers to superseded requests are dropped.
 */
export function useApiResource<T>(
  load: () => Promise<T>,
  refreshKey = 0,
): { resource: ApiResource<T>; reload(): void } {
  const [localRevision, setLocalRevision] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | undefined>(undefined);
  const revision = `${refreshKey}:${localRevision}`;

  useEffect(() => {
    let superseded = false;
    load().then(
      (data) => {
        if (!superseded) setSettled({ load, revision, outcome: { ok: true, data } });
      },
      (error: unknown) => {
        if (!superseded)
          setSettled({ load, revision, outcome: { ok: false, error: describeFailure(error) } });
      },
    );
    return () => {
      superseded = true;
    };
  }, [load, revision]);

  const reload = useCallback(() => setLocalRevision((current) => current + 1), []);

  if (settled === undefined || settled.load !== load) return { resource: { status: "loading" }, reload };
  const refreshing = settled.revision !== revision;
  const resource: ApiResource<T> = settled.outcome.ok
    ? { status: "ready", data: settled.outcome.data, refreshing }
    : { status: "failed", error: settled.outcome.error, refreshing };
  return { resource, reload };
}
