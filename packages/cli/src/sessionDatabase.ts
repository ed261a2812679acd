import { join } from "node:path";
import { knownSecrets, type SessionInfo, SessionStore, type StoreOutcome, secretRedactor } from "@lathe/core";
import { errorInfo } from "@lathe/protocol";

/** `$LATHE_HOME/lathe.db`, with every API key this process knows kept out of what it writes. */
export function openSessionStore(
  latheHome: string,
  env: Record<string, string | undefined>,
  apiKey?: string,
): StoreOutcome<SessionStore> {
  const redact = secretRedactor(knownSecrets({ env, latheHome, ...(apiKey ? { apiKey } : {}) }));
  return SessionStore.open(join(latheHome, "lathe.db"), { redact });
}

/** The session a command names, or the project's latest when it names none. */
export function sessionFor(
  store: SessionStore,
  ref: string | undefined,
  projectRoot: string,
): StoreOutcome<SessionInfo> {
  if (ref !== undefined) return store.findSession(ref);
  const latest = store.latestSession(projectRoot);
  if (latest) return { ok: true, value: latest };
  return {
    ok: false,
    error: errorInfo("E_SESSION_NOT_FOUND", `There are no sessions in ${projectRoot} yet.`),
  };
}
