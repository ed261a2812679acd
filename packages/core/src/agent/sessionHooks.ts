import type { ConfiguredHook } from "../hooks/hookConfig.js";
import type { HookEvent, HookEventInput } from "../hooks/hookEvents.js";
import { type HookOutcome, runHooks } from "../hooks/runHooks.js";
import type { ApprovalMode } from "../policy/approvalMode.js";

/** Hooks that judge tool calls apply inside sub-agents too. */
const toolHookEvents: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure"]);

/** The user's hooks (SPEC §3) at the points of a session where they run. */
export class SessionHooks {
  /** Whether SessionStart hooks have run. */
  private started = false;

  constructor(
    private readonly options: {
      hooks: readonly ConfiguredHook[] | undefined;
      projectRoot: string;
      sessionId: string;
      modelId: string;
      /** Sent to the hooks as `permission_mode`; the user may change it during the session. */
      approvalMode: () => ApprovalMode;
    },
  ) {}

  /** Whether any hook is configured: without one, no hook point costs anything. */
  get configured(): boolean {
    return (this.options.hooks?.length ?? 0) > 0;
  }

  /** The hooks a sub-agent inherits: the tool-call hooks only, session-level ones stay here. */
  forChildren(): ConfiguredHook[] | undefined {
    return this.options.hooks?.filter((hook) => toolHookEvents.has(hook.event));
  }

  run<E extends HookEvent>(event: E, input: HookEventInput<E>, signal: AbortSignal): Promise<HookOutcome> {
    return runHooks(event, input, {
      hooks: this.options.hooks ?? [],
      projectRoot: this.options.projectRoot,
      sessionId: this.options.sessionId,
      signal,
      permissionMode: this.options.approvalMode(),
    });
  }

  /**
   * SessionStart (before the first message) and UserPromptSubmit hooks: what they add goes to
   * the model beside the message; a block keeps the message from the model.
   */
  async onPrompt(text: string, signal: AbortSignal): Promise<{ blocked?: string; context: string[] }> {
    if (!this.configured) return { context: [] };
    const context: string[] = [];
    if (!this.started) {
      this.started = true;
      const start = await this.run(
        "SessionStart",
        { source: "startup", model: this.options.modelId },
        signal,
      );
      context.push(...start.additionalContext);
    }
    const submitted = await this.run("UserPromptSubmit", { prompt: text }, signal);
    if (submitted.blocked) return { blocked: submitted.blocked.reason, context };
    return { context: [...context, ...submitted.additionalContext] };
  }

  /** Stop hooks, when the model has finished: the reason to go on when one blocks. */
  async onStop(alreadyActive: boolean, signal: AbortSignal): Promise<string | undefined> {
    if (!this.configured || alreadyActive) return undefined;
    const outcome = await this.run("Stop", { stopHookActive: alreadyActive }, signal);
    return outcome.blocked?.reason;
  }

  async onSubagentStop(agentType: string, agentId: string, signal: AbortSignal): Promise<void> {
    if (!this.configured) return;
    await this.run("SubagentStop", { stopHookActive: false, agentId, agentType }, signal);
  }

  async onSessionEnd(): Promise<void> {
    if (!this.configured) return;
    await this.run("SessionEnd", { reason: "exit" }, new AbortController().signal);
  }
}
