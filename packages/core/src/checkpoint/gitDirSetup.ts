import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import type { ShadowGit } from "./shadowGit.js";

/**
 * Outranks the project's .gitattributes: no line-ending conversion, filter, ident or re-encoding,
 * so a restore writes back exactly the bytes a snapshot read.
 */
const rawBytesAttributes = "* -text -ident -filter !working-tree-encoding\n";

/** Creates the shadow git dir on first use; rewrites the files Lathe owns in it every time. */
export async function prepareGitDir(git: ShadowGit): Promise<CheckpointOutcome<void>> {
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
