import { StringDecoder } from "node:string_decoder";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { type CallSandbox, sandboxForCall } from "../../../policy/sandbox/sandboxPlan.js";
import type { SandboxLaunch } from "../../../policy/sandbox/sandboxTypes.js";
import { processGroupAlive, signalProcessGroup } from "../../../processes/processGroup.js";
import { spawnShell } from "../../../processes/shellProcess.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import {
  describeStatus,
  formatTerminalOutput,
  stillRunning,
  terminalUsageHint,
} from "../../terminals/terminalReport.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { assessCommand } from "./commandAssessment.js";
import { sandboxDenialOf, sandboxMetadata } from "./sandboxReport.js";
import { StreamCapture } from "./streamCapture.js";

const defaultTimeoutMs = 120_000;
const maxTimeoutMs = 600_000;
const maxStreamBytes = 1024 * 1024;
/** Between SIGTERM and SIGKILL: time for the command to clean up after itself. */
const killGraceMs = 2000;
/**
 * After bash exits, how long to wait for its output pipes to close. Processes it left in the
 * background keep them open; their later output is not waited for.
 */
const drainGraceMs = 500;
/** How long a background start waits for first output, or for a command that ends at once. */
const backgroundStartWaitMs = 1000;

const runTerminalCmdSchema = builtinToolSchema("run_terminal_cmd", () =>
  z.object({
    command: z.string().min(1),
    working_directory: z.string().min(1).optional(),
    timeout_ms: z.number().int().min(1).max(maxTimeoutMs).optional(),
    is_background: z.boolean().optional(),
    explanation: z.string().optional().describe("One sentence, shown to the user."),
  }),
);

type RunTerminalCmdArgs = z.infer<typeof runTerminalCmdSchema>;

export const runTerminalCmdTool = defineTool({
  name: "run_terminal_cmd",
  description: toolPrompt(assetUrl("tools/builtin/runTerminalCmd/runTerminalCmd.md")),
  schema: runTerminalCmdSchema,
  kind: "execute",
  // The scheduler uses `assess`; `risk` answers for callers that need a synchronous guess.
  risk: () => "high",
  assess: (args, ctx) => assessCommand(args.command, ctx),
  // A safety net above the command's own timeout, which kills it and keeps its output.
  timeoutMs: maxTimeoutMs + 3 * killGraceMs,
  truncation: "head_tail",
  execute: runTerminalCmd,
});

type Ending = (
  | { kind: "exited"; code: number | null; signal: NodeJS.Signals | null }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "spawn_failed"; message: string }
) & { sandboxNote?: string };

async function runTerminalCmd(args: RunTerminalCmdArgs, ctx: ToolContext): Promise<ToolResult> {
  const cwd = await resolveWorkingDirectory(args.working_directory, ctx);
  if (!cwd.ok) return { ok: false, error: cwd.error };
  if (ctx.signal.aborted) {
    return { ok: false, error: errorInfo("E_CANCELLED", "Cancelled before the command started.") };
  }
  const sandbox = sandboxForCall(ctx.sandbox, ctx);
  if (sandbox.kind === "refused") return { ok: false, error: sandbox.error };
  if (args.is_background === true) return startInBackground(args.command, cwd.path, ctx, sandbox);

  const timeoutMs = args.timeout_ms ?? defaultTimeoutMs;
  const startedAt = Date.now();
  const stdout = new StreamCapture(maxStreamBytes);
  const stderr = new StreamCapture(maxStreamBytes);
  const launch = sandbox.kind === "sandboxed" ? sandbox.launch : undefined;
  const ending = await runCommand(args.command, cwd.path, timeoutMs, ctx, { stdout, stderr }, launch);
  const durationMs = Date.now() - startedAt;

  if (ending.kind === "spawn_failed") {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `Could not start bash: ${ending.message}`) };
  }
  const stdoutText = stdout.text("stdout");
  const stderrText = stderr.text("stderr");
  const output = withNote(formatOutput(describeEnding(ending, timeoutMs), stdoutText, stderrText), ending);
  if (ending.kind === "timeout") {
    const message = `The command did not finish within ${timeoutMs} ms and was killed with everything it started.`;
    return { ok: false, error: errorInfo("E_COMMAND_TIMEOUT", message), output };
  }
  if (ending.kind === "cancelled") {
    return { ok: false, error: errorInfo("E_CANCELLED", "The command was cancelled and killed."), output };
  }
  const denial = sandboxDenialOf(sandbox, ending.code, { stdout: stdoutText, stderr: stderrText });
  return {
    ok: true,
    output: denial === undefined ? output : `${output}\n${denial}`,
    metadata: {
      exitCode: ending.code,
      signal: ending.signal,
      durationMs,
      stdoutBytes: stdout.totalBytes,
      stderrBytes: stderr.totalBytes,
      ...sandboxMetadata(sandbox, denial !== undefined),
    },
  };
}

