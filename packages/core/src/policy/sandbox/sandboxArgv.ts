import path from "node:path";
import { configProtectionArgs } from "./configProtection.js";
import { gitProtectionArgs } from "./gitProtection.js";
import { hostServiceMaskArgs } from "./hostServices.js";
import { isDirectory } from "./pathKinds.js";
import type { SandboxLaunch } from "./sandboxTypes.js";

export interface SandboxArgvInput extends SandboxLaunch {
  /** The command line, run with `bash -c`. */
  command: string;
  /** Where the command starts; default the project root. */
  cwd?: string;
}

export interface SandboxProgramInput extends SandboxLaunch {
  /** The program and its arguments, handed to bwrap as they are: no shell reads them. */
  program: readonly [string, ...string[]];
  /** Where the program starts; default the project root. */
  cwd?: string;
}

/** Where the session's private temp dir appears inside the sandbox; `TMPDIR` points there. */
export const sandboxTmp = "/tmp";

/**
 * The argv (bwrap first) that runs `bash -c command` in bubblewrap: the whole system read-only,
 * the project, the extra roots and a private `/tmp` writable, git metadata (`.git` hooks, config,
 * `commondir`…), `.lathe`, `.cursor` and shell start-up files read-only,
 * no network unless allowed. `$HOME` stays readable and read-only: a cache write there fails with
 * EROFS, which counts as a sandbox denial the user can lift for that call, because a writable
 * cache shared with the host (~/.cache/go-build, pip's wheels) would let a command plant what
 * later runs unsandboxed.
 *
 * Later mounts cover earlier ones, so the order below matters. Reads the file system to leave out
 * paths that do not exist (bwrap refuses to mount a missing source).
 */
export function sandboxArgv(input: SandboxArgvInput): string[] {
  return sandboxProgramArgv({ ...input, program: ["bash", "-c", input.command] });
}

/** The argv (bwrap first) that runs `program` in the same sandbox as `sandboxArgv`'s commands. */
export function sandboxProgramArgv(input: SandboxProgramInput): string[] {
  const projectRoot = path.resolve(input.projectRoot);
  return [
    input.bwrapPath,
    // Node dying takes the sandbox with it; killing bwrap (what the process-group kill reaches)
    // ends the whole PID namespace, so nothing a command started outlives it.
    "--die-with-parent",
    "--unshare-pid",
    // A fresh session: no controlling terminal to push keystrokes into (TIOCSTI).
    "--new-session",
    // When Lathe runs as root, bwrap keeps every capability unless told otherwise, and root with
    // CAP_SYS_ADMIN can simply remount `/` read-write.
    "--cap-drop",
    "ALL",
    ...(input.network ? [] : ["--unshare-net"]),
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    // bwrap's /dev/shm is root's; Python's multiprocessing and others need to write there.
    "--tmpfs",
    "/dev/shm",
    "--proc",
    "/proc",
    ...hostServiceMaskArgs(),
    "--bind",
    input.tempDir,
    sandboxTmp,
    // After the private /tmp, so a project or root that lives under the host's /tmp stays visible.
    "--bind",
    projectRoot,
    projectRoot,
    ...writableRootArgs(projectRoot, input.writableRoots ?? []),
    ...gitProtectionArgs(projectRoot),
    ...configProtectionArgs(projectRoot),
    "--setenv",
    "TMPDIR",
    sandboxTmp,
    "--chdir",
    input.cwd ?? projectRoot,
    "--",
    ...input.program,
  ];
}

function writableRootArgs(projectRoot: string, roots: readonly string[]): string[] {
  const seen = new Set([projectRoot]);
  const args: string[] = [];
  for (const root of roots.map((entry) => path.resolve(entry))) {
    if (seen.has(root) || !isDirectory(root)) continue;
    seen.add(root);
    args.push("--bind", root, root);
  }
  return args;
}
