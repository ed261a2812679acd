import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { SandboxContext, SandboxDetection, SandboxLaunch, SandboxSettings } from "./sandboxTypes.js";

export type SandboxPlan =
  | { kind: "sandboxed"; network: boolean }
  /** `notice`: tell the user (once per session) that commands run without a sandbox, and why. */
  | { kind: "unsandboxed"; notice?: string }
  | { kind: "refused"; error: LatheErrorInfo };

/** What the engine knows about one call, beyond the settings. */
export interface SandboxCallFacts {
  /** The policy judged the call needs the network (`Assessment.needsNetwork`). */
  needsNetwork: boolean;
  /** The user approved running it with the network. */
  userAllowedNetwork: boolean;
  /** The user approved running it outside the sandbox (a retry after a denial). */
  userAllowedOutside?: boolean;
}

/**
 * How one command runs. An approval to run outside the sandbox holds even in `required` mode:
 * that mode forbids running unsandboxed silently, not on the user's own word for one call. The
 * network approval only counts for a call that needs the network, so a grant cannot open the
 * network to anything else.
 */
export function sandboxPlan(
  settings: SandboxSettings,
  detection: SandboxDetection,
  call: SandboxCallFacts,
): SandboxPlan {
  if (settings.mode === "off" || call.userAllowedOutside === true) return { kind: "unsandboxed" };
  if (!detection.available || detection.bwrapPath === undefined) {
    const reason = detection.reason ?? "bubblewrap (bwrap) cannot run here";
    if (settings.mode === "required") {
      const message =
        `The sandbox is required but unavailable: ${reason}. Install bubblewrap (bwrap) with user ` +
        "namespaces enabled, or change the sandbox mode to auto or off.";
      return { kind: "refused", error: errorInfo("E_SANDBOX_DENIED", message) };
    }
    return { kind: "unsandboxed", notice: `Commands run without a sandbox: ${reason}.` };
  }
  return { kind: "sandboxed", network: settings.network || (call.needsNetwork && call.userAllowedNetwork) };
}

/** A plan ready to start: with everything bwrap needs when sandboxed. */
export type CallSandbox =
  | { kind: "sandboxed"; launch: SandboxLaunch }
  | { kind: "unsandboxed"; notice?: string }
  | { kind: "refused"; error: LatheErrorInfo };

/**
 * The plan for one tool call from what the engine put in its context. No context: no sandbox,
 * as before sandboxing existed.
 */
export function sandboxForCall(
  sandbox: SandboxContext | undefined,
  call: { callId: string; projectRoot: string },
): CallSandbox {
  if (sandbox === undefined) return { kind: "unsandboxed" };
  // The engine adds a call id only after the policy judged it needs the network and the user agreed.
  const networkGranted = sandbox.networkCallIds?.has(call.callId) === true;
  const plan = sandboxPlan(sandbox.settings, sandbox.detection, {
    needsNetwork: networkGranted,
    userAllowedNetwork: networkGranted,
    userAllowedOutside: sandbox.unsandboxedCallIds?.has(call.callId) === true,
  });
  if (plan.kind !== "sandboxed") return plan;
  const bwrapPath = sandbox.detection.bwrapPath;
  // sandboxPlan never sandboxes without a path; should that change, refusing is the safe side.
  if (bwrapPath === undefined) {
    return { kind: "refused", error: errorInfo("E_SANDBOX_DENIED", "The sandbox has no bwrap to run.") };
  }
  const launch: SandboxLaunch = {
    bwrapPath,
    projectRoot: call.projectRoot,
    tempDir: sandbox.tempDir,
    writableRoots: sandbox.writableRoots,
    network: plan.network,
  };
  return { kind: "sandboxed", launch };
}
