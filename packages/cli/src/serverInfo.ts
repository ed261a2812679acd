import { shippedCatalog } from "@lathe/core";
import type { ServerInfo } from "@lathe/protocol";
import { type ServiceResult, served, serviceError } from "@lathe/server";
import { defaultModelFor } from "./engineSetup.js";
import { type KeyPlaces, providersWithKeys } from "./providerKeyStates.js";
import { loadUserSettings } from "./userSettings.js";

export interface ServeInfoInputs extends KeyPlaces {
  version: string;
  /** Where `lathe serve` was started: the project a new session opens in by default. */
  defaultProjectRoot: string;
}

/** A session's default when neither a flag nor the settings choose one (the engine's own). */
const engineApprovalMode = "ask_first";

/**
 * What a client needs before opening a session, read afresh each time so that settings and keys
 * changed through the API show at once. The models: the one a session would use, its fallbacks,
 * then the catalog's models of every provider that has a key.
 */
export function serveInfo(inputs: ServeInfoInputs): ServiceResult<ServerInfo> {
  const loaded = loadUserSettings(inputs.latheHome);
  if (!loaded.ok) return serviceError("failed", "E_INVALID_ARGS", loaded.message);
  const { settings } = loaded;
  const defaultModel = inputs.env.LATHE_MODEL ?? settings.model ?? defaultModelFor(inputs.env);
  const keyed = providersWithKeys(inputs);
  const catalogModels = [...shippedCatalog().keys()].filter((id) => keyed.has(id.split(":")[0] ?? ""));
  const models = [
    ...new Set([
      ...(defaultModel ? [defaultModel] : []),
      ...(settings.fallbackModels ?? []),
      ...catalogModels,
    ]),
  ];
  return served({
    version: inputs.version,
    defaultProjectRoot: inputs.defaultProjectRoot,
    models,
    defaultModel: defaultModel || undefined,
    defaultMode: settings.mode ?? "agent",
    defaultApprovalMode: settings.approvalMode ?? engineApprovalMode,
  });
}
