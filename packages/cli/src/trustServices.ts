import { checkWorkspaceTrust, grantWorkspaceTrust, projectTrusted, type WorkspaceTrust } from "@lathe/core";
import type { TrustReply } from "@lathe/protocol";
import { type ServiceResult, served, serviceError } from "@lathe/server";
import { trustReply } from "./trustReply.js";
import { loadUserSettings } from "./userSettings.js";

/** The trust of a project for `GET /api/trust`, with the user's trust settings as they are now. */
export function projectTrustFor(latheHome: string, projectRoot: string): ServiceResult<WorkspaceTrust> {
  const loaded = loadUserSettings(latheHome);
  if (!loaded.ok) return serviceError("failed", "E_INVALID_ARGS", loaded.message);
  return served(checkWorkspaceTrust({ projectRoot, latheHome, settings: loaded.settings }));
}

export function trustStatus(latheHome: string, projectRoot: string): ServiceResult<TrustReply> {
  const trust = projectTrustFor(latheHome, projectRoot);
  return trust.ok ? served(trustReply(trust.value)) : trust;
}

/**
 * `POST /api/trust`: records trust for the files as they are now, unless they are no longer the
 * ones the user was shown (`fingerprint`).
 */
export async function grantProjectTrust(
  latheHome: string,
  projectRoot: string,
  fingerprint: string | undefined,
): Promise<ServiceResult<TrustReply>> {
  const checked = projectTrustFor(latheHome, projectRoot);
  if (!checked.ok) return checked;
  const trust = checked.value;
  if (fingerprint !== undefined && fingerprint !== trust.fingerprint) {
    return serviceError(
      "conflict",
      "E_STALE_FILE",
      `The project files changed since they were shown (now: ${trust.files.map((file) => file.path).join(", ") || "none"}); look at them again before trusting.`,
    );
  }
  if (trust.status === "not_needed" || projectTrusted(trust)) return served(trustReply(trust));
  const granted = await grantWorkspaceTrust(latheHome, trust);
  if (!granted.ok) return serviceError("failed", granted.error.code, granted.error.message);
  return served(trustReply({ ...trust, status: "trusted", trustedBy: "record", changes: [] }));
}
