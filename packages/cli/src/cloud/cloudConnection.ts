import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readClusterUrl } from "@lathe/cloud";
import { atomicWriteFile } from "@lathe/core";

/**
 * The task database: --database, else LATHE_DATABASE_URL, else the private cluster `lathe cloud up`
 * started. Undefined when there is none (the caller's open says so, with its code).
 */
export async function databaseUrlFor(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  latheHome: string,
): Promise<string | undefined> {
  if (flag !== undefined) return flag;
  if (env.LATHE_DATABASE_URL) return env.LATHE_DATABASE_URL;
  return readClusterUrl(latheHome);
}

/**
 * This machine's device id, made once and kept in $LATHE_HOME/cloud/device.json: every event a
 * device writes names it, and workers on one machine share it unless --device says otherwise.
 */
export async function deviceIdFor(flag: string | undefined, latheHome: string): Promise<string> {
  if (flag !== undefined && flag.trim() !== "") return flag.trim();
  const file = join(latheHome, "cloud", "device.json");
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { id?: unknown };
    if (typeof stored.id === "string" && stored.id !== "") return stored.id;
  } catch {
    // None yet (or unreadable): a new one is made below.
  }
  const id = `${hostname()
    .replace(/[^A-Za-z0-9-]/g, "-")
    .slice(0, 40)}-${randomBytes(3).toString("hex")}`;
  mkdirSync(join(latheHome, "cloud"), { recursive: true, mode: 0o700 });
  await atomicWriteFile(file, `${JSON.stringify({ id }, null, 2)}\n`);
  return id;
}

/** The `lathe` command a worker runs steps with (and `--local` runs a task with): this install's. */
export function latheBinary(): string {
  return fileURLToPath(new URL("../../bin/lathe", import.meta.url));
}

/** Who submits: LATHE_CLOUD_OWNER, else the user's login name. */
export function ownerFor(env: Record<string, string | undefined>): string {
  if (env.LATHE_CLOUD_OWNER) return env.LATHE_CLOUD_OWNER;
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}
