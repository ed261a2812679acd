import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  AgentSession,
  type AgentSessionOptions,
  type AnyTool,
  type ApprovalMode,
  builtinTools,
  createModelClient,
  type RetrySettings,
  ToolRegistry,
} from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";
import type { FakeTurn } from "./fakeLlm/script.js";
import { type FakeLlm, startFakeLlm } from "./fakeLlm/server.js";

/** Where each wire protocol lives on the scripted server, by provider. */
export const scriptedBasePaths = {
  openai: "/v1",
  anthropic: "/v1",
  google: "/v1beta",
  deepseek: "/v1",
} as const;

export interface ScriptedSessionOptions {
  /** `provider:model` with a provider the scripted server speaks (default `openai:gpt-4.1`). */
  modelId?: string;
  approvalMode?: ApprovalMode;
  maxIterations?: number;
  /** Files of the temp project, by relative path. */
  files?: Record<string, string>;
  /** An existing directory to work in instead of a fresh temp project. */
  projectRoot?: string;
  mode?: AgentSessionOptions["mode"];
  hooks?: AgentSessionOptions["hooks"];
  rules?: AgentSessionOptions["rules"];
  approvalTimeoutMs?: number;
  sandbox?: AgentSessionOptions["sandbox"];
  retry?: Partial<RetrySettings>;
  requestApproval?: AgentSessionOptions["requestApproval"];
  /** Context settings (window, loop thresholds…) passed to the session as they are. */
  context?: AgentSessionOptions["context"];
  /** A second scripted server that plays the fast model writing compaction summaries. */
  summarizerTurns?: FakeTurn[];
  /** A scripted server for agents that name their own model (`model:` in `.lathe/agents/*.md`). */
  agentModelTurns?: FakeTurn[];
  subagents?: AgentSessionOptions["subagents"];
  /** Answers the model's questions; without it `ask_user` is not offered, as in a headless run. */
  askUser?: AgentSessionOptions["askUser"];
  /** Tools besides the built-ins (the web tools a face adds, MCP tools). */
  extraTools?: AnyTool[];
}

export interface ScriptedSession {
  session: AgentSession;
  server: FakeLlm;
  /** The summarizer's server, when `summarizerTurns` were given. */
  summarizerServer?: FakeLlm;
  /** The agents' model server, when `agentModelTurns` were given. */
  agentModelServer?: FakeLlm;
  /** Closes the scripted servers. */
  close(): Promise<void>;
  /** Every event the session emitted, in order. */
  events: LatheEvent[];
  projectRoot: string;
  latheHome: string;
}

/**
 * A real agent session in a temp project, talking over HTTP to a scripted model server that
 * plays `turns`. The caller closes `server` when done.
 */
export async function startScriptedSession(
  turns: FakeTurn[],
  options: ScriptedSessionOptions = {},
): Promise<ScriptedSession> {
  const server = await startFakeLlm({ script: { turns } });
  const projectRoot = options.projectRoot ?? mkdtempSync(join(tmpdir(), "lathe-project-"));
  const latheHome = mkdtempSync(join(tmpdir(), "lathe-home-"));
  for (const [path, contents] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(projectRoot, path)), { recursive: true });
    writeFileSync(join(projectRoot, path), contents);
  }
  const modelId = options.modelId ?? "openai:gpt-4.1";
  const provider = modelId.split(":")[0] as keyof typeof scriptedBasePaths;
  const client = createModelClient({
    modelId,
    baseUrl: `${server.url}${scriptedBasePaths[provider] ?? "/v1"}`,
    apiKey: "scripted-test-key",
    env: {},
    latheHome,
    retry: options.retry,
  });
  if (!client.ok) {
    await server.close();
    throw new Error(client.error.message);
  }
  const clientOf = (of: FakeLlm, id: string) => {
    const made = createModelClient({
      modelId: id,
      baseUrl: `${of.url}${scriptedBasePaths[id.split(":")[0] as keyof typeof scriptedBasePaths] ?? "/v1"}`,
      apiKey: "scripted-test-key",
      env: {},
      latheHome,
    });
    if (!made.ok) throw new Error(made.error.message);
    return made.client;
  };
  const summarizerServer = options.summarizerTurns
    ? await startFakeLlm({ script: { turns: options.summarizerTurns } })
    : undefined;
  const agentModelServer = options.agentModelTurns
    ? await startFakeLlm({ script: { turns: options.agentModelTurns } })
    : undefined;
  const context = {
    ...options.context,
    summarizer: summarizerServer ? clientOf(summarizerServer, modelId) : options.context?.summarizer,
  };
  const session = new AgentSession({
    context,
    subagents: options.subagents,
    modelFor: agentModelServer ? (id: string) => clientOf(agentModelServer, id) : undefined,
    projectRoot,
    latheHome,
    model: client.client,
    tools: new ToolRegistry([...builtinTools(), ...(options.extraTools ?? [])]),
    askUser: options.askUser,
    approvalMode: options.approvalMode ?? "yolo",
    mode: options.mode,
    hooks: options.hooks,
    rules: options.rules,
    approvalTimeoutMs: options.approvalTimeoutMs,
    sandbox: options.sandbox,
    maxIterations: options.maxIterations,
    requestApproval: options.requestApproval,
  });
  const events: LatheEvent[] = [];
  session.subscribe((event) => events.push(event));
  const close = async () => {
    await server.close();
    await summarizerServer?.close();
    await agentModelServer?.close();
  };
  return {
    session,
    server,
    summarizerServer,
    agentModelServer,
    close,
    events,
    projectRoot,
    latheHome,
  };
}
