import type { AgentSession } from "@lathe/core";
import type { SwitchableEngine, Switched } from "../switchableEngine.js";
import { oneLine, plural } from "./sessionListings.js";
import type { SlashCommand } from "./slashCommands.js";

/** The commands that end the session and open another in its place. */
export type SessionChange = Extract<SlashCommand, { kind: "undo" | "resume" | "clear" | "trust" }>;

const sessionChanges: ReadonlySet<SlashCommand["kind"]> = new Set(["undo", "resume", "clear", "trust"]);

export function isSessionChange(command: SlashCommand): command is SessionChange {
  return sessionChanges.has(command.kind);
}

/** A session opened in place of the last, what to say of it, and a message to put back into the input. */
export type SessionOpened = { ok: true; session: AgentSession; said: string; draft?: string };

/**
 * `/undo`, `/resume ID`, `/clear`, `/trust`: ends the session and opens the one asked for — the
 * same after an undo, another, a new one, or the same with the folder trusted.
 */
export async function openSessionInstead(
  command: SessionChange,
  engine: SwitchableEngine,
  session: AgentSession,
): Promise<(Switched & { ok: false }) | SessionOpened> {
  if (command.kind === "undo") {
    const undone = await engine.undo();
    if (!undone.ok) return undone;
    const files = `${plural(undone.written, "file")} written back, ${plural(undone.removed, "file")} removed`;
    return {
      ok: true,
      session: undone.session,
      said: `Undone: your message "${oneLine(undone.message)}" and what came of it (${files}). The conversation goes on from before it; the message is back in the input.`,
      draft: undone.message,
    };
  }
  if (command.kind === "resume") {
    const found = engine.find(command.value ?? "");
    if (!found.ok) return found;
    const switched = await engine.switchTo({ resume: found.session.id });
    return switched.ok ? { ...switched, said: `Resumed session ${switched.session.id}.` } : switched;
  }
  const model = session.modelId;
  const switched = await engine.switchTo(
    command.kind === "trust" ? { resume: session.id, model, trust: true } : { model },
  );
  if (!switched.ok) return switched;
  const said =
    command.kind === "trust"
      ? "This folder is trusted now: its hooks, MCP servers, rules and agents take effect. The session goes on."
      : `New session ${switched.session.id}.`;
  return { ...switched, said };
}
