import { errorInfo, LatheError, type LatheErrorInfo } from "@lathe/protocol";
import { boundErrorMessage } from "./errorMessageCap.js";
import { capOutput } from "./outputCap.js";
import type { AnyTool, ToolContext, ToolResult } from "./tool.js";
import { redactorOf } from "./toolRedaction.js";

export interface RunToolOptions {
  /** Overrides the tool's own timeout (settings, tests). */
  timeoutMs?: number;
  /** How long a tool may take to return once its signal is aborted, before its result is abandoned. */
  abortGraceMs?: number;
}

/** Above a command's SIGTERM → SIGKILL grace, so a killed command still delivers its output. */
const defaultAbortGraceMs = 5000;

/**
 * Runs one call whose arguments are already validated: enforces the timeout through the signal,
 * turns anything thrown into an error result, scrubs secrets from it, and caps the text that goes
 * to the model, spilling the full (scrubbed) text to a file when it is over the limits.
 */
export async function runTool(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
  options: RunToolOptions = {},
): Promise<ToolResult> {
  if (ctx.signal.aborted) {
    return { ok: false, error: errorInfo("E_CANCELLED", `${tool.name} was cancelled before it started.`) };
  }
  const timeoutMs = options.timeoutMs ?? tool.timeoutMs;
  const abortGraceMs = options.abortGraceMs ?? defaultAbortGraceMs;
  const controller = new AbortController();
  let timedOut = false;
  let abandonTimer: NodeJS.Timeout | undefined;

  const forwardCancel = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", forwardCancel, { once: true });
  const timeoutTimer = setTimeout(() => {
    timedOut = true;
    controller.abort(new LatheError("E_TOOL_TIMEOUT", `${tool.name} timed out after ${timeoutMs} ms.`));
  }, timeoutMs);
  const abandoned = new Promise<undefined>((resolve) => {
    controller.signal.addEventListener(
      "abort",
      () => {
        abandonTimer = setTimeout(() => resolve(undefined), abortGraceMs);
      },
      { once: true },
    );
  });

  let result: ToolResult | undefined;
  try {
    result = await Promise.race([executeCatching(tool, args, withSignal(ctx, controller.signal)), abandoned]);
  } finally {
    clearTimeout(timeoutTimer);
    clearTimeout(abandonTimer);
    ctx.signal.removeEventListener("abort", forwardCancel);
  }

  const timeoutError = errorInfo("E_TOOL_TIMEOUT", `${tool.name} did not finish within ${timeoutMs} ms.`);
  if (result === undefined) {
    const error = timedOut
      ? timeoutError
      : errorInfo("E_CANCELLED", `${tool.name} was cancelled and did not stop in time.`);
    return { ok: false, error };
  }
  // A tool that stopped because of our timeout reports a cancel; the model should hear "timeout".
  if (timedOut && !result.ok && result.error.code === "E_CANCELLED") {
    result = withError(result, timeoutError);
  }
  return capResult(result, tool, ctx);
}

async function executeCatching(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  try {
    return await tool.execute(args, ctx);
  } catch (error) {
    if (error instanceof LatheError) return { ok: false, error: error.toInfo() };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `${tool.name} failed: ${message}`) };
  }
}

/** A copy of the context with another signal; built field by field so methods of a class instance survive. */
function withSignal(ctx: ToolContext, signal: AbortSignal): ToolContext {
  return { ...ctx, signal };
}

function withError(result: ToolResult & { ok: false }, error: LatheErrorInfo): ToolResult {
  return result.output === undefined ? { ok: false, error } : { ok: false, error, output: result.output };
}

async function capResult(result: ToolResult, tool: AnyTool, ctx: ToolContext): Promise<ToolResult> {
  result = redacted(result, redactorOf(ctx));
  if (!result.ok) result = { ...result, error: boundErrorMessage(result.error) };
  if (result.output === undefined) return result;
  const capped = await capOutput(result.output, {
    limits: ctx.outputLimits,
    truncation: tool.truncation,
    spill: { latheHome: ctx.latheHome, sessionId: ctx.sessionId, callId: ctx.callId },
  });
  if (!capped.truncated) return result;
  if (!result.ok) return { ...result, output: capped.text };
  const metadata: Record<string, unknown> = { ...result.metadata, outputTruncated: true };
  if (capped.spillPath !== undefined) metadata.spillPath = capped.spillPath;
  return { ok: true, output: capped.text, metadata };
}

/** Before the cap: a key cut in two by it would no longer be recognised. */
function redacted(result: ToolResult, redact: (text: string) => string): ToolResult {
  if (result.ok) return { ...result, output: redact(result.output) };
  const error = { ...result.error, message: redact(result.error.message) };
  return result.output === undefined
    ? { ok: false, error }
    : { ok: false, error, output: redact(result.output) };
}
