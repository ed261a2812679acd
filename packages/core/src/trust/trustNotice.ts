import { describeGatedFiles } from "./gatedEffects.js";
import type { WorkspaceTrust } from "./workspaceTrust.js";

/**
 * What to tell the user when a folder's gated files were left out: each file with what it would
 * have run or granted, what changed since the folder was trusted, and how to trust it. Undefined
 * when nothing was left out.
 */
export function untrustedNotice(trust: WorkspaceTrust): string | undefined {
  if (trust.status === "trusted" || trust.status === "not_needed") return undefined;
  const lines: string[] = [];
  if (trust.recordError) lines.push(trust.recordError.message);
  if (trust.status === "changed") {
    const changed = trust.changes.map((change) => `${change.path} (${change.change})`).join(", ");
    lines.push(`Files of ${trust.projectRoot} changed since you trusted it: ${changed}.`);
  }
  lines.push(
    `${trust.projectRoot} is not trusted, so these project files were ignored (nothing in them ran):`,
  );
  for (const file of describeGatedFiles(trust.projectRoot, trust.files)) {
    lines.push(`  ${file.path}`);
    for (const effect of file.effects) lines.push(`    ${effect}`);
  }
  lines.push("Read them, then trust the folder with `lathe trust` (or run with --trust) to use them.");
  return lines.join("\n");
}
