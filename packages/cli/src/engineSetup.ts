import {
  AgentSession,
  type ApprovalAnswer,
  type ApprovalRequest,
  builtinTools,
  createModelClient,
  loadHooks,
  loadRuleLayers,
  ToolRegistry,
} from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { CliArgs } from "./cliArgs.js";
import { projectRootFrom } from "./projectRoot.js";
import type { UserSettings } from "./userSettings.js";

export interface EngineInputs {
  args: CliArgs;
  settings: UserSettings;
  env: Record<string, string | undefined>;
  latheHome: string;
  requestApproval?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
  /** Problems worth telling the user that do not stop the session (a broken hooks.json). */
  warn?: (message: string) => void;
}

export type EngineSetup =
  | { ok: true; session: AgentSession; projectRoot: string; modelId: string; toolNames: string[] }
  | { ok: false; error: LatheErrorInfo; kind: "usage" | "auth" | "no_model" };

/** Commands run in bubblewrap where it works, with the network off until a command needs it and is approved. */
const defaultSandbox = { mode: "auto", network: false } as const;

/** Builds a session from flags, settings and environment; flags win over settings. */
export function setUpEngine(inputs: EngineInputs): EngineSetup {
  const { args, settings, env } = inputs;
  const projectRoot = projectRootFrom(args.cwd);
  if (!projectRoot.ok) return { ok: false, error: projectRoot.error, kind: "usage" };
  const modelId = args.model ?? env.LATHE_MODEL ?? settings.model ?? defaultModelFor(env);
  if (!modelId)
    return {
      ok: false,
      kind: "no_model",
      error: errorInfo("E_LLM_AUTH", "No model provider is configured."),
    };
  const provider = modelId.split(":")[0] ?? "";
  const client = createModelClient({
    modelId,
    baseUrl: args.baseUrl ?? settings.baseUrls?.[provider],
    baseUrls: settings.baseUrls,
    apiKey: args.apiKey,
    env,
    latheHome: inputs.latheHome,
    retry: settings.llm,
    fallbackModels: settings.fallbackModels,
  });
  if (!client.ok)
    return { ok: false, error: client.error, kind: client.error.code === "E_LLM_AUTH" ? "auth" : "usage" };
  const layers = loadRuleLayers({
    latheHome: inputs.latheHome,
    projectRoot: projectRoot.path,
    cli: { allow: args.allowRules, deny: args.denyRules },
  });
  if (layers.errors.length > 0) {
    const problems = layers.errors.map((e) => `${e.file ?? "flags"}: ${e.message}`).join("\n  ");
    return {
      ok: false,
      kind: "usage",
      error: errorInfo("E_INVALID_ARGS", `Invalid permission rules:\n  ${problems}`),
    };
  }
  const hooks = loadHooks({ projectRoot: projectRoot.path, latheHome: inputs.latheHome });
  for (const problem of hooks.errors) inputs.warn?.(`hooks: ${problem.file}: ${problem.message}`);
  const registry = new ToolRegistry(builtinTools());
  const session = new AgentSession({
    hooks: hooks.hooks,
    rules: layers.rules,
    sandbox: settings.sandbox ?? defaultSandbox,
    ...(settings.approvalTimeoutSeconds ? { approvalTimeoutMs: settings.approvalTimeoutSeconds * 1000 } : {}),
    projectRoot: projectRoot.path,
    latheHome: inputs.latheHome,
    model: client.client,
    tools: registry,
    mode: args.mode ?? settings.mode,
    approvalMode: args.approvalMode ?? settings.approvalMode,
    maxIterations: args.maxIterations ?? settings.maxIterations,
    requestApproval: inputs.requestApproval,
    shell: env.SHELL,
  });
  return {
    ok: true,
    session,
    projectRoot: projectRoot.path,
    modelId,
    toolNames: registry.list().map((t) => t.name),
  };
}

/** The first provider with a key in the environment, with a sensible default model for it. */
function defaultModelFor(env: Record<string, string | undefined>): string | undefined {
  if (env.ANTHROPIC_API_KEY) return "anthropic:claude-sonnet-4-5";
  if (env.OPENAI_API_KEY) return "openai:gpt-4.1";
  if (env.GEMINI_API_KEY || env.GOOGLE_GENERATIVE_AI_API_KEY) return "google:gemini-2.5-pro";
  if (env.DEEPSEEK_API_KEY) return "deepseek:deepseek-chat";
  return undefined;
}
