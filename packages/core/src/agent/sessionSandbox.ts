import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../policy/sandbox/detectSandbox.js";
import type { SandboxContext, SandboxSettings } from "../policy/sandbox/sandboxTypes.js";
import type { SchedulerServices } from "../tools/toolScheduler.js";
import type { ApprovalGrants } from "./approvalGrants.js";

/** The session's sandbox: detected once, with a private /tmp that lives as long as the session. */
export class SessionSandbox {
  private context?: Promise<SandboxContext>;

  constructor(
    private readonly sessionId: string,
    private readonly settings: SandboxSettings | undefined,
    private readonly grants: ApprovalGrants,
  ) {}

  /** Undefined when commands run unsandboxed. */
  detect(): Promise<SandboxContext> | undefined {
    const settings = this.settings;
    if (!settings || settings.mode === "off") return undefined;
    this.context ??= detectSandbox().then((detection) => ({
      settings,
      detection,
      tempDir: join(tmpdir(), `lathe-sandbox-${this.sessionId}`),
      networkCallIds: this.grants.networkCallIds,
      unsandboxedCallIds: this.grants.unsandboxedCallIds,
    }));
    return this.context;
  }

  /** How the scheduler grants a call the network or a run outside; absent when no sandbox runs. */
  grantsFor(context: SandboxContext | undefined): SchedulerServices["sandbox"] {
    if (!context?.detection.available) return undefined;
    return {
      networkAlwaysOn: context.settings.network,
      grantNetwork: (callId) => this.grants.networkCallIds.add(callId),
      grantUnsandboxed: (callId) => this.grants.unsandboxedCallIds.add(callId),
    };
  }

  async dispose(): Promise<void> {
    const context = await this.context;
    if (context) await rm(context.tempDir, { recursive: true, force: true });
  }
}
