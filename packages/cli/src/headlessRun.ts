import { type AgentSession, redactDeep } from "@lathe/core";
import { resultSubtype } from "./agentSdk/sdkMessages.js";
import type { OutputFormat } from "./cliArgs.js";
import { exitCodeFor } from "./exitCodes.js";
import { followToolRounds } from "./finalToolRound.js";
import type { ClosableOutput } from "./output/closableOutput.js";
import { streamJsonOutput } from "./output/streamJsonOutput.js";
import { textOutput } from "./output/textOutput.js";

export interface HeadlessInputs {
  session: AgentSession;
  prompt: string;
  outputFormat: OutputFormat;
  /** stream-json: the model's stream as `stream_event` lines too. */
  includePartialMessages?: boolean;
  /** The MCP servers and their state, for stream-json's init line. */
  mcpServers?: { name: string; status: string }[];
  cwd: string;
  modelId: string;
  version: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Where `stdout` writes: when its reader goes away, the run is cancelled as by Ctrl+C. */
  stdoutState: Pick<ClosableOutput, "closed" | "onClose">;
}

/**
 * Runs one task to the end and returns the process exit code. The first Ctrl+C cancels the run,
 * and so does a stdout closed under it (`| head`): nobody reads the rest, and a run that goes on
 * would keep editing the project and paying for the model unwatched.
 */
export async function runHeadless(inputs: HeadlessInputs): Promise<number> {
  const { session, stdout, stderr } = inputs;
  const started = performance.now();
  const stream =
    inputs.outputFormat === "stream-json"
      ? streamJsonOutput(
          {
            session,
            cwd: inputs.cwd,
            model: inputs.modelId,
            version: inputs.version,
            includePartialMessages: inputs.includePartialMessages,
            mcpServers: inputs.mcpServers,
          },
          stdout,
        )
      : undefined;
  const text =
    inputs.outputFormat === "text"
      ? textOutput(session, { out: stdout, err: stderr }, inputs.cwd)
      : undefined;
  let plan: { path: string; title: string } | undefined;
  const stopWatchingPlan = session.subscribe((event) => {
    if (event.type === "plan_saved") plan = { path: event.path, title: event.title };
  });
  const rounds = followToolRounds(session);
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    session.cancel();
  };
  // A closed terminal (SIGHUP) stops the run as Ctrl+C does: its commands run in process groups
  // of their own, which the hang-up does not reach.
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const signal of signals) process.on(signal, onSignal);
  const stopWatchingStdout = inputs.stdoutState.onClose(() => session.cancel());
  const running = session.send(inputs.prompt);
  // The init line may already have found stdout closed: the run has only just been registered.
  if (inputs.stdoutState.closed) session.cancel();
  const result = await running;
  stopWatchingStdout();
  for (const signal of signals) process.off(signal, onSignal);
  stopWatchingPlan();
  const durationMs = Math.round(performance.now() - started);
  const exitCode = exitCodeFor(result, rounds.finalRound(result.runId));
  stream?.finish(result, durationMs);
  stream?.close();
  text?.finish(result);
  if (inputs.outputFormat === "json") {
    stdout(
      `${JSON.stringify(
        redactDeep(
          {
            type: "result",
            subtype: resultSubtype(result),
            is_error: result.status !== "completed",
            result: result.final,
            num_turns: result.iterations,
            total_cost_usd: result.usage.costUsd,
            status: result.status,
            iterations: result.iterations,
            final: result.final,
            usage: result.usage,
            cost_usd: result.usage.costUsd,
            session_usage: session.usage,
            session_id: session.id,
            duration_ms: durationMs,
            error: result.error,
            plan,
          },
          session.redact,
        ),
      )}\n`,
    );
  }
  return exitCode;
}
