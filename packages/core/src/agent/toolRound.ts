import type { ToolCallPart, ToolResultPart } from "@lathe/protocol";
import { readOnlyKinds } from "../tools/tool.js";
import type { ToolRegistry } from "../tools/toolRegistry.js";
import {
  type BatchRun,
  type PendingCall,
  runToolBatch,
  type SchedulerServices,
} from "../tools/toolScheduler.js";
import type { ApprovalGrants } from "./approvalGrants.js";
import type { LoopWarning } from "./modelTurn.js";
import type { SessionContext } from "./sessionContext.js";
import type { SessionHooks } from "./sessionHooks.js";
import type { SessionSandbox } from "./sessionSandbox.js";
import type { Transcript } from "./transcript.js";

/** The session's parts a tool round uses; the scheduler's services are made from them once. */
export interface ToolRoundParts {
  registry: ToolRegistry;
  context: SessionContext;
  transcript: Transcript;
  grants: ApprovalGrants;
  sandbox: SessionSandbox;
  hooks: SessionHooks;
  secrets: readonly string[] | undefined;
  approvalTimeoutMs: number;
  requestApproval: SchedulerServices["requestApproval"];
  /** The tool context that is the same for every call of the session (the sandbox and rules aside). */
  toolContext: Omit<SchedulerServices["context"], "sandbox" | "rules">;
}

export interface RoundOutcome {
  /** The loop detector's verdict that ends the run. */
  stop?: LoopWarning;
}

/**
 * The calls of one model turn: run as a batch by the scheduler, their results written to the
 * transcript with what the loop detector says about them.
 */
export class ToolRound {
  /** Invalid calls in a row per tool, across the rounds of the session. */
  private readonly invalidStreaks = new Map<string, number>();
  private services?: Promise<SchedulerServices>;

  constructor(private readonly parts: ToolRoundParts) {}

  /** Runs the calls; `stop` is set when the loop detector ends the run. */
  async run(calls: readonly ToolCallPart[], run: BatchRun): Promise<RoundOutcome> {
    run.setState("tool_pending");
    this.services ??= this.makeServices();
    const results = await runToolBatch(calls.map(pendingCall), await this.services, run);
    const verdict = await this.judge(calls, results);
    const reminders = verdict.warnings.map((warning) => ({
      type: "system_reminder" as const,
      text: warning.message,
    }));
    this.parts.transcript.push("tool", [...results, ...reminders]);
    for (const warning of verdict.warnings) run.emit({ type: "loop_warning", ...warning });
    return verdict.stop ? { stop: verdict.stop } : {};
  }

  /** Made at the first round, once the sandbox is detected and the project's rules are loaded. */
  private async makeServices(): Promise<SchedulerServices> {
    const { parts } = this;
    const sandbox = await parts.sandbox.detect();
    return {
      registry: parts.registry,
      secrets: parts.secrets,
      rules: () => parts.grants.rules(),
      alwaysRules: (tool, args) => parts.grants.alwaysRules(tool, args),
      grantAlways: (granted, scope, behavior) => parts.grants.grantAlways(granted, scope, behavior),
      approvalTimeoutMs: parts.approvalTimeoutMs,
      requestApproval: parts.requestApproval,
      context: { ...parts.toolContext, sandbox, rules: parts.context.ruleCatalog },
      invalidStreaks: this.invalidStreaks,
      sandbox: parts.sandbox.grantsFor(sandbox),
      runHook: parts.hooks.configured ? parts.hooks.run.bind(parts.hooks) : undefined,
    };
  }

  /** Loop detection and context bookkeeping over one batch's calls, in call order. */
  private async judge(
    calls: readonly ToolCallPart[],
    results: readonly ToolResultPart[],
  ): Promise<{ warnings: LoopWarning[]; stop?: LoopWarning }> {
    const { registry, context } = this.parts;
    const warnings: LoopWarning[] = [];
    for (const [index, call] of calls.entries()) {
      const tool = registry.get(call.name);
      const readOnly = tool !== undefined && readOnlyKinds.has(tool.kind);
      const result = results[index];
      if (result) await context.noteCall(call, result, tool !== undefined && !readOnly);
      const verdict = context.judgeCall({ name: call.name, arguments: call.arguments, readOnly });
      if (verdict.action === "stop") {
        return { warnings, stop: { kind: verdict.kind, count: verdict.count, message: verdict.message } };
      }
      if (verdict.action === "warn")
        warnings.push({ kind: verdict.kind, count: verdict.count, message: verdict.message });
    }
    return { warnings };
  }
}

function pendingCall(part: ToolCallPart): PendingCall {
  return {
    callId: part.callId,
    providerCallId: part.providerCallId,
    name: part.name,
    rawArguments: part.rawArguments,
  };
}
