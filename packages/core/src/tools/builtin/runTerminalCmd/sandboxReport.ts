import { sandboxDenial, sandboxDenialNote } from "../../../policy/sandbox/sandboxDenial.js";
import type { CallSandbox } from "../../../policy/sandbox/sandboxPlan.js";

/**
 * The note for the model when a finished sandboxed command looks stopped by the sandbox;
 * undefined otherwise. The engine offers the user a retry outside the sandbox on seeing
 * `metadata.sandboxDenied`.
 */
export function sandboxDenialOf(
  sandbox: CallSandbox,
  exitCode: number | null,
  streams: { stdout: string; stderr: string },
): string | undefined {
  if (sandbox.kind !== "sandboxed") return undefined;
  const { launch } = sandbox;
  const denied = sandboxDenial(exitCode, streams.stderr, {
    stdout: streams.stdout,
    writableRoots: [launch.projectRoot, ...(launch.writableRoots ?? [])],
    networkCut: !launch.network,
  });
  return denied ? sandboxDenialNote(launch.network) : undefined;
}

/** How the call ran, for the engine and the UI; nothing at all when no sandbox was in play. */
export function sandboxMetadata(sandbox: CallSandbox, denied: boolean): Record<string, unknown> {
  if (sandbox.kind === "sandboxed") {
    return {
      sandboxed: true,
      sandboxNetwork: sandbox.launch.network,
      sandboxDenied: denied || undefined,
    };
  }
  if (sandbox.kind === "unsandboxed" && sandbox.notice !== undefined)
    return { sandboxNotice: sandbox.notice };
  return {};
}
