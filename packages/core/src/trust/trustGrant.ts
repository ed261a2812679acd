import type { LatheErrorInfo } from "@lathe/protocol";
import { changeTrustRecord } from "./trustRecord.js";
import { checkWorkspaceTrust, realPath, type WorkspaceTrust } from "./workspaceTrust.js";

export type TrustGrant = { ok: true } | { ok: false; error: LatheErrorInfo };

/**
 * Records trust for the folder's gated files exactly as the check read them: a file changed after
 * the check is not covered, and the next check reports it.
 */
export async function grantWorkspaceTrust(latheHome: string, trust: WorkspaceTrust): Promise<TrustGrant> {
  const changed = await changeTrustRecord(latheHome, (record) => ({
    ...record,
    folders: {
      ...record.folders,
      [trust.projectRoot]: {
        fingerprint: trust.fingerprint,
        files: Object.fromEntries(trust.files.map((file) => [file.path, file.sha256])),
        trustedAt: new Date().toISOString(),
      },
    },
  }));
  return changed.ok ? { ok: true } : changed;
}

export type TrustRevocation = { ok: true; revoked: boolean } | { ok: false; error: LatheErrorInfo };

/** Forgets the folder's trust; `revoked` says whether there was one. */
export async function revokeWorkspaceTrust(latheHome: string, folder: string): Promise<TrustRevocation> {
  const key = realPath(folder);
  let revoked = false;
  const changed = await changeTrustRecord(latheHome, (record) => {
    revoked = key in record.folders;
    const { [key]: _removed, ...folders } = record.folders;
    return { ...record, folders };
  });
  return changed.ok ? { ok: true, revoked } : changed;
}

/**
 * Lathe's own write to a gated file (an "always, this project" rule in settings.local.json) keeps
 * the folder's standing: a folder that needed no trust, or whose record matched, is recorded again
 * for the files as they are now. A folder with files the user never trusted stays untrusted: the
 * user's consent to one rule is not consent to the rest.
 */
export async function keepTrustAcrossOwnWrite<T>(
  inputs: { projectRoot: string; latheHome: string },
  write: () => Promise<T>,
): Promise<T> {
  const before = checkWorkspaceTrust(inputs);
  const result = await write();
  const kept =
    before.status === "not_needed" || (before.status === "trusted" && before.trustedBy === "record");
  if (kept) await grantWorkspaceTrust(inputs.latheHome, checkWorkspaceTrust(inputs));
  return result;
}
