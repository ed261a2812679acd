import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { open, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import pg from "pg";
import { describeUrl } from "../database/databaseUrl.js";
import { clusterDataFolder } from "./clusterFolder.js";
import { exitText, runPostgresProgram } from "./postgresPrograms.js";

/** Whether initdb finished in the folder: PG_VERSION is among the last files it writes. */
export function clusterExists(folder: string): boolean {
  return existsSync(join(clusterDataFolder(folder), "PG_VERSION"));
}

export function newClusterPassword(): string {
  return randomBytes(24).toString("hex");
}

/**
 * Runs initdb: superuser `lathe` with `password`, SCRAM over TCP, trust on the Unix socket alone
 * (it sits in the cluster's folder, which only its owner can enter). The password reaches initdb
 * through a file in that folder, never a command line, and the file is removed at once.
 */
export async function initCluster(
  bin: string,
  folder: string,
  password: string,
): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }> {
  const data = clusterDataFolder(folder);
  const pwfile = join(folder, "initdb.pw");
  try {
    // A data folder without PG_VERSION is what an interrupted initdb left, which it would refuse.
    await rm(data, { recursive: true, force: true });
    await writePasswordFile(pwfile, password, await stat(folder));
    const exit = await runPostgresProgram(
      bin,
      "initdb",
      [
        "-D",
        data,
        "-U",
        "lathe",
        `--pwfile=${pwfile}`,
        "--auth-host=scram-sha-256",
        "--auth-local=trust",
        "-E",
        "UTF8",
        "--no-locale",
      ],
      folder,
    );
    if (exit.code === 0) return { ok: true };
    return { ok: false, error: errorInfo("E_STORAGE", `initdb failed in ${data}:\n${exitText(exit)}`) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: errorInfo("E_STORAGE", `The cluster could not be created in ${folder}: ${message}`),
    };
  } finally {
    await rm(pwfile, { force: true });
  }
}

/**
 * The password file, owned like the folder (nobody's, as root). Created exclusively and changed
 * through its handle: as root, in a folder nobody owns, a name could be a link planted there.
 */
async function writePasswordFile(pwfile: string, password: string, owner: { uid: number; gid: number }) {
  await rm(pwfile, { force: true });
  const handle = await open(pwfile, "wx", 0o600);
  try {
    await handle.chown(owner.uid, owner.gid);
    await handle.writeFile(`${password}\n`);
  } finally {
    await handle.close();
  }
}

/**
 * Creates the `lathe` database when it is missing: on the first start, and again on any later one
 * should the first have been interrupted between initdb and here.
 */
export async function ensureLatheDatabase(
  url: string,
): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }> {
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = 'lathe'");
    if (found.rowCount === 0) await client.query("CREATE DATABASE lathe");
    return { ok: true };
  } catch (error) {
    // 42P04: another `lathe cloud up` created it a moment ago.
    if ((error as { code?: string }).code === "42P04") return { ok: true };
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: errorInfo(
        "E_CLOUD_UNREACHABLE",
        `The private cluster at ${describeUrl(url)} did not answer: ${message}`,
      ),
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}
