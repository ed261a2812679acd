import { openShadowRepository } from "@lathe/core";
import { loadUserSettings } from "./userSettings.js";

/** The project's shadow repository with the size limits of the user's settings (defaults when unreadable). */
export function checkpointRepositoryFor(latheHome: string, projectRoot: string) {
  const loaded = loadUserSettings(latheHome);
  const limits = loaded.ok ? loaded.settings.checkpoints : undefined;
  return openShadowRepository({
    latheHome,
    projectRoot,
    maxFileBytes: limits?.maxFileBytes,
    maxTotalBytes: limits?.maxTotalBytes,
  });
}
