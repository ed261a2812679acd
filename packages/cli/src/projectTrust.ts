import {
  checkWorkspaceTrust,
  grantWorkspaceTrust,
  projectTrusted,
  untrustedNotice,
  type WorkspaceTrust,
} from "@lathe/core";
import type { UserSettings } from "./userSettings.js";

export interface ProjectTrustInputs {
  projectRoot: string;
  latheHome: string;
  settings: Pick<UserSettings, "trustedFolders" | "trustAllFolders">;
  /** `--trust`: trust the folder's gated files as they are now, and record it. */
  trustFlag: boolean;
  /** Asks the user (the interactive chat); absent where no one can answer. */
  confirm?: (trust: WorkspaceTrust) => Promise<boolean>;
  warn?: (message: string) => void;
}

export interface ProjectTrust {
  /** Whether the project's hooks, MCP servers, allow rules and agents take effect. */
  trusted: boolean;
  trust: WorkspaceTrust;
}

/**
 * Decides, before a session starts, whether the folder's gated files take effect: trusted by the
 * record or a setting; else `--trust` or a yes to the prompt records trust; else they are left
 * out and the user is told which, and how to trust them.
 */
export async function settleProjectTrust(inputs: ProjectTrustInputs): Promise<ProjectTrust> {
  const trust = checkWorkspaceTrust({
    projectRoot: inputs.projectRoot,
    latheHome: inputs.latheHome,
    settings: inputs.settings,
  });
  if (trust.status === "not_needed" || projectTrusted(trust))
    return { trusted: projectTrusted(trust), trust };
  const given = inputs.trustFlag || (inputs.confirm !== undefined && (await inputs.confirm(trust)));
  if (given) {
    const granted = await grantWorkspaceTrust(inputs.latheHome, trust);
    // The user said so for this run; only remembering it failed.
    if (!granted.ok) inputs.warn?.(`trust for this run only: ${granted.error.message}`);
    return { trusted: true, trust };
  }
  const notice = untrustedNotice(trust);
  if (notice) inputs.warn?.(notice);
  return { trusted: false, trust };
}
