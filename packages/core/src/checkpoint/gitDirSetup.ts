import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import { ShadowGit, userExcludesFile } from "./shadowGit.js";

/**
 * Outranks the project's .gitattributes: no line-ending conversion, filter, ident or re-encoding,
 * so a restore writes back exactly the bytes a snapshot read.
 */
const rawBytesAttributes = "* -text -ident -filter !working-tree-encoding\n";

/**
 * The shadow's git, ready for its first operation: the git dir created (on first use) and the
 * user's global ignore file looked up. Both run git, so they wait for an operation instead of
 * holding up whoever opens the repository.
 */
export async function setUpShadowGit(
  gitDir: string,
  workTree: string,
): Promise<CheckpointOutcome<ShadowGit>> {
  // `git init` reads no ignore file: the lookup runs beside it.
  const [excludesFile, prepared] = await Promise.all([
    userExcludesFile(),
    prepareGitDir(new ShadowGit(gitDir, workTree, undefined)),
  ]);
  return prepared.ok ? succeed(new ShadowGit(gitDir, workTree, excludesFile)) : prepared;
}

/** Creates the shadow git dir on first use; rewrites the files Lathe owns in it every time. */
async function prepareGitDir(git: ShadowGit): Promise<CheckpointOutcome<void>> {
  if (!existsSync(path.join(git.gitDir, "HEAD"))) {
    await mkdir(git.gitDir, { recursive: true });
    // No template: sample hooks and descriptions would only cost space.
    const init = await git.run(["init", "-q", "--template="]);
    if (!init.ok) return init;
  }
  await mkdir(path.join(git.gitDir, "info"), { recursive: true });
  await writeFile(path.join(git.gitDir, "info", "attributes"), rawBytesAttributes);
  // For a human looking at $LATHE_HOME/checkpoints: which project this hash stands for.
  await writeFile(path.join(git.gitDir, "project"), `${git.workTree}\n`);
  return succeed(undefined);
}
