import type { SessionStore } from "@lathe/core";

/** Sessions of the project whose messages Up and Down reach back to. */
const sessionsRemembered = 10;

/**
 * What the user typed in this project's recent sessions, oldest first, for Up and Down: the
 * history is the project's, as in a shell, not only the open session's.
 */
export function projectInputHistory(store: SessionStore, projectRoot: string): string[] {
  const sessions = store.listSessions({ projectRoot, limit: sessionsRemembered }).reverse();
  return sessions.flatMap((session) =>
    store
      .messages(session.id)
      .flatMap((message) =>
        message.role === "user"
          ? message.parts.flatMap((part) => (part.type === "text" ? [part.text] : []))
          : [],
      ),
  );
}
