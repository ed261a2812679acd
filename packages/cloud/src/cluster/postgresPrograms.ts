import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The newest PostgreSQL server binaries of the system's packages (`/usr/lib/postgresql/N/bin`,
 * Debian's layout), or undefined when none is installed. The testkit has its own: cloud and
 * testkit are siblings and do not import each other.
 */
export function postgresBinaries(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(base, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], "bin");
}

/** PostgreSQL refuses to run as root, so as root the cluster belongs to `nobody`. */
export function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

export interface ProgramExit {
  /** The exit status; -1 when the program could not be started or was killed. */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one of the PostgreSQL programs in `cwd` (as `nobody` when we are root), and resolves with
 * how it ended instead of throwing: `pg_ctl status` answers through its exit status.
 */
export function runPostgresProgram(
  bin: string,
  program: string,
  args: string[],
  cwd: string,
  timeoutMs = 120_000,
): Promise<ProgramExit> {
  const path = join(bin, program);
  const [file, argv] = runsAsRoot() ? ["runuser", ["-u", "nobody", "--", path, ...args]] : [path, args];
  return new Promise((resolve) => {
    execFile(file, argv, { cwd, timeout: timeoutMs, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error === null) return resolve({ code: 0, stdout, stderr });
      const code = typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout, stderr: code === -1 ? `${stderr}${error.message}` : stderr });
    });
  });
}

/** What a failed program said, for an error message: its last lines only. */
export function exitText(exit: ProgramExit): string {
  const text = `${exit.stderr}\n${exit.stdout}`.trim();
  return text.split("\n").slice(-6).join("\n") || `exit status ${exit.code}`;
}
