import { type AgentSession, type CheckpointRecord, uniquePrefixes } from "@lathe/core";
import { messageText } from "@lathe/protocol";
import type { SwitchableEngine } from "../switchableEngine.js";

/** How the project's gated files stand, for `/trust`. */
export type ProjectTrustState = "trusted" | "untrusted" | "not_needed";

export const trustStatus: Record<Exclude<ProjectTrustState, "untrusted">, string> = {
  trusted: "This folder is trusted already (`lathe trust --revoke` undoes it).",
  not_needed: "This folder has no hooks, MCP servers, rules or agents that need trust.",
};

/** `/sessions` and `/resume` without an id: the project's newest sessions, this one marked. */
export function sessionList(engine: SwitchableEngine, currentId: string): string {
  const sessions = engine.sessions();
  const ids = uniquePrefixes(sessions.map((session) => session.id));
  const lines = sessions.map((session) => {
    const mark = session.id === currentId ? "*" : " ";
    const title = session.title || "(untitled)";
    return `${mark} ${ids.get(session.id)}  ${timeOf(session.updatedAt)}  ${plural(session.messageCount, "message")}  ${title}`;
  });
  return [
    "Sessions of this project, newest first (* this one):",
    ...lines,
    "/resume ID goes on with one.",
  ].join("\n");
}

const reasons: Record<CheckpointRecord["reason"], string> = {
  user_message: "at your message",
  tool_call: "before a change",
  before_restore: "before a restore",
  before_reject: "before a rejection",
  before_apply: "before a cloud task was applied",
};

/** `/checkpoints`: this session's checkpoints, oldest first, with the message each was taken at. */
export function checkpointList(engine: SwitchableEngine, session: AgentSession): string {
  const checkpoints = engine.checkpoints();
  if (checkpoints.length === 0) return "No checkpoints in this session yet.";
  const ids = uniquePrefixes(checkpoints.map((checkpoint) => checkpoint.id));
  const lines = checkpoints.map((checkpoint) => {
    const message = session.messages.find((one) => one.id === checkpoint.messageId);
    const text = message && checkpoint.reason === "user_message" ? ` "${oneLine(messageText(message))}"` : "";
    return `  ${ids.get(checkpoint.id)}  ${timeOf(checkpoint.createdAt)}  ${reasons[checkpoint.reason]}${text}`;
  });
  return [
    "Checkpoints of this session:",
    ...lines,
    "/undo goes back to before your last message; `lathe checkpoints restore ID` to any of them.",
  ].join("\n");
}

/** `/mcp`: each configured server, its state, and the tools it gives the session. */
export function mcpList(engine: SwitchableEngine, session: AgentSession): string {
  const servers = engine.current.mcpServers();
  if (servers.length === 0) return "No MCP servers configured (`lathe mcp add` adds one).";
  const tools = session.setup.tools;
  const lines = servers.flatMap(({ name, status }) => {
    const prefix = `mcp__${name}__`;
    const own = tools.filter((tool) => tool.startsWith(prefix)).map((tool) => tool.slice(prefix.length));
    return [`  ${name}  ${status}`, ...(own.length > 0 ? [`    ${own.join(", ")}`] : [])];
  });
  return ["MCP servers:", ...lines].join("\n");
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A message as one short line, for lists and notices. */
export function oneLine(text: string, width = 60): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function timeOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}
