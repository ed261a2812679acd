import type { ParseArgsOptionsConfig } from "node:util";
import type { CloudDatabase } from "@lathe/cloud";
import type { LatheErrorInfo } from "@lathe/protocol";
import type { PgBoss } from "pg-boss";
import { exitCodes } from "../exitCodes.js";
import type { CommandIo, SubcommandArgs } from "../subcommandArgs.js";

/** `lathe cloud`'s flags: one set for every subcommand, each reading the ones it needs. */
export const cloudOptions = {
  database: { type: "string" },
  device: { type: "string" },
  repo: { type: "string" },
  ref: { type: "string" },
  step: { type: "string", multiple: true },
  priority: { type: "string" },
  timeout: { type: "string" },
  retries: { type: "string" },
  model: { type: "string" },
  "approval-mode": { type: "string" },
  local: { type: "boolean" },
  cloud: { type: "boolean" },
  "bundle-cap": { type: "string" },
  allow: { type: "boolean" },
  deny: { type: "boolean" },
  message: { type: "string" },
  "after-seq": { type: "string" },
  status: { type: "string" },
  limit: { type: "string" },
  pipeline: { type: "string" },
  attempts: { type: "string" },
  attempt: { type: "string" },
  verify: { type: "string" },
  "max-tokens": { type: "string" },
  "max-cost": { type: "string" },
  "max-time": { type: "string" },
  "on-device": { type: "string", multiple: true },
} as const satisfies ParseArgsOptionsConfig;

export type CloudArgs = Extract<SubcommandArgs<typeof cloudOptions>, { ok: true }>;

/** What the commands that reach the database share. */
export interface CloudContext {
  io: CommandIo;
  args: CloudArgs;
  latheHome: string;
  deviceId: string;
  database: CloudDatabase;
  /** pg-boss, started on first use (only commands that touch jobs need it). */
  queue(): Promise<PgBoss>;
}

/** A coded error on stderr, named after the command that met it (`lathe worker` shares this). */
export function failed(io: CommandIo, error: LatheErrorInfo, command = "cloud"): number {
  io.stderr(`lathe ${command}: ${error.message} [${error.code}]\n${error.hint ? `  ${error.hint}\n` : ""}`);
  return exitCodes.error;
}
