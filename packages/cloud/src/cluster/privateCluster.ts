import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { clusterDataFolder, prepareClusterFolder, privateClusterFolder } from "./clusterFolder.js";
import { clusterExists, ensureLatheDatabase, initCluster, newClusterPassword } from "./clusterInit.js";
import {
  type ClusterRecord,
  clusterRecordPath,
  clusterUrl,
  readClusterRecord,
  recordOnPort,
  writeClusterRecord,
} from "./clusterRecord.js";
import { freeLoopbackPort, loopbackPortIsFree } from "./loopbackPort.js";
import { exitText, postgresBinaries, runPostgresProgram } from "./postgresPrograms.js";

export { privateClusterFolder } from "./clusterFolder.js";
export { postgresBinaries } from "./postgresPrograms.js";

export interface PrivateClusterPaths {
  /** `$LATHE_HOME/cloud/postgres`. */
  folder: string;
}

export interface ClusterState {
  /** Holds the password: show it through `describeUrl`. */
  url: string;
  port: number;
  running: boolean;
  folder: string;
}

export type ClusterStart =
  | { ok: true; state: ClusterState; created: boolean; started: boolean }
  | { ok: false; error: LatheErrorInfo };

export type ClusterStop = { ok: true; wasRunning: boolean } | { ok: false; error: LatheErrorInfo };

/**
 * `lathe cloud up`: the private PostgreSQL cluster under `$LATHE_HOME`, created on first use
 * (initdb, a random password, a free loopback port, kept in database.json), then started unless it
 * already runs. Its data and port stay from one start to the next; a port taken meanwhile is
 * swapped for a free one and the record updated.
 */
export async function startPrivateCluster(latheHome: string): Promise<ClusterStart> {
  const bin = postgresBinaries();
  if (bin === undefined) return { ok: false, error: noBinaries() };
  const folder = privateClusterFolder(latheHome);
  const read = await readClusterRecord(latheHome);
  if (!read.ok) return read;
  const created = !clusterExists(folder);
  if (!created && read.record === undefined) return { ok: false, error: lostRecord(latheHome, folder) };
  const prepared = await prepareClusterFolder(latheHome, folder);
  if (!prepared.ok) return prepared;

  let record: ClusterRecord;
  if (created || read.record === undefined) {
    const password = newClusterPassword();
    const port = await freeLoopbackPort();
    record = { url: clusterUrl(password, port), port, folder };
    // Written before initdb: a password that reached the cluster but not the record would be lost.
    const written = await writeClusterRecord(latheHome, record);
    if (!written.ok) return written;
    const init = await initCluster(bin, folder, password);
    if (!init.ok) return init;
  } else {
    record = read.record;
  }

  const started = !(await serverRunning(bin, folder));
  if (started) {
    let next = record;
    if (!(await loopbackPortIsFree(next.port))) next = recordOnPort(next, await freeLoopbackPort());
    // $LATHE_HOME moved: the record follows.
    if (next.folder !== folder) next = { ...next, folder };
    if (next !== record) {
      const written = await writeClusterRecord(latheHome, next);
      if (!written.ok) return written;
      record = next;
    }
    const start = await startServer(bin, folder, record.port);
    if (!start.ok) return start;
  }
  const database = await ensureLatheDatabase(record.url);
  if (!database.ok) return database;
  return { ok: true, state: { url: record.url, port: record.port, running: true, folder }, created, started };
}

/** `lathe cloud down`: stops the server (fast shutdown: open sessions are cut), keeping its data. */
export async function stopPrivateCluster(latheHome: string): Promise<ClusterStop> {
  const bin = postgresBinaries();
  const folder = privateClusterFolder(latheHome);
  if (bin === undefined || !clusterExists(folder) || !(await serverRunning(bin, folder))) {
    return { ok: true, wasRunning: false };
  }
  const exit = await runPostgresProgram(
    bin,
    "pg_ctl",
    ["stop", "-D", clusterDataFolder(folder), "-m", "fast", "-w", "-t", "60"],
    folder,
  );
  if (exit.code === 0) return { ok: true, wasRunning: true };
  return {
    ok: false,
    error: errorInfo(
      "E_CLOUD_UNREACHABLE",
      `The private cluster in ${folder} did not stop:\n${exitText(exit)}`,
    ),
  };
}

/** The private cluster as it is now; undefined when it was never created. */
export async function privateClusterState(latheHome: string): Promise<ClusterState | undefined> {
  const folder = privateClusterFolder(latheHome);
  const read = await readClusterRecord(latheHome);
  if (!read.ok || read.record === undefined || !clusterExists(folder)) return undefined;
  const bin = postgresBinaries();
  const running = bin !== undefined && (await serverRunning(bin, folder));
  return { url: read.record.url, port: read.record.port, running, folder };
}

/** The private cluster's URL, for commands whose database defaults to it; undefined when none. */
export async function readClusterUrl(latheHome: string): Promise<string | undefined> {
  const read = await readClusterRecord(latheHome);
  return read.ok ? read.record?.url : undefined;
}

/** `pg_ctl status`: 0 when a server runs on the data folder (3 when not, 4 when it cannot tell). */
async function serverRunning(bin: string, folder: string): Promise<boolean> {
  const exit = await runPostgresProgram(
    bin,
    "pg_ctl",
    ["status", "-D", clusterDataFolder(folder)],
    folder,
    30_000,
  );
  return exit.code === 0;
}

/**
 * Starts the server on 127.0.0.1 alone, its socket in the cluster's folder (none when that path
 * is too long for a Unix socket: clients use TCP anyway). pg_ctl hands `-o` to a shell, hence the
 * quoting.
 */
async function startServer(
  bin: string,
  folder: string,
  port: number,
): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }> {
  const socketFits = Buffer.byteLength(join(folder, `.s.PGSQL.${port}`)) <= 107;
  const options = `-p ${port} -k ${socketFits ? shellQuote(folder) : "''"} -c listen_addresses=127.0.0.1`;
  const log = join(folder, "server.log");
  const exit = await runPostgresProgram(
    bin,
    "pg_ctl",
    ["start", "-D", clusterDataFolder(folder), "-l", log, "-o", options, "-w", "-t", "60"],
    folder,
  );
  if (exit.code === 0) return { ok: true };
  const tail = await readFile(log, "utf8").then(
    (text) => text.trim().split("\n").slice(-8).join("\n"),
    () => "",
  );
  return {
    ok: false,
    error: errorInfo(
      "E_CLOUD_UNREACHABLE",
      `PostgreSQL did not start in ${folder}:\n${exitText(exit)}${tail === "" ? "" : `\n${log} ends with:\n${tail}`}`,
    ),
  };
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function noBinaries(): LatheErrorInfo {
  return errorInfo(
    "E_CLOUD_URL",
    "`lathe cloud up` needs the PostgreSQL server programs, and there are none under /usr/lib/postgresql: install them (apt-get install postgresql) or give a database of your own with --database URL.",
  );
}

function lostRecord(latheHome: string, folder: string): LatheErrorInfo {
  return errorInfo(
    "E_STORAGE",
    `The private cluster in ${folder} has no ${clusterRecordPath(latheHome)}, so its password is lost. Remove ${folder} (its data goes with it) and run \`lathe cloud up\` again.`,
  );
}
