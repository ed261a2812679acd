import { createHash } from "node:crypto";
import { mkdir, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";

export interface CheckpointLocation {
  /** The project root with symlinks resolved: the work tree git sees. */
  projectRoot: string;
  /** `$LATHE_HOME/checkpoints/<hash of the project root>`. */
  gitDir: string;
  /** `$LATHE_HOME` resolved, relative to the project root, when it lies inside it (never snapshot it). */
  latheHomeInProject: string | undefined;
}

/**
 * Where the shadow repository of a project lives, or why there must be none: a work tree of `/` or
 * the home directory would copy (and on restore, rewrite) far more than a project.
 */
export async function locateCheckpoints(settings: {
  latheHome: string;
  projectRoot: string;
  homeDir?: string;
}): Promise<CheckpointOutcome<CheckpointLocation>> {
  if (!path.isAbsolute(settings.projectRoot)) {
    return fail("E_INVALID_ARGS", `Project root must be an absolute path: ${settings.projectRoot}`);
  }
  const projectRoot = await resolved(settings.projectRoot);
  if (projectRoot === undefined) {
    return fail("E_INVALID_ARGS", `Project root does not exist: ${settings.projectRoot}`);
  }
  if (projectRoot === path.parse(projectRoot).root) {
    return fail(
      "E_SECURITY_BLOCKED",
      `Checkpoints are off: the project root ${projectRoot} is the filesystem root, and snapshotting it would copy the whole machine.`,
    );
  }
  const homeDir = settings.homeDir ?? os.homedir();
  if (projectRoot === ((await resolved(homeDir)) ?? path.resolve(homeDir))) {
    return fail(
      "E_SECURITY_BLOCKED",
      `Checkpoints are off: the project root ${projectRoot} is the home directory, and snapshotting it would copy every file of the user.`,
    );
  }
  await mkdir(settings.latheHome, { recursive: true, mode: 0o700 });
  const latheHome = await realpath(settings.latheHome);
  const key = createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);
  const fromRoot = path.relative(projectRoot, latheHome);
  if (fromRoot === "") {
    return fail(
      "E_SECURITY_BLOCKED",
      `Checkpoints are off: the project root ${projectRoot} is $LATHE_HOME itself, so a restore would rewrite Lathe's own data.`,
    );
  }
  const inside = fromRoot !== ".." && !fromRoot.startsWith(`..${path.sep}`) && !path.isAbsolute(fromRoot);
  return succeed({
    projectRoot,
    gitDir: path.join(latheHome, "checkpoints", key),
    latheHomeInProject: inside ? fromRoot : undefined,
  });
}

async function resolved(target: string): Promise<string | undefined> {
  try {
    return await realpath(target);
  } catch {
    return undefined;
  }
}
