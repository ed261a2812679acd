import type { McpListKind } from "./mcpConnection.js";

/** `starting` until the first start settles; `stopped`: it ran, then died (one restart is tried at the next call). */
export type McpServerState = "starting" | "running" | "failed" | "stopped";

/** One configured server as a face shows it: its state, what it offers, and what went wrong. */
export interface McpServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: McpServerState;
  /** Why it failed to start or stopped. */
  error?: string;
  tools: { name: string; description?: string }[];
  resources: { uri: string; name: string; description?: string; mimeType?: string }[];
  prompts: {
    name: string;
    description?: string;
    arguments: { name: string; description?: string; required: boolean }[];
  }[];
}

/** What the hub announces as it happens. */
export type McpHubChange =
  | { type: "ready"; server: string }
  | { type: "failed"; server: string; error: string }
  | { type: "list_changed"; server: string; list: McpListKind };
