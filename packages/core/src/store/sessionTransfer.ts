import { errorInfo, messageSchema, newId, partSchema } from "@lathe/protocol";
import { z } from "zod";
import { type SessionStore, type StoreOutcome, withArgumentsKey } from "./sessionStore.js";

/** The first line of an export: what the session was. Messages follow, one per line. */
const headerSchema = z.object({
  type: z.literal("session"),
  version: z.literal(1),
  id: z.string().min(1),
  title: z.string(),
  mode: z.string().min(1),
  model: z.string().min(1),
  projectRoot: z.string(),
  createdAt: z.number(),
});
const messageLineSchema = z.object({
  type: z.literal("message"),
  message: messageSchema.extend({ parts: z.array(z.preprocess(withArgumentsKey, partSchema)) }),
});

/** A session as JSON lines: a header, then every message with its parts, in order. */
export function exportSession(store: SessionStore, idOrPrefix: string): StoreOutcome<string> {
  const found = store.findSession(idOrPrefix);
  if (!found.ok) return found;
  const session = found.value;
  const header: z.infer<typeof headerSchema> = {
    type: "session",
    version: 1,
    id: session.id,
    title: session.title,
    mode: session.mode,
    model: session.model,
    projectRoot: session.projectRoot,
    createdAt: session.createdAt,
  };
  const lines = [JSON.stringify(header)];
  for (const message of store.messages(session.id)) lines.push(JSON.stringify({ type: "message", message }));
  return { ok: true, value: `${lines.join("\n")}\n` };
}

/**
 * Reads an export into a new session of `projectRoot`. Every line is checked before anything is
 * written, so a bad file changes nothing. Ids are made anew: importing twice gives two sessions.
 */
export function importSession(store: SessionStore, text: string, projectRoot: string): StoreOutcome<string> {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const parsed = lines.map((line, index) => parseLine(line, index));
  const bad = parsed.find((line) => !line.ok);
  if (bad && !bad.ok) return bad;
  const [first, ...rest] = parsed.map((line) => (line.ok ? line.value : undefined));
  const header = headerSchema.safeParse(first);
  if (!header.success) {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", "Line 1 must be the session header of a Lathe export."),
    };
  }
  const messages = [];
  for (const [index, value] of rest.entries()) {
    const line = messageLineSchema.safeParse(value);
    if (!line.success) {
      return {
        ok: false,
        error: errorInfo(
          "E_INVALID_ARGS",
          `Line ${index + 2} is not a message: ${line.error.issues[0]?.message}`,
        ),
      };
    }
    messages.push(line.data.message);
  }
  const id = newId();
  const session = {
    id,
    projectRoot,
    mode: header.data.mode,
    model: header.data.model,
    title: header.data.title,
  };
  store.ensureSession(
    session,
    messages.map((message) => ({ ...message, id: newId(), sessionId: id })),
  );
  return { ok: true, value: id };
}

function parseLine(line: string, index: number): StoreOutcome<unknown> {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch {
    return { ok: false, error: errorInfo("E_INVALID_ARGS", `Line ${index + 1} is not JSON.`) };
  }
}
