import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  AgentSession,
  type AgentSessionOptions,
  type ApprovalAnswer,
  builtinTools,
  type ModelClient,
  type RunResult,
  ToolRegistry,
} from "@lathe/core";
import type { LatheEvent, Message, ToolResultStatus } from "@lathe/protocol";
import { requestTokens } from "../fakeLlm/requestSize.js";
import { type ScriptedSession, startScriptedSession } from "../scriptedSession.js";
import { type CaseScores, scoreCase } from "./caseScores.js";
import type { EvalCase } from "./evalCase.js";

export interface CaseToolCall {
  name: string;
  arguments: unknown;
  status: ToolResultStatus;
  output: string;
  errorCode?: string;
}

/** What a case's `verify.mjs` receives; it returns the list of failures (empty = pass). */
export interface VerifyContext {
  projectRoot: string;
  result: RunResult;
  toolCalls: CaseToolCall[];
  events: LatheEvent[];
  read(path: string): string | undefined;
  exists(path: string): boolean;
  /** The bodies of the requests the scripted model server received, in order. */
  requests: unknown[];
  /** The size in tokens of one of `requests`, counted with Lathe's tokenizer. */
  requestTokens(body: unknown): number;
  /** The case's context window (or undefined when it uses the model's). */
  contextWindow?: number;
}

export interface CaseOutcome {
  id: string;
  pass: boolean;
  failures: string[];
  result: RunResult;
  toolCalls: CaseToolCall[];
  wallMs: number;
  scores: CaseScores;
}

/** Where a case's answers come from: its scripted model, or a real one. */
export type CaseModel = { kind: "scripted" } | { kind: "real"; client: ModelClient };

/** Runs one case against its scripted model over HTTP (the default) or a real model, in a fresh copy of its fixture. */
export async function runEvalCase(
  evalCase: EvalCase,
  model: CaseModel = { kind: "scripted" },
): Promise<CaseOutcome> {
  const projectRoot = realpathSync(mkdtempSync(join(tmpdir(), `lathe-eval-${evalCase.id}-`)));
  if (evalCase.fixtureDir) copyFixture(evalCase.fixtureDir, projectRoot);
  const answers = [...evalCase.approvals];
  const started = performance.now();
  const options = {
    projectRoot,
    mode: evalCase.mode,
    approvalMode: evalCase.approvalMode,
    maxIterations: evalCase.maxIterations,
    context: evalCase.contextWindow ? { window: evalCase.contextWindow } : undefined,
    requestApproval: async (): Promise<ApprovalAnswer> =>
      answers.shift() === "accept"
        ? { decision: "accept" }
        : { decision: "reject", message: "The user rejected this in the evaluation script." },
  };
  const scripted: CaseSession =
    model.kind === "scripted"
      ? scriptedCaseSession(
          await startScriptedSession(evalCase.scriptedTurns, {
            ...options,
            summarizerTurns: evalCase.summarizerTurns,
          }),
        )
      : realModelSession(model.client, options);
  try {
    if (evalCase.editor) {
      const applied = scripted.session.updateEditor({ full: evalCase.editor });
      if (!applied.ok) throw new Error(`${evalCase.id}: editor state refused: ${applied.error.message}`);
    }
    const stopAt = evalCase.cancelAfterToolStarts;
    let toolStarts = 0;
    const unsubscribe = scripted.session.subscribe((event) => {
      if (event.type === "tool_executing" && ++toolStarts === stopAt)
        setTimeout(() => scripted.session.cancel(), 200);
    });
    const result = await scripted.session.send(evalCase.prompt);
    unsubscribe();
    const wallMs = Math.round(performance.now() - started);
    const toolCalls = collectToolCalls(scripted.session.messages);
    const verify = await loadVerify(evalCase.verifyPath);
    const failures = await verify({
      projectRoot,
      result,
      toolCalls,
      events: scripted.events,
      read: (path) =>
        existsSync(join(projectRoot, path)) ? readFileSync(join(projectRoot, path), "utf8") : undefined,
      exists: (path) => existsSync(join(projectRoot, path)),
      requests: scripted.requests(),
      requestTokens,
      contextWindow: evalCase.contextWindow,
    });
    const pass = failures.length === 0;
    return {
      id: evalCase.id,
      pass,
      failures,
      result,
      toolCalls,
      wallMs,
      scores: scoreCase(evalCase, { pass, result, toolCalls }),
    };
  } finally {
    await scripted.close();
  }
}

/** A session a case runs in, whichever model answers it. */
interface CaseSession {
  session: AgentSession;
  events: LatheEvent[];
  /** What the model was sent, as request bodies (OpenAI chat shape for real models). */
  requests(): unknown[];
  close(): Promise<void>;
}

function scriptedCaseSession(scripted: ScriptedSession): CaseSession {
  return {
    session: scripted.session,
    events: scripted.events,
    requests: () => scripted.server.requests.map((request) => request.body),
    close: () => scripted.close(),
  };
}

/** A real model behind the same session the scripted cases get; what it is sent is recorded. */
function realModelSession(
  client: ModelClient,
  options: Omit<AgentSessionOptions, "latheHome" | "model" | "tools">,
): CaseSession {
  const sent: unknown[] = [];
  const recording: ModelClient = {
    modelId: client.modelId,
    stream(request) {
      sent.push({
        messages: [
          { role: "system", content: request.system },
          ...request.messages.map((message) => ({
            role: message.role,
            content: JSON.stringify(message.parts),
          })),
        ],
        tools: request.tools,
      });
      return client.stream(request);
    },
  };
  const latheHome = mkdtempSync(join(tmpdir(), "lathe-eval-home-"));
  const session = new AgentSession({
    ...options,
    latheHome,
    model: recording,
    tools: new ToolRegistry(builtinTools()),
  });
  const events: LatheEvent[] = [];
  session.subscribe((event) => events.push(event));
  return { session, events, requests: () => sent, close: () => session.dispose() };
}

/**
 * Copies a fixture; a name starting with `__` loses the two underscores, so fixtures can hold
 * names the repository's git would ignore (`__.gitignore`, `__node_modules`).
 */
function copyFixture(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const target = join(to, entry.name.startsWith("__") ? entry.name.slice(2) : entry.name);
    if (entry.isDirectory()) copyFixture(join(from, entry.name), target);
    else cpSync(join(from, entry.name), target);
  }
}

type Verify = (ctx: VerifyContext) => string[] | Promise<string[]>;

async function loadVerify(path: string): Promise<Verify> {
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  if (typeof module.default !== "function") throw new Error(`${path} must export a default verify function`);
  return module.default as Verify;
}

function collectToolCalls(messages: readonly Message[]): CaseToolCall[] {
  const parts = messages.flatMap((m) => m.parts);
  return parts.flatMap((part) => {
    if (part.type !== "tool_call") return [];
    const result = parts.find((p) => p.type === "tool_result" && p.callId === part.callId);
    if (result?.type !== "tool_result") return [];
    return [
      {
        name: part.name,
        arguments: part.arguments,
        status: result.status,
        output: result.output,
        errorCode: result.error?.code,
      },
    ];
  });
}
