import os from "node:os";
import { analyzeCommand } from "../../../policy/commandAnalysis/index.js";
import type { Assessment } from "../../../policy/policyTypes.js";

/**
 * The judgement of a shell command: parsed with tree-sitter-bash, every segment judged, hard
 * blocks (rm -rf /, mkfs, curl | sh…) denied in every mode (SPEC §5).
 */
export async function assessCommand(
  command: string,
  where: { projectRoot: string; latheHome: string },
): Promise<Assessment> {
  // The home directory and $LATHE_HOME make `cat /home/u/.ssh/id_rsa` and a custom
  // `$LATHE_HOME/credentials.json` as sensitive as their `~` spellings.
  const analysis = await analyzeCommand(command, { ...where, homeDir: os.homedir() });
  return {
    risk: analysis.risk,
    reason: analysis.reason,
    block: analysis.block,
    needsNetwork: analysis.needsNetwork,
    runsProjectCode: analysis.runsProjectCode,
  };
}
