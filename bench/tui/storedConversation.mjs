// A long conversation written straight into a `$LATHE_HOME`'s session database, as the engine
// stores one: `lathe -c` in the project then resumes it and draws every message in its transcript.
import { join } from "node:path";
import { SessionStore } from "../../packages/core/dist/index.js";
import { newId } from "../../packages/protocol/dist/index.js";

/** The words each message of turn `n` carries, so the bench can count them on the terminal. */
export const questionMark = (n) => `Question ${String(n).padStart(4, "0")}`;
export const answerMark = (n) => `Answer ${String(n).padStart(4, "0")}`;

/**
 * Stores one session of `turns` exchanges (a one-line question, a short markdown answer) for
 * `projectRoot`: 2 × `turns` transcript items once resumed.
 */
export function storeConversation({ home, projectRoot, turns, model }) {
  const opened = SessionStore.open(join(home, "lathe.db"));
  if (!opened.ok) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  const store = opened.value;
  const sessionId = newId();
  let now = Date.now() - turns * 2_000;
  const message = (role, text) => ({
    id: newId(),
    sessionId,
    role,
    createdAt: now++,
    parts: [{ type: "text", text }],
  });
  try {
    store.ensureSession({ id: sessionId, projectRoot, mode: "agent", model });
    for (let n = 1; n <= turns; n++) {
      store.appendMessage(message("user", `${questionMark(n)}: what does \`route${n}\` return?`));
      store.appendMessage(
        message(
          "assistant",
          `${answerMark(n)}: \`route${n}\` returns **200** with the item as JSON.\n\n- it reads the id from the path\n- it answers 404 when there is none`,
        ),
      );
    }
  } finally {
    store.close();
  }
  return sessionId;
}
