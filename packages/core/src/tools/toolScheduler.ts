import {
  type EventDraft,
  errorInfo,
  type LatheErrorInfo,
  type RunState,
  type ToolCallState,
  type ToolResultPart,
  type ToolResultStatus,
} from "@lathe/protocol";
import type { HookEvent, HookEventInput } from "../hooks/hookEvents.js";
import type { HookOutcome } from "../hooks/runHooks.js";
import type { ApprovalMode } from "../policy/approvalMode.js";
import { decidePolicy } from "../policy/policyEngine.js";
import type { PermissionRule, PolicyDecision } from "../policy/policyTypes.js";
import { liveOutputRedactor } from "./liveOutputRedaction.js";
import { type AnyTool, readOnlyKinds, type ToolContext, type ToolResult } from "./tool.js";
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  type ApprovalScope,
  askApproval,
} from "./toolApproval.js";
import { runTool } from "./toolInvocation.js";
import { redactorOf } from "./toolRedaction.js";
import type { ToolRegistry } from "./toolRegistry.js";

/** A tool call as it arrives from the model, before validation. */
export interface PendingCall {
  callId: string;
  providerCallId: string;
  name: string;
  rawArguments: string;
}

/** What the scheduler needs of the session: built once, the same for every batch. */
export interface SchedulerServices {
  registry: ToolRegistry;
  /** Every key the process knows (`knownSecrets`): the policy refuses calls that would send one away. */
  secrets?: readonly string[];
  /** The permission rules in force now; read again before each approval, since "always" adds rules. */
  rules(): readonly PermissionRule[];
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** The rules an "always" answer to this call would save; undefined when none can be. */
  alwaysRules(tool: AnyTool, args: unknown): string[] | undefined;
  /** Remembers an "always" answer: the rules its request showed, at the chosen scope, allowed or denied. */
  grantAlways(rules: readonly string[], scope: ApprovalScope, behavior: "allow" | "deny"): Promise<void>;
  /** An unanswered approval counts as rejected after this long (SPEC §5: 5 minutes). */
  approvalTimeoutMs: number;
  /** Everything of the tool context that depends neither on the call nor on the run. */
  context: Omit<ToolContext, "callId" | "signal" | "emitOutput" | "emitEvent">;
  /**
   * Invalid calls in a row per tool name, kept by the session across batches: after
   * `maxInvalidInARow` the model is told to stop using that tool.
   */
  invalidStreaks: Map<string, number>;
  /**
   * The session's sandbox grants, present when commands are sandboxed: a call that needs the
   * network asks first and, once approved, runs with it; a call the sandbox blocked can be run
   * again outside it when the user approves (SPEC §5).
   */
  sandbox?: {
    networkAlwaysOn: boolean;
    grantNetwork(callId: string): void;
    grantUnsandboxed(callId: string): void;
  };
  /** Runs the user's hooks for an event (SPEC §3); absent when none are configured. */
  runHook?<E extends HookEvent>(
    event: E,
    input: HookEventInput<E>,
    signal: AbortSignal,
  ): Promise<HookOutcome>;
}

/** What a batch takes from the run it belongs to. */
export interface BatchRun {
  /** Names the current mode offers; a call to anything else is treated as unknown. */
  offered: ReadonlySet<string>;
  approvalMode: ApprovalMode;
  emit(draft: EventDraft): void;
  setState(state: RunState): void;
  signal: AbortSignal;
  /**
   * Snapshots the project before a call that may change it (SPEC §7: shell commands included),
   * so the change can be undone; absent when checkpoints are off.
   */
  checkpoint?(call: PendingCall): Promise<void>;
}

type SchedulerDeps = SchedulerServices & BatchRun;

/** Bad calls of one tool in a row before the model is told to stop using it (SPEC §4). */
export const maxInvalidInARow = 3;

/** How many read-only calls of one batch may run at once. */
const maxConcurrentReads = 4;

type Prepared =
  | { call: PendingCall; kind: "invalid"; error: LatheErrorInfo }
  | { call: PendingCall; kind: "denied"; error: LatheErrorInfo }
  | { call: PendingCall; kind: "ready"; tool: AnyTool; args: unknown; policy: PolicyDecision };

/**
 * Runs one batch of tool calls: validate → policy → (approval) → execute, each step an event.
 * Read-only calls that need no approval run together (at most four); everything else runs one at
 * a time in call order. Results come back in call order whatever finished first.
 */
