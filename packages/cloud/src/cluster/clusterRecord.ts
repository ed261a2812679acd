import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { atomicWriteFile } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";

/** `$LATHE_HOME/cloud/database.json`: how to reach the private cluster. */
const clusterRecordSchema = z.object({
  /** `postgresql://lathe:PASSWORD@127.0.0.1:PORT/lathe`: the password is why the file is 0600. */
  url: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  folder: z.string().min(1),
});

export type ClusterRecord = z.infer<typeof clusterRecordSchema>;

export type ClusterRecordRead =
  | { ok: true; record: ClusterRecord | undefined }
  | { ok: false; error: LatheErrorInfo };

export function clusterRecordPath(latheHome: string): string {
  return join(latheHome, "cloud", "database.json");
}

/** The record, undefined when there is none yet; a file that is not one is an error, never ignored. */
export async function readClusterRecord(latheHome: string): Promise<ClusterRecordRead> {
  const file = clusterRecordPath(latheHome);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, record: undefined };
    return broken(file, `cannot be read (${messageOf(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return broken(file, `is not JSON (${messageOf(error)})`);
  }
  const parsed = clusterRecordSchema.safeParse(json);
  if (!parsed.success) return broken(file, `is not a cluster record (${z.prettifyError(parsed.error)})`);
  return { ok: true, record: parsed.data };
}

/** Writes the record atomically, readable by the user alone: its URL holds the password. */
export async function writeClusterRecord(
  latheHome: string,
  record: ClusterRecord,
): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }> {
  const file = clusterRecordPath(latheHome);
  try {
    await atomicWriteFile(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: errorInfo("E_STORAGE", `${file} could not be written: ${messageOf(error)}`) };
  }
}

/** The URL of the cluster's `lathe` database as user `lathe` on a loopback port. */
export function clusterUrl(password: string, port: number): string {
  return `postgresql://lathe:${encodeURIComponent(password)}@127.0.0.1:${port}/lathe`;
}

/** The same record on another port (the old one was taken meanwhile). */
export function recordOnPort(record: ClusterRecord, port: number): ClusterRecord {
  const url = new URL(record.url);
  url.port = String(port);
  return { ...record, url: url.toString(), port };
}

function broken(file: string, problem: string): ClusterRecordRead {
  return {
    ok: false,
    error: errorInfo(
      "E_STORAGE",
      `The private cluster's record ${file} ${problem}. Fix it, or remove it together with the cluster's folder to start afresh.`,
    ),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
