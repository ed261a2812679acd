import { type ServiceResult, served, type WorkspaceServices } from "@lathe/server";
import { changeUserMcpServer, listMcpServers } from "./mcpListing.js";
import { probeMcpStatus } from "./mcpStatusProbe.js";
import { deleteMemory, listMemories } from "./memoryListing.js";
import { type KeyPlaces, providerKeyStates } from "./providerKeyStates.js";
import { storeProviderKey } from "./providerKeys.js";
import { listRules } from "./ruleListing.js";
import { serveInfo } from "./serverInfo.js";
import { withStore } from "./serveStore.js";
import { sessionHistoryServices } from "./sessionHistoryServices.js";
import { readSettingsFile, type StoredSettings, updateSettingsFile } from "./settingsFile.js";
import { redactSettings } from "./settingsSecrets.js";
import { grantProjectTrust, trustStatus } from "./trustServices.js";

export interface ServeServicesInputs extends KeyPlaces {
  version: string;
  /** The directory `lathe serve` was started in, resolved. */
  cwd: string;
}

/**
 * `lathe serve`'s workspace services: the session database at `$LATHE_HOME/lathe.db`, the
 * settings and credentials files beside it, and each project's rules, memories and MCP files,
 * read on every request so that what the terminal changes shows in the browser too.
 */
export function serveServices(inputs: ServeServicesInputs): WorkspaceServices {
  const { latheHome } = inputs;
  const access = { latheHome, env: inputs.env };
  // Settings and credentials are read, changed and written whole: one change at a time.
  let writing: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(change: () => Promise<T>): Promise<T> => {
    const next = writing.then(change, change);
    writing = next.catch(() => undefined);
    return next;
  };
  const settingsReply = (settings: StoredSettings) => ({
    settings: redactSettings(settings) as StoredSettings,
    providers: providerKeyStates(inputs),
  });
  const withReply = (stored: ServiceResult<StoredSettings>) =>
    stored.ok ? served(settingsReply(stored.value)) : stored;

  return {
    ...sessionHistoryServices(access),
    info: async () => serveInfo({ ...inputs, defaultProjectRoot: inputs.cwd }),
    settings: async () => withReply(await readSettingsFile(latheHome)),
    updateSettings: (changes) =>
      oneAtATime(async () => withReply(await updateSettingsFile(latheHome, changes))),
    storeKey: (provider, key) => oneAtATime(() => storeProviderKey(latheHome, provider, key)),
    memories: (projectRoot) => withStore(access, (store) => listMemories(store, projectRoot)),
    deleteMemory: (projectRoot, id) => withStore(access, (store) => deleteMemory(store, projectRoot, id)),
    rules: (projectRoot) => listRules(latheHome, projectRoot),
    mcpServers: async (projectRoot) => listMcpServers(latheHome, projectRoot),
    addMcpServer: (projectRoot, name, entry) =>
      oneAtATime(() => changeUserMcpServer({ latheHome, projectRoot }, { kind: "add", name, entry })),
    removeMcpServer: (projectRoot, name) =>
      oneAtATime(() => changeUserMcpServer({ latheHome, projectRoot }, { kind: "remove", name })),
    mcpStatus: (projectRoot) => probeMcpStatus(latheHome, projectRoot, inputs.env),
    trust: async (projectRoot) => trustStatus(latheHome, projectRoot),
    grantTrust: (projectRoot, fingerprint) => grantProjectTrust(latheHome, projectRoot, fingerprint),
  };
}
