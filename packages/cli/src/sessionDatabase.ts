import { join } from "node:path";
import { knownSecrets, type SessionInfo, SessionStore, type StoreOutcome, secretRedactor } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import type { CommandIo } from "./subcommandArgs.js";

/** `$LATHE_HOME/lathe.db`, with every API key this process knows kept out of what it writes. */
export function openSessionStore(
  latheHome: string,
  env: Record<string, string | undefined>,
  apiKey?: string,
): StoreOutcome<SessionStore> {
  const redact = secretRedactor(knownSecrets({ env, latheHome, apiKey }));
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

/** Prints a coded error the way every storage subcommand does; returns the error exit code. */
export function reportFailure(io: CommandIo, name: string, error: LatheErrorInfo): number {
  io.stderr(`lathe ${name}: ${error.message} [${error.code}]\n`);
  return exitCodes.error;
}

/** Opens the session database for one subcommand and closes it when the subcommand is done. */
export async function withSessionStore(
  io: CommandIo,
  name: string,
  act: (store: SessionStore, latheHome: string) => number | Promise<number>,
): Promise<number> {
  const latheHome = latheHomeFrom(io.env);
  const opened = openSessionStore(latheHome, io.env);
  if (!opened.ok) return reportFailure(io, name, opened.error);
  try {
    return await act(opened.value, latheHome);
  } finally {
    opened.value.close();
  }
}
