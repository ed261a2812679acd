import type { SessionInfo, SessionStore } from "@lathe/core";
import { type ServiceResult, serviceError } from "@lathe/server";
import { openSessionStore } from "./sessionDatabase.js";

export interface StoreAccess {
  latheHome: string;
  env: Record<string, string | undefined>;
}

/**
 * Opens the session database for one request and closes it after. SQLite in WAL mode lets this
 * connection read while the open sessions' own connections write.
 */
export async function withStore<T>(
  access: StoreAccess,
  act: (store: SessionStore) => ServiceResult<T> | Promise<ServiceResult<T>>,
): Promise<ServiceResult<T>> {
  const opened = openSessionStore(access.latheHome, access.env);
  if (!opened.ok) return serviceError("failed", opened.error.code, opened.error.message);
  try {
    return await act(opened.value);
  } finally {
    opened.value.close();
  }
}

/** A stored session by its exact id: a prefix could name another session than the one open here. */
export function exactSession(store: SessionStore, id: string): ServiceResult<SessionInfo> {
  const found = store.findSession(id);
  if (found.ok && found.value.id === id) return { ok: true, value: found.value };
  return serviceError("not_found", "E_SESSION_NOT_FOUND", `No stored session ${id}.`);
}
