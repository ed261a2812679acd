import type { LatheErrorInfo } from "@lathe/protocol";
import { sandboxForCall } from "../../policy/sandbox/sandboxPlan.js";
import type { SandboxContext } from "../../policy/sandbox/sandboxTypes.js";
import type { CheckerPlacement } from "./projectLints.js";

/**
 * Where a tool call's checkers run: in the sandbox its commands would get, without network and
 * without the per-call grants (those name commands the user approved, never a checker), with
 * the variables the user lets commands keep. Refused when the sandbox is required but cannot
 * run: the checkers then do not run at all rather than run on the host.
 */
export function checkerPlacement(
  sandbox: SandboxContext | undefined,
  call: { callId: string; projectRoot: string; passEnvironment?: readonly string[] },
): { ok: true; placement: CheckerPlacement } | { ok: false; error: LatheErrorInfo } {
  const withoutGrants: SandboxContext | undefined =
    sandbox === undefined
      ? undefined
      : {
          settings: sandbox.settings,
          detection: sandbox.detection,
          tempDir: sandbox.tempDir,
          writableRoots: sandbox.writableRoots,
        };
  const plan = sandboxForCall(withoutGrants, call);
  if (plan.kind === "refused") return { ok: false, error: plan.error };
  const placement: CheckerPlacement = { passEnvironment: call.passEnvironment };
  if (plan.kind === "sandboxed") placement.sandbox = plan.launch;
  return { ok: true, placement };
}
