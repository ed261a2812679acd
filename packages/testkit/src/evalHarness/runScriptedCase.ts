import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ApprovalAnswer, RunResult } from "@lathe/core";
import type { LatheEvent, Message, ToolResultStatus } from "@lathe/protocol";
import { requestTokens } from "../fakeLlm/requestSize.js";
import { startScriptedSession } from "../scriptedSession.js";
import type { EvalCase } from "./evalCase.js";

export interface CaseToolCall {
  name: string;
  arguments: unknown;
  status: ToolResultStatus;
  output: string;
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
}

/** Runs one case against its scripted model, over HTTP, in a fresh copy of its fixture. */
export async function runScriptedCase(evalCase: EvalCase): Promise<CaseOutcome> {
  const projectRoot = realpathSync(mkdtempSync(join(tmpdir(), `lathe-eval-${evalCase.id}-`)));
  if (evalCase.fixtureDir) copyFixture(evalCase.fixtureDir, projectRoot);
  const answers = [...evalCase.approvals];
  const started = performance.now();
  const scripted = await startScriptedSession(evalCase.scriptedTurns, {
    projectRoot,
    mode: evalCase.mode,
    approvalMode: evalCase.approvalMode,
    ...(evalCase.maxIterations ? { maxIterations: evalCase.maxIterations } : {}),
    ...(evalCase.contextWindow ? { context: { window: evalCase.contextWindow } } : {}),
    ...(evalCase.summarizerTurns ? { summarizerTurns: evalCase.summarizerTurns } : {}),
    requestApproval: async (): Promise<ApprovalAnswer> =>
      answers.shift() === "accept"
        ? { decision: "accept" }
        : { decision: "reject", message: "The user rejected this in the evaluation script." },
  });
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
      requests: scripted.server.requests.map((request) => request.body),
      requestTokens,
      ...(evalCase.contextWindow ? { contextWindow: evalCase.contextWindow } : {}),
    });
    return { id: evalCase.id, pass: failures.length === 0, failures, result, toolCalls, wallMs };
  } finally {
    await scripted.close();
  }
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
    return [{ name: part.name, arguments: part.arguments, status: result.status, output: result.output }];
  });
}
