import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentSession, type ApprovalMode, builtinTools, createModelClient, ToolRegistry } from "@lathe/core";
import { errorInfo, type LatheEvent } from "@lathe/protocol";
import type { SessionFactory, SessionRequest } from "@lathe/server";
import { type FakeLlm, type FakeTurn, startFakeLlm } from "@lathe/testkit";

export interface ScriptPlan {
  turns: FakeTurn[];
  approvalMode?: ApprovalMode;
}

export interface MadeSession {
  session: AgentSession;
  llm: FakeLlm;
  request: SessionRequest;
  /** Every event the session emitted, straight from the engine. */
  events: LatheEvent[];
  closed: boolean;
}

/**
 * Makes real agent sessions, each talking over HTTP to its own scripted model server, the way
 * `startScriptedSession` does, but with the server's approval and question handlers. Each
 * `create` takes the next queued plan, or the default one.
 */
export class ScriptedFactory implements SessionFactory {
  readonly made: MadeSession[] = [];
  private readonly plans: ScriptPlan[] = [];

  constructor(private readonly fallback: ScriptPlan = { turns: [{ text: "Hello from the script." }] }) {}

  queue(plan: ScriptPlan): void {
    this.plans.push(plan);
  }

  async create(request: SessionRequest) {
    // A session made here before is "stored": it opens again under its id, with its messages.
    const stored = this.made.find((made) => made.session.id === request.resume);
    if (request.resume !== undefined && stored === undefined) {
      return {
        ok: false as const,
        error: errorInfo("E_INVALID_ARGS", `No stored session ${request.resume}.`),
      };
    }
    const plan = this.plans.shift() ?? this.fallback;
    const llm = await startFakeLlm({ script: { turns: plan.turns } });
    const latheHome = mkdtempSync(join(tmpdir(), "lathe-server-home-"));
    const client = createModelClient({
      modelId: request.model ?? "openai:gpt-4.1",
      baseUrl: `${llm.url}/v1`,
      apiKey: "scripted-test-key",
      env: {},
      latheHome,
    });
    if (!client.ok) {
      await llm.close();
      return { ok: false as const, error: client.error };
    }
    const session = new AgentSession({
      projectRoot: request.projectRoot,
      latheHome,
      model: client.client,
      tools: new ToolRegistry(builtinTools()),
      approvalMode: plan.approvalMode ?? "yolo",
      requestApproval: request.requestApproval,
      askUser: request.askUser,
      ...(request.mode ? { mode: request.mode } : {}),
      ...(stored ? { sessionId: stored.session.id, history: stored.session.messages } : {}),
    });
    const made: MadeSession = { session, llm, request, events: [], closed: false };
    session.subscribe((event) => made.events.push(event));
    this.made.push(made);
    return {
      ok: true as const,
      session,
      close: async () => {
        made.closed = true;
        await session.dispose();
        await llm.close();
      },
    };
  }

  /** Closes the model servers of sessions the server never closed (a failed test). */
  async dispose(): Promise<void> {
    await Promise.all(this.made.filter((made) => !made.closed).map((made) => made.llm.close()));
  }
}