/**
 * Starts the command in the session's background terminals and returns its id with what it
 * printed in its first moments (or its whole run, when it ends at once).
 */
async function startInBackground(
  command: string,
  cwd: string,
  ctx: ToolContext,
  sandbox: Exclude<CallSandbox, { kind: "refused" }>,
): Promise<ToolResult> {
  const launch = sandbox.kind === "sandboxed" ? sandbox.launch : undefined;
  const started = await ctx.terminals.start(command, cwd, {
    sandbox: launch,
    passEnvironment: ctx.passEnvironment,
  });
  if (!started.ok) return { ok: false, error: started.error };
  const { id, pid } = started.terminal;
  await ctx.terminals.waitForEnd(id, backgroundStartWaitMs, ctx.signal);
  if (ctx.signal.aborted) {
    // The model never learns the id of a cancelled call, so nobody could stop the command later.
    await ctx.terminals.kill(id);
    return { ok: false, error: errorInfo("E_CANCELLED", "Cancelled; the background command was killed.") };
  }
  const first = ctx.terminals.read(id, { sinceLast: true });
  if (first === undefined) {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `Background command ${id} was lost.`) };
  }
  const headline = `Started in the background as ${id} (pid ${pid}); ${describeStatus(first)}.`;
  const report = formatTerminalOutput(first, headline, "(no output yet)");
  // A command that ended at once may have been stopped by the sandbox, like a foreground one.
  const exitCode = first.status.state === "exited" ? first.status.code : null;
  const denial = sandboxDenialOf(sandbox, exitCode, { stdout: first.stdout.text, stderr: first.stderr.text });
  const lines = [report];
  if (stillRunning(first)) lines.push(terminalUsageHint(id));
  if (denial !== undefined) lines.push(denial);
  return {
    ok: true,
    output: lines.join("\n"),
    metadata: {
      terminalId: id,
      pid,
      status: first.status,
      ...sandboxMetadata(sandbox, denial !== undefined),
    },
  };
}

async function resolveWorkingDirectory(
  requested: string | undefined,
  ctx: ToolContext,
): Promise<{ ok: true; path: string } | { ok: false; error: LatheErrorInfo }> {
  if (requested === undefined) return { ok: true, path: ctx.projectRoot };
  const guarded = await resolveProjectPath(ctx.projectRoot, requested);
  if (!guarded.ok) return guarded;
  const stats = await statIfExists(guarded.path);
  if (stats === undefined) {
    const message = `working_directory ${guarded.relative} does not exist.`;
    return { ok: false, error: errorInfo("E_FILE_NOT_FOUND", message) };
  }
  if (!stats.isDirectory()) {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `working_directory ${guarded.relative} is not a directory.`),
    };
  }
  return { ok: true, path: guarded.path };
}

/**
 * Runs bash in its own process group, so a timeout or cancel can kill the command with every
 * process it started, and settles when the command has ended and its output is collected.
 */