export async function runToolBatch(
  calls: readonly PendingCall[],
  services: SchedulerServices,
  run: BatchRun,
): Promise<ToolResultPart[]> {
  const deps: SchedulerDeps = { ...services, ...run };
  const prepared: Prepared[] = [];
  for (const call of calls) prepared.push(await prepare(call, deps));
  for (const item of prepared) {
    if (item.kind === "ready" && item.policy.decision === "allow") setCallState(item.call, "scheduled", deps);
  }
  const results: ToolResultPart[] = new Array(calls.length);
  let index = 0;
  while (index < prepared.length) {
    const group = nextGroup(prepared, index);
    if (deps.signal.aborted) {
      for (let i = index; i < prepared.length; i++) results[i] = cancelledResult(prepared[i]!.call, deps);
      break;
    }
    const groupResults = await Promise.all(group.map((item) => settle(item, deps)));
    groupResults.forEach((result, offset) => {
      results[index + offset] = result;
    });
    index += group.length;
  }
  return results;
}

function setCallState(call: PendingCall, state: ToolCallState, deps: SchedulerDeps): void {
  deps.emit({ type: "tool_call_state", callId: call.callId, name: call.name, state });
}

async function prepare(call: PendingCall, deps: SchedulerDeps): Promise<Prepared> {
  setCallState(call, "validating", deps);
  if (!deps.offered.has(call.name)) {
    const offeredSuggestions = deps.registry.suggest(call.name).filter((name) => deps.offered.has(name));
    const hint = offeredSuggestions.length > 0 ? ` Did you mean: ${offeredSuggestions.join(", ")}?` : "";
    return {
      call,
      kind: "invalid",
      error: errorInfo("E_TOOL_NOT_FOUND", `Unknown tool "${call.name}".${hint}`),
    };
  }
  const validated = deps.registry.validate(call.name, call.rawArguments);
  if (!validated.ok)
    return { call, kind: "invalid", error: withStreakWarning(call.name, validated.error, deps) };
  deps.invalidStreaks.delete(call.name);
  const { tool, args } = validated;
  const hook = await deps.runHook?.(
    "PreToolUse",
    { toolName: call.name, toolInput: args, toolUseId: call.callId },
    deps.signal,
  );
  const hookDenial =
    hook?.blocked?.reason ?? (hook?.permissionDecision === "deny" ? hook.permissionReason : undefined);
  if (hook?.blocked || hook?.permissionDecision === "deny") {
    const reason = `A PreToolUse hook blocked this call: ${hookDenial ?? "no reason given"}`;
    return { call, kind: "denied", error: errorInfo("E_SECURITY_BLOCKED", reason) };
  }
  const policy = await decideFor(tool, args, deps);
  if (policy.decision === "deny") {
    return { call, kind: "denied", error: errorInfo(policy.code ?? "E_SECURITY_BLOCKED", policy.reason) };
  }
  // A hook may settle the question the policy would ask, but never lift a hard block or a deny.
  const hooked = hook?.permissionDecision;
  if (hooked === "allow" || hooked === "ask") {
    const reason = `a PreToolUse hook said ${hooked}${hook?.permissionReason ? `: ${hook.permissionReason}` : ""}`;
    return { call, kind: "ready", tool, args, policy: { ...policy, decision: hooked, reason } };
  }
  return { call, kind: "ready", tool, args, policy };
}

function decideFor(tool: AnyTool, args: unknown, deps: SchedulerDeps): Promise<PolicyDecision> {
  return decidePolicy({
    tool,
    args,
    projectRoot: deps.context.projectRoot,
    approvalMode: deps.approvalMode,
    rules: deps.rules(),
    latheHome: deps.context.latheHome,
    secrets: deps.secrets,
    sandbox: deps.sandbox ? { networkAlwaysOn: deps.sandbox.networkAlwaysOn } : undefined,
  });
}

function withStreakWarning(name: string, error: LatheErrorInfo, deps: SchedulerDeps): LatheErrorInfo {
  const streak = (deps.invalidStreaks.get(name) ?? 0) + 1;
  deps.invalidStreaks.set(name, streak);
  if (streak < maxInvalidInARow) return error;
  return {
    ...error,
    message: `${error.message}\n${name} has now been called with invalid arguments ${streak} times in a row. Stop using ${name}; take another approach or ask the user.`,
  };
}

