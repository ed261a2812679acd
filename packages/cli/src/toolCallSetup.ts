import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkWorkspaceTrust,
  detectSandbox,
  knownSecrets,
  loadRuleLayers,
  type PolicyInput,
  projectTrusted,
  type RuleError,
  type SandboxContext,
  type SandboxSettings,
  type ToolRegistry,
} from "@lathe/core";
import { newId } from "@lathe/protocol";
import { sessionTools } from "./sessionTools.js";
import type { UserSettings } from "./userSettings.js";

/** A session's default (engineSetup): bubblewrap where it works, the network off. */
export const sessionDefaultSandbox: SandboxSettings = { mode: "auto", network: false };

export interface ToolCallSetupInputs {
  projectRoot: string;
  latheHome: string;
  settings: UserSettings;
  env: Record<string, string | undefined>;
  /** `--allow` / `--deny` given to this command. */
  cli?: { allow?: readonly string[]; deny?: readonly string[] };
  /** `--no-sandbox`: the user's own word that commands run outside the sandbox. */
  noSandbox?: boolean;
  warn(message: string): void;
}

/** What one call outside a session is judged and run with: everything a session would use. */
export interface ToolCallSetup {
  registry: ToolRegistry;
  ruleErrors: readonly RuleError[];
  /** The parts of the policy's input that do not depend on the call. */
  policy: Pick<PolicyInput, "projectRoot" | "latheHome" | "rules" | "secrets" | "sandbox">;
  /** For the tool context of `lathe tool`; absent when commands run unsandboxed. */
  sandbox?: SandboxContext;
  /** Stops what the tools started (the browser, MCP servers) and removes the sandbox's /tmp. */
  close(): Promise<void>;
}

/**
 * `lathe tool` and `lathe policy check` judge a call as a session in the same folder would: the
 * session's tools (web tools and the MCP servers of the user and of a trusted project), the rule
 * layers with the same workspace trust, the keys this process knows and the session's sandbox.
 */
export async function setUpToolCall(inputs: ToolCallSetupInputs): Promise<ToolCallSetup> {
  const { projectRoot, latheHome, settings, env } = inputs;
  const trusted = projectTrusted(checkWorkspaceTrust({ projectRoot, latheHome, settings }));
  const layers = loadRuleLayers({
    latheHome,
    projectRoot,
    cli: { allow: inputs.cli?.allow ?? [], deny: inputs.cli?.deny ?? [] },
    projectTrusted: trusted,
  });
  const tools = await sessionTools({
    projectRoot,
    latheHome,
    projectTrusted: trusted,
    settings,
    env,
    warn: inputs.warn,
  });
  const sandbox = await sandboxFor(inputs);
  const policy: ToolCallSetup["policy"] = {
    projectRoot,
    latheHome,
    rules: layers.rules,
    secrets: knownSecrets({ env, latheHome }),
    sandbox: sandbox?.detection.available ? { networkAlwaysOn: sandbox.settings.network } : undefined,
  };
  return {
    registry: tools.registry,
    ruleErrors: layers.errors,
    policy,
    sandbox,
    async close() {
      await tools.close();
      if (sandbox) await rm(sandbox.tempDir, { recursive: true, force: true });
    },
  };
}

async function sandboxFor(inputs: ToolCallSetupInputs): Promise<SandboxContext | undefined> {
  const settings = inputs.settings.sandbox ?? sessionDefaultSandbox;
  if (inputs.noSandbox === true || settings.mode === "off") return undefined;
  return {
    settings,
    detection: await detectSandbox(),
    tempDir: join(tmpdir(), `lathe-sandbox-${newId()}`),
    networkCallIds: new Set(),
    unsandboxedCallIds: new Set(),
  };
}
