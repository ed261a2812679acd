import { analyzeCommand } from "../../../policy/commandAnalysis/index.js";
import type { Assessment } from "../../../policy/policyTypes.js";

/**
 * The judgement of a shell command: parsed with tree-sitter-bash, every segment judged, hard
 * blocks (rm -rf /, mkfs, curl | sh…) denied in every mode (SPEC §5).
 */
export async function assessCommand(command: string, projectRoot: string): Promise<Assessment> {
  const analysis = await analyzeCommand(command, { projectRoot });
  return {
    risk: analysis.risk,
    reason: analysis.reason,
    ...(analysis.block ? { block: analysis.block } : {}),
    ...(analysis.needsNetwork ? { needsNetwork: true } : {}),
  };
}