function isConcurrent(item: Prepared): boolean {
  return item.kind === "ready" && item.policy.decision === "allow" && readOnlyKinds.has(item.tool.kind);
}

function nextGroup(prepared: readonly Prepared[], start: number): Prepared[] {
  const first = prepared[start]!;
  if (!isConcurrent(first)) return [first];
  const group = [first];
  for (let i = start + 1; i < prepared.length && group.length < maxConcurrentReads; i++) {
    const item = prepared[i]!;
    if (!isConcurrent(item)) break;
    group.push(item);
  }
  return group;
}

async function settle(item: Prepared, deps: SchedulerDeps): Promise<ToolResultPart> {
  const { call } = item;
  if (item.kind === "invalid") {
    setCallState(call, "error", deps);
    deps.emit({
      type: "tool_failed",
      callId: call.callId,
      name: call.name,
      error: item.error,
      durationMs: 0,
    });
    return resultPart(call, "error", formatError(item.error), item.error);
  }
  if (item.kind === "denied") {
    setCallState(call, "error", deps);
    deps.emit({ type: "tool_blocked", callId: call.callId, name: call.name, error: item.error });
    return resultPart(call, "blocked", formatError(item.error), item.error);
  }
  if (item.policy.decision === "ask") {
    const approved = await approve(item, deps);
    if (approved !== undefined) return approved;
  }
  return execute(item.tool, item.args, call, deps);
}

/** Asks the user unless a rule granted since the batch began already allows it; a result means "do not run". */
async function approve(
  item: Extract<Prepared, { kind: "ready" }>,
  deps: SchedulerDeps,
): Promise<ToolResultPart | undefined> {
  const { call } = item;
  const current = await decideFor(item.tool, item.args, deps);
  if (current.decision === "allow") {
    setCallState(call, "scheduled", deps);
    return undefined;
  }
  const alwaysRules = deps.alwaysRules(item.tool, item.args);
  const { request, answer } = await askApproval(
    {
      callId: call.callId,
      name: call.name,
      arguments: item.args,
      risk: current.risk,
      reason: current.reason,
      alwaysRules,
    },
    deps,
  );
  if (answer === "cancelled") return cancelledResult(call, deps);
  if (answer.decision === "reject") {
    if (answer.always && request.alwaysRules)
      await deps.grantAlways(request.alwaysRules, answer.always, "deny");
    const message = answer.message ?? "The user rejected this call.";
    setCallState(call, "rejected", deps);
    deps.emit({ type: "tool_rejected", callId: call.callId, name: call.name, message });
    const error = errorInfo("E_USER_REJECTED", message);
    return resultPart(call, "rejected", formatError(error), error);
  }
  if (answer.always && request.alwaysRules)
    await deps.grantAlways(request.alwaysRules, answer.always, "allow");
  if (current.needsNetwork) deps.sandbox?.grantNetwork(call.callId);
  setCallState(call, "scheduled", deps);
  return undefined;
}

async function execute(
  tool: AnyTool,
  args: unknown,
  call: PendingCall,
  deps: SchedulerDeps,
): Promise<ToolResultPart> {
  await enterExecution(tool, call, deps);
  deps.emit({ type: "tool_executing", callId: call.callId, name: call.name });
  const started = performance.now();
  const redact = redactorOf(deps.context);
  const live = liveOutputRedactor(redact, (stream, chunk) =>
    deps.emit({ type: "tool_output", callId: call.callId, name: call.name, stream, chunk }),
  );
  // runTool follows the run's signal itself: cancel reaches the call and its process group.
  const invoke = async () => {
    const outcome = await runTool(tool, args, {
      ...deps.context,
      emitEvent: deps.emit,
      callId: call.callId,
      signal: deps.signal,
      emitOutput: (stream, chunk) => live.push(stream, chunk),
    });
    live.flush();
    return outcome;
  };
  let result = await invoke();
  if (result.ok && result.metadata?.sandboxDenied === true && (await retryOutside(tool, args, call, deps))) {
    result = await invoke();
  }
  const durationMs = Math.round(performance.now() - started);
  result = await withPostHooks(result, tool, args, call, deps, redact);
  if (result.ok) {
    setCallState(call, "success", deps);
    const exitCode = exitCodeOf(result.metadata);
    deps.emit({
      type: "tool_completed",
      callId: call.callId,
      name: call.name,
      output: result.output,
      durationMs,
      ...exitCode,
    });
    return { ...resultPart(call, "success", result.output), ...exitCode, ...imagesOf(result.metadata) };
  }
  const status: ToolResultStatus = result.error.code === "E_CANCELLED" ? "cancelled" : "error";
  setCallState(call, status, deps);
  deps.emit({ type: "tool_failed", callId: call.callId, name: call.name, error: result.error, durationMs });
  const text = result.output ? `${formatError(result.error)}\n\n${result.output}` : formatError(result.error);
  return resultPart(call, status, text, result.error);
}

