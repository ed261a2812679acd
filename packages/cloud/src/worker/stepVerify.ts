import { spawn } from "node:child_process";
import { signalProcessGroup } from "@lathe/core";
import type { StepRecord, TaskRecord, VerifyResult } from "../tasks/taskRecords.js";
import type { StepLog } from "./stepEvents.js";

export interface VerifyRequest {
  latheCommand: string;
  command: string;
  cwd: string;
  approvalMode: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/** The pipeline's coder is checked by the project's own command after it writes. */
export function checksItsWork(task: TaskRecord, step: StepRecord): boolean {
  const verify = task.pipeline?.verify;
  return (
    verify !== undefined &&
    verify.trim() !== "" &&
    step.purpose === "work" &&
    step.agent?.name === task.pipeline?.coder
  );
}

/** Runs the task's check after a coding step and says how it went in the task's log. */
export async function verifyCodingStep(
  request: Omit<VerifyRequest, "command" | "approvalMode"> & { task: TaskRecord; log: StepLog },
): Promise<VerifyResult> {
  const command = request.task.pipeline?.verify ?? "";
  const result = await runVerify({ ...request, command, approvalMode: request.task.approvalMode });
  const lastLine = result.output.trim().split("\n").pop() ?? "";
  request.log({
    kind: "verify",
    level: result.passed ? "info" : "warn",
    message: `check \`${command}\` ${result.passed ? "passed" : `failed${result.exitCode === null ? "" : ` (exit ${result.exitCode})`}`}${lastLine === "" ? "" : `: ${lastLine.slice(0, 200)}`}`,
    data: result,
  });
  return result;
}

/** The end of a check's output kept with the step (the reviewer and `show` see it). */
const keptOutput = 8_000;

/**
 * The project's own check, run in the step's checkout as `lathe tool run_terminal_cmd`: the same
 * command analysis, policy and sandbox as a command the model runs, under the task's approval
 * mode. Nobody can approve here, so a check the policy would ask about fails, and says why.
 */
export function runVerify(request: VerifyRequest): Promise<VerifyResult> {
  return new Promise((resolve) => {
    const child = spawn(
      request.latheCommand,
      [
        "tool",
        "run_terminal_cmd",
        `--args=${JSON.stringify({ command: request.command })}`,
        `--cwd=${request.cwd}`,
        `--approval-mode=${request.approvalMode}`,
      ],
      { cwd: request.cwd, env: request.env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-keptOutput);
    });
    const onAbort = () => {
      if (child.pid !== undefined) signalProcessGroup(child.pid, "SIGKILL");
    };
    request.signal.addEventListener("abort", onAbort, { once: true });
    const failed = (output: string): VerifyResult => ({
      command: request.command,
      passed: false,
      exitCode: null,
      output: output.slice(-keptOutput),
    });
    child.on("error", (error) => {
      request.signal.removeEventListener("abort", onAbort);
      resolve(failed(`lathe tool could not be started: ${error.message}`));
    });
    child.on("close", () => {
      request.signal.removeEventListener("abort", onAbort);
      if (request.signal.aborted) return resolve(failed("The check was stopped with its step."));
      resolve(verdictOf(request.command, stdout, stderr));
    });
  });
}

function verdictOf(command: string, stdout: string, stderr: string): VerifyResult {
  let line: {
    ok?: unknown;
    output?: unknown;
    metadata?: { exitCode?: unknown };
    error?: { code?: unknown; message?: unknown };
  };
  try {
    line = JSON.parse(stdout.trim().split("\n").pop() ?? "");
  } catch {
    return { command, passed: false, exitCode: null, output: (stderr || stdout).slice(-keptOutput) };
  }
  if (line.ok !== true) {
    const code = typeof line.error?.code === "string" ? line.error.code : "E_TOOL_EXECUTION";
    const message = typeof line.error?.message === "string" ? line.error.message : "the check did not run";
    return { command, passed: false, exitCode: null, output: `${message} [${code}]` };
  }
  const exitCode = typeof line.metadata?.exitCode === "number" ? line.metadata.exitCode : null;
  const output = typeof line.output === "string" ? line.output : "";
  return { command, passed: exitCode === 0, exitCode, output: output.slice(-keptOutput) };
}
