import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { signalProcessGroup } from "@lathe/core";
import { errorCodeSchema, errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { Usage } from "../pipelines/pipelineSpec.js";

/** A call the step's policy asks about, as the engine puts it to the driving program. */
export interface ApprovalQuestion {
  requestId: string;
  tool: string;
  input: unknown;
  reason: string;
}

export interface StepProcessRequest {
  /** The `lathe` command: the same engine, policy and sandbox as a local run. */
  command: string;
  cwd: string;
  prompt: string;
  model?: string;
  approvalMode: string;
  /** Further flags, each joined to its value (`--mode=ask`, `--append-system-prompt=…`). */
  extraArgs?: readonly string[];
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Why the step stops when `timeoutMs` runs out, when it is not the step's own timeout (a budget). */
  timeoutError?: LatheErrorInfo;
  signal: AbortSignal;
  /** Every line the engine prints (Claude Code's stream-json messages), in order. */
  onMessage(message: Record<string, unknown>): void;
  /** An approval nobody at the worker can give: the step waits for an answer from any device. */
  onApproval(question: ApprovalQuestion): Promise<{ allow: boolean; message?: string }>;
}

export type StepProcessOutcome =
  | {
      ok: true;
      answer: string;
      isError: boolean;
      subtype: string;
      /** What the engine says went wrong in a failed run (its code and message), when it says. */
      engineError?: LatheErrorInfo;
      usage: Usage;
      exitCode: number | null;
    }
  | { ok: false; error: LatheErrorInfo };

/** How long a stopped step's process group gets between SIGTERM and SIGKILL. */
const killGraceMs = 2_000;

/**
 * The engine's watch on whoever started it (src/launcherWatch.ts in the cli, which bin/lathe.js
 * uses the same way): it stops at once, with everything it started, when this fd's other end
 * closes. The kernel closes the worker's end however the worker dies, SIGKILL included.
 */
const lifelineVariable = "LATHE_PARENT_FD";
const lifelineFd = 3;

/**
 * Runs one step as `lathe` in stream-json mode in the step's checkout, in a process group of its
 * own: a cancel, a timeout or the worker's shutdown stops the whole group (the engine and every
 * command it started). The prompt goes in on stdin, approvals come back as control requests; stdin
 * closes after the result, and so does the engine. If the worker dies, even by SIGKILL, the engine
 * stops too, through its lifeline: a closed stdin alone would let the run in hand go on (the engine
 * finishes it before it exits), editing a checkout the step's next attempt will use.
 */
export function runStepProcess(request: StepProcessRequest): Promise<StepProcessOutcome> {
  return new Promise((resolve) => {
    const args = [
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--permission-prompt-tool",
      "stdio",
      // Values joined to their flags: none can be read as a flag of its own.
      `--approval-mode=${request.approvalMode}`,
      `--cwd=${request.cwd}`,
      ...(request.model === undefined ? [] : [`--model=${request.model}`]),
      ...(request.extraArgs ?? []),
    ];
    const child = spawn(request.command, args, {
      cwd: request.cwd,
      env: { ...request.env, [lifelineVariable]: String(lifelineFd) },
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
    // Nothing comes down the lifeline; read, it ends with the engine and lets "close" fire.
    const lifeline = child.stdio[lifelineFd];
    if (lifeline instanceof Readable) lifeline.on("error", () => undefined).resume();
    let settled = false;
    let result:
      | { answer: string; isError: boolean; subtype: string; engineError?: LatheErrorInfo; usage: Usage }
      | undefined;
    let stopReason: LatheErrorInfo | undefined;
    let stderrTail = "";

    const stop = (reason: LatheErrorInfo) => {
      if (stopReason !== undefined || child.pid === undefined) return;
      stopReason = reason;
      signalProcessGroup(child.pid, "SIGTERM");
      setTimeout(() => {
        if (child.pid !== undefined) signalProcessGroup(child.pid, "SIGKILL");
      }, killGraceMs).unref();
    };
    const onAbort = () => {
      const reason = request.signal.reason;
      stop(
        reason instanceof Object && "code" in reason
          ? (reason as LatheErrorInfo)
          : errorInfo("E_CANCELLED", "The step was cancelled."),
      );
    };
    request.signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(
      () =>
        stop(
          request.timeoutError ??
            errorInfo(
              "E_TOOL_TIMEOUT",
              `The step ran past its timeout of ${Math.round(request.timeoutMs / 1000)} s and was stopped.`,
            ),
        ),
      request.timeoutMs,
    );
    if (request.signal.aborted) onAbort();

    const send = (line: Record<string, unknown>) => {
      if (!child.stdin.writable) return;
      child.stdin.write(`${JSON.stringify(line)}\n`);
    };
    child.stdin.on("error", () => undefined);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-4_000);
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (raw) => {
      const message = parseLine(raw);
      if (message === undefined) return;
      if (message.type === "control_request") {
        void answerControl(message, request, send);
        return;
      }
      request.onMessage(message);
      if (message.type === "result") {
        result = {
          answer: typeof message.result === "string" ? message.result : "",
          isError: message.is_error === true,
          subtype: typeof message.subtype === "string" ? message.subtype : "unknown",
          engineError: engineErrorOf(message),
          usage: usageOf(message),
        };
        child.stdin.end();
      }
    });
    send({ type: "user", message: { role: "user", content: request.prompt }, parent_tool_use_id: null });

    const finish = (outcome: StepProcessOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    child.on("error", (error) =>
      finish({
        ok: false,
        error: errorInfo("E_TOOL_EXECUTION", `lathe could not be started: ${error.message}`),
      }),
    );
    child.on("close", (exitCode) => {
      if (stopReason !== undefined) return finish({ ok: false, error: stopReason });
      if (result === undefined) {
        const detail = stderrTail.trim().split("\n").slice(-3).join(" ");
        return finish({
          ok: false,
          error: errorInfo(
            "E_TOOL_EXECUTION",
            `lathe exited (${exitCode}) without a result${detail ? `: ${detail}` : ""}.`,
          ),
        });
      }
      finish({ ok: true, ...result, exitCode });
    });
  });
}

async function answerControl(
  message: Record<string, unknown>,
  request: StepProcessRequest,
  send: (line: Record<string, unknown>) => void,
): Promise<void> {
  const requestId = typeof message.request_id === "string" ? message.request_id : "";
  const body = (message.request ?? {}) as Record<string, unknown>;
  if (body.subtype !== "can_use_tool") {
    send({
      type: "control_response",
      response: { subtype: "error", request_id: requestId, error: `not supported: ${String(body.subtype)}` },
    });
    return;
  }
  const answer = await request.onApproval({
    requestId,
    tool: String(body.tool_name ?? ""),
    input: body.input ?? {},
    reason: String(body.decision_reason ?? body.description ?? ""),
  });
  send({
    type: "control_response",
    response: {
      subtype: "success",
      request_id: requestId,
      response: answer.allow
        ? { behavior: "allow" }
        : { behavior: "deny", message: answer.message ?? "Refused by the user." },
    },
  });
}

/**
 * The engine's own error on a failed run: a result line's `error` ({code, message}), else its
 * `errors` list. Without it a failed step says only "error_during_execution", never why.
 */
function engineErrorOf(message: Record<string, unknown>): LatheErrorInfo | undefined {
  const error = message.error as { code?: unknown; message?: unknown } | null | undefined;
  const code = errorCodeSchema.safeParse(error?.code);
  if (code.success && typeof error?.message === "string") return errorInfo(code.data, error.message);
  const errors = Array.isArray(message.errors)
    ? message.errors.filter((each): each is string => typeof each === "string")
    : [];
  return errors.length > 0 ? errorInfo("E_TOOL_EXECUTION", errors.join("; ")) : undefined;
}

/** The run's usage from its result line (Claude Code's fields: `usage` and `total_cost_usd`). */
function usageOf(message: Record<string, unknown>): Usage {
  const usage = (message.usage ?? {}) as { input_tokens?: unknown; output_tokens?: unknown };
  const count = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
  const cost = message.total_cost_usd;
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    costUsd: typeof cost === "number" && Number.isFinite(cost) && cost > 0 ? cost : 0,
  };
}

function parseLine(raw: string): Record<string, unknown> | undefined {
  if (raw.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
