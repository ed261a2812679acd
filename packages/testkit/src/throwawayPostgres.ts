import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A PostgreSQL server of the test's own: its cluster in a temporary folder, on a loopback port. */
export interface ThrowawayPostgres {
  /** `postgresql://lathe@127.0.0.1:PORT/postgres`: the superuser, trusted on loopback. */
  url: string;
  port: number;
  /** Stops the server and keeps its data (a restart, as a database going away under a worker). */
  stop(): Promise<void>;
  /** Starts the stopped server again on the same port, with the same data. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  remove(): Promise<void>;
}

/**
 * The newest PostgreSQL server binaries of the system's packages (`/usr/lib/postgresql/N/bin`,
 * Debian's layout), or undefined when none is installed.
 */
export function postgresBinaries(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(base, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], "bin");
}

/**
 * Starts a throwaway PostgreSQL cluster: `initdb` in a temporary folder, then the server on a free
 * loopback port, without fsync (the data is thrown away). PostgreSQL refuses to run as root, so
 * as root the cluster belongs to `nobody`.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinaries();
  if (bin === undefined)
    throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)");
  const folder = mkdtempSync(join(tmpdir(), "lathe-postgres-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run("chown", ["nobody", folder]);
  const pg = (program: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "nobody", "--", join(bin, program), ...args], { cwd: folder })
      : run(join(bin, program), args, { cwd: folder });
  const data = join(folder, "data");
  await pg("initdb", ["-D", data, "-A", "trust", "-U", "lathe", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await pg("pg_ctl", ["-D", data, "-o", options, "-l", join(folder, "server.log"), "-w", "start"]);
  };
  const stop = async () => {
    await pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  };
  await start();
  return {
    url: `postgresql://lathe@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async remove() {
      await stop().catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A loopback port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
