import type * as acp from "@agentclientprotocol/sdk";
import { callPath } from "./editDiffs.js";

/** What a call does, named by its file or its exact command rather than by the tool alone. */
export function callTitle(name: string, args: unknown): string {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : undefined);
  const command = text("command");
  if (command !== undefined) return command;
  const target = text("path") ?? text("pattern") ?? text("query") ?? text("url");
  return target === undefined ? name : `${name} ${target}`;
}

/** The file a call is about, with its line when it names one, for the editor to follow. */
export function callLocations(args: unknown, projectRoot: string): acp.ToolCallLocation[] {
  const path = callPath(args, projectRoot);
  if (path === undefined) return [];
  const { offset } = args as { offset?: unknown };
  return [typeof offset === "number" ? { path, line: offset } : { path }];
}
