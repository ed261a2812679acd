import { describeGatedFiles, projectTrusted, type WorkspaceTrust } from "@lathe/core";
import type { TrustReply } from "@lathe/protocol";

/** A trust check as `lathe trust --json` and `GET /api/trust` tell it. */
export function trustReply(trust: WorkspaceTrust): TrustReply {
  return {
    projectRoot: trust.projectRoot,
    status: trust.status,
    trusted: projectTrusted(trust),
    trustedBy: trust.trustedBy,
    fingerprint: trust.fingerprint,
    files: describeGatedFiles(trust.projectRoot, trust.files),
    changes: trust.changes,
    recordError: trust.recordError?.message,
  };
}

/** The files and what each would do, indented under a heading, for the terminal. */
export function gatedFilesText(reply: TrustReply): string {
  return reply.files
    .map((file) => `  ${file.path}\n${file.effects.map((effect) => `    ${effect}\n`).join("")}`)
    .join("");
}