/** Offers to run a call the sandbox blocked again outside it; true when the user agreed. */
async function retryOutside(
  tool: AnyTool,
  args: unknown,
  call: PendingCall,
  deps: SchedulerDeps,
): Promise<boolean> {
  if (!deps.sandbox || deps.signal.aborted) return false;
  const { answer } = await askApproval(
    {
      callId: call.callId,
      name: tool.name,
      arguments: args,
      risk: "high",
      reason: "the sandbox blocked this command; run it again outside the sandbox?",
    },
    deps,
  );
  const accepted = answer !== "cancelled" && answer.decision === "accept";
  if (accepted) deps.sandbox.grantUnsandboxed(call.callId);
  await enterExecution(tool, call, deps);
  return accepted;
}

/** A call about to run (again): the project is snapshotted first when the call may change it. */
async function enterExecution(tool: AnyTool, call: PendingCall, deps: SchedulerDeps): Promise<void> {
  if (deps.checkpoint && !readOnlyKinds.has(tool.kind)) await deps.checkpoint(call);
  deps.setState("tool_executing");
  setCallState(call, "executing", deps);
}

/** PostToolUse / PostToolUseFailure hooks: what they add reaches the model with the result. */
async function withPostHooks(
  result: ToolResult,
  tool: AnyTool,
  args: unknown,
  call: PendingCall,
  deps: SchedulerDeps,
  redact: (text: string) => string,
): Promise<ToolResult> {
  if (!deps.runHook) return result;
  const outcome = result.ok
    ? await deps.runHook(
        "PostToolUse",
        { toolName: tool.name, toolInput: args, toolResponse: result.output, toolUseId: call.callId },
        deps.signal,
      )
    : await deps.runHook(
        "PostToolUseFailure",
        { toolName: tool.name, toolInput: args, error: result.error.message, toolUseId: call.callId },
        deps.signal,
      );
  const notes = [...outcome.additionalContext, ...(outcome.blocked ? [outcome.blocked.reason] : [])];
  if (notes.length === 0) return result;
  const addition = redact(`<hook-context>\n${notes.join("\n")}\n</hook-context>`);
  return result.ok
    ? { ...result, output: `${result.output}\n\n${addition}` }
    : { ...result, output: result.output ? `${result.output}\n\n${addition}` : addition };
}

function cancelledResult(call: PendingCall, deps: SchedulerDeps): ToolResultPart {
  const error = errorInfo("E_CANCELLED", "The run was cancelled before this call finished.");
  setCallState(call, "cancelled", deps);
  deps.emit({ type: "tool_failed", callId: call.callId, name: call.name, error, durationMs: 0 });
  return resultPart(call, "cancelled", formatError(error), error);
}

/** The exit status a command tool reports, when it reports one. */
function exitCodeOf(metadata: Record<string, unknown> | undefined): { exitCode?: number } {
  const exitCode = metadata?.exitCode;
  return typeof exitCode === "number" && Number.isInteger(exitCode) ? { exitCode } : {};
}

function resultPart(
  call: PendingCall,
  status: ToolResultStatus,
  output: string,
  error?: LatheErrorInfo,
): ToolResultPart {
  return {
    type: "tool_result",
    callId: call.callId,
    providerCallId: call.providerCallId,
    name: call.name,
    status,
    output,
    ...(error ? { error } : {}),
  };
}

/** The text a model reads for a failed call: code, message and what to do about it. */
export function formatError(error: LatheErrorInfo): string {
  return `Error ${error.code}: ${error.message}\nHint: ${error.hint}`;
}

/** A tool's image (browser_use screenshots put one in their metadata), for models that can see it. */
function imagesOf(metadata: Record<string, unknown> | undefined): {
  images?: { mediaType: string; data: string }[];
} {
  const mediaType = metadata?.mediaType;
  const data = metadata?.base64;
  if (typeof mediaType !== "string" || !mediaType.startsWith("image/") || typeof data !== "string") return {};
  return { images: [{ mediaType, data }] };
}
