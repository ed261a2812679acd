import type { ConfiguredHook } from "./hookConfig.js";
import { type HookEvent, type HookEventInput, matchTarget, toWireFields } from "./hookEvents.js";
import { type HookPermissionDecision, type HookVerdict, interpretHookResult } from "./hookOutput.js";
import { runHookProcess } from "./hookProcess.js";

/** Used when a hook sets no `timeout`, as in Claude Code. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;
/** Per stream and hook: a hook's output goes into the model's context, so it must stay small. */
export const DEFAULT_HOOK_OUTPUT_CAP_BYTES = 64 * 1024;

export interface RunHooksOptions {
  hooks: readonly ConfiguredHook[];
  /** Hooks run here, and it is `cwd`, `LATHE_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` for them. */
  projectRoot: string;
  sessionId: string;
  /** Cancelling kills every running hook's process group. */
  signal?: AbortSignal;
  /** Added to the engine's environment for the hooks. */
  env?: Record<string, string>;
  transcriptPath?: string;
  /** The approval mode, sent as `permission_mode`. */
  permissionMode?: string;
  defaultTimeoutSeconds?: number;
  outputCapBytes?: number;
}

/**
 * What the hooks of one event decided together. `blocked` means, by event: PreToolUse — the call
 * must not run and the reason goes to the model; PostToolUse / PostToolUseFailure — the reason is
 * fed back to the model; UserPromptSubmit — the prompt is dropped and the reason shown to the user;
 * Stop / SubagentStop — the agent must keep going with the reason as its instruction; PreCompact —
 * the compaction is skipped. `stop` (a hook's `continue: false`) ends the run whatever the event.
 */
export interface HookOutcome {
  blocked?: { reason: string };
  /** PreToolUse only; deny beats ask beats allow across hooks. */
  permissionDecision?: HookPermissionDecision;
  permissionReason?: string;
  additionalContext: string[];
  stop?: { reason: string };
  /** A hook asked that its output stay out of the transcript shown to the user. */
  suppressOutput?: boolean;
  /** Messages a hook wants shown to the user (`systemMessage`). */
  systemMessages: string[];
  /** Hooks that failed without blocking (other exit codes, timeouts, unusable output). */
  errors: string[];
}

/**
 * Runs every hook configured for `event` whose matcher accepts the input, in parallel, each with
 * the event's JSON on stdin, and combines what they said. Never throws: a broken hook is an entry
 * in `errors`, so the session goes on.
 */
export async function runHooks<E extends HookEvent>(
  event: E,
  input: HookEventInput<E>,
  options: RunHooksOptions,
): Promise<HookOutcome> {
  const selected = selectHooks(event, input, options.hooks);
  const outcome: HookOutcome = { additionalContext: [], systemMessages: [], errors: [] };
  if (selected.length === 0) return outcome;

  const stdin = JSON.stringify({
    session_id: options.sessionId,
    transcript_path: options.transcriptPath,
    cwd: options.projectRoot,
    permission_mode: options.permissionMode,
    hook_event_name: event,
    ...toWireFields(input),
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    LATHE: "1",
    LATHE_PROJECT_DIR: options.projectRoot,
    // Scripts written for Claude Code find the project through this name.
    CLAUDE_PROJECT_DIR: options.projectRoot,
  };
  const verdicts = await Promise.all(
    selected.map(async (hook) => {
      const timeoutMs =
        (hook.timeoutSeconds ?? options.defaultTimeoutSeconds ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000;
      const result = await runHookProcess({
        command: hook.command,
        cwd: options.projectRoot,
        stdin,
        env,
        timeoutMs,
        outputCapBytes: options.outputCapBytes ?? DEFAULT_HOOK_OUTPUT_CAP_BYTES,
        signal: options.signal,
      });
      return interpretHookResult(event, `"${hook.command}" (${hook.source})`, result, timeoutMs);
    }),
  );
  return combineVerdicts(verdicts, outcome);
}

/** The same command configured twice (say, in the user's and the project's file) runs once, as in Claude Code. */
function selectHooks<E extends HookEvent>(
  event: E,
  input: HookEventInput<E>,
  hooks: readonly ConfiguredHook[],
): ConfiguredHook[] {
  const target = matchTarget(event, input);
  const seen = new Set<string>();
  return hooks.filter((hook) => {
    if (hook.event !== event || !hook.matches(target) || seen.has(hook.command)) return false;
    seen.add(hook.command);
    return true;
  });
}

const permissionRank: Record<HookPermissionDecision, number> = { allow: 0, ask: 1, deny: 2 };

function combineVerdicts(verdicts: HookVerdict[], outcome: HookOutcome): HookOutcome {
  const blockReasons: string[] = [];
  const stopReasons: string[] = [];
  const permissionReasons: string[] = [];
  for (const verdict of verdicts) {
    if (verdict.block !== undefined) blockReasons.push(verdict.block);
    if (verdict.stop !== undefined) stopReasons.push(verdict.stop);
    if (verdict.additionalContext !== undefined) outcome.additionalContext.push(verdict.additionalContext);
    if (verdict.systemMessage !== undefined) outcome.systemMessages.push(verdict.systemMessage);
    if (verdict.suppressOutput) outcome.suppressOutput = true;
    if (verdict.error !== undefined) outcome.errors.push(verdict.error);
    const permission = verdict.permission;
    if (permission === undefined) continue;
    const current = outcome.permissionDecision;
    if (current === undefined || permissionRank[permission.decision] > permissionRank[current]) {
      outcome.permissionDecision = permission.decision;
      permissionReasons.length = 0;
    }
    // Reasons of the winning decision only: an allow's reason would mislead beside a deny.
    if (permission.decision === outcome.permissionDecision && permission.reason) {
      permissionReasons.push(permission.reason);
    }
  }
  if (blockReasons.length > 0) outcome.blocked = { reason: blockReasons.join("\n") };
  if (stopReasons.length > 0) outcome.stop = { reason: stopReasons.join("\n") };
  if (permissionReasons.length > 0) outcome.permissionReason = permissionReasons.join("\n");
  return outcome;
}