function runCommand(
  command: string,
  cwd: string,
  timeoutMs: number,
  ctx: ToolContext,
  captures: { stdout: StreamCapture; stderr: StreamCapture },
  sandbox: SandboxLaunch | undefined,
): Promise<Ending> {
  return new Promise((resolve) => {
    const child = spawnShell(command, cwd, sandbox, { passEnvironment: ctx.passEnvironment });
    const timers: NodeJS.Timeout[] = [];
    let killTimer: NodeJS.Timeout | undefined;
    let stopReason: "timeout" | "cancelled" | undefined;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

    const settle = (ending: Ending) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      // A process that ignored SIGTERM still gets its SIGKILL after we return; but once the group
      // is gone its id may be reused, so the pending SIGKILL must not go out.
      if (killTimer !== undefined && (child.pid === undefined || !processGroupAlive(child.pid))) {
        clearTimeout(killTimer);
      }
      resolve(child.sandboxNote === undefined ? ending : { ...ending, sandboxNote: child.sandboxNote });
    };
    const endingFromExit = (): Ending => {
      if (stopReason === "timeout") return { kind: "timeout" };
      if (stopReason === "cancelled") return { kind: "cancelled" };
      return { kind: "exited", code: exit?.code ?? null, signal: exit?.signal ?? null };
    };
    const stop = (reason: "timeout" | "cancelled") => {
      if (settled || stopReason !== undefined) return;
      stopReason = reason;
      const pid = child.pid;
      if (pid === undefined) return;
      signalProcessGroup(pid, "SIGTERM");
      killTimer = setTimeout(() => signalProcessGroup(pid, "SIGKILL"), killGraceMs);
      // Something that left the group may hold the pipes open forever; do not wait for it.
      timers.push(setTimeout(() => settle(endingFromExit()), killGraceMs + drainGraceMs));
    };
    const onAbort = () => stop("cancelled");

    forwardStream(child.stdout, "stdout", captures.stdout, ctx);
    forwardStream(child.stderr, "stderr", captures.stderr, ctx);
    child.on("error", (error) => settle({ kind: "spawn_failed", message: error.message }));
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      if (stopReason === undefined) timers.push(setTimeout(() => settle(endingFromExit()), drainGraceMs));
    });
    child.on("close", (code, signal) => {
      exit ??= { code, signal };
      settle(endingFromExit());
    });
    timers.push(setTimeout(() => stop("timeout"), timeoutMs));
    ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
}

function forwardStream(
  stream: NodeJS.ReadableStream,
  name: "stdout" | "stderr",
  capture: StreamCapture,
  ctx: ToolContext,
): void {
  const decoder = new StringDecoder("utf8");
  stream.on("data", (chunk: Buffer) => {
    const wasFull = capture.full;
    capture.push(chunk);
    if (!wasFull) {
      const text = decoder.write(chunk);
      if (text !== "") ctx.emitOutput(name, text);
      if (capture.full) ctx.emitOutput(name, `\n[live ${name} stops here: over ${capture.maxBytes} bytes]\n`);
    }
  });
}

function describeEnding(ending: Exclude<Ending, { kind: "spawn_failed" }>, timeoutMs: number): string {
  if (ending.kind === "timeout") return `Killed after timing out (${timeoutMs} ms); output so far:`;
  if (ending.kind === "cancelled") return "Killed on cancel; output so far:";
  if (ending.code !== null) return `Exit code: ${ending.code}`;
  return `Terminated by signal ${ending.signal ?? "unknown"}`;
}

/** What the sandbox undid after the command, for the model to see beside its output. */
function withNote(output: string, ending: Ending): string {
  return ending.sandboxNote === undefined ? output : `${output}\n${ending.sandboxNote}`;
}

function formatOutput(status: string, stdout: string, stderr: string): string {
  const sections = [status];
  if (stdout !== "") sections.push("--- stdout ---", stdout.replace(/\n$/, ""));
  if (stderr !== "") sections.push("--- stderr ---", stderr.replace(/\n$/, ""));
  if (stdout === "" && stderr === "") sections.push("(no output)");
  return sections.join("\n");
}
