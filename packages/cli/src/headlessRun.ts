import { type AgentSession, redactDeep } from "@lathe/core";
import type { OutputFormat } from "./cliArgs.js";
import { exitCodeFor } from "./exitCodes.js";
import { followToolRounds } from "./finalToolRound.js";
import { streamJsonOutput } from "./output/streamJsonOutput.js";
import { textOutput } from "./output/textOutput.js";

export interface HeadlessInputs {
  session: AgentSession;
  prompt: string;
  outputFormat: OutputFormat;
  cwd: string;
  modelId: string;
  version: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs one task to the end and returns the process exit code. The first Ctrl+C cancels the run. */
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
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const result = await session.send(inputs.prompt);
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  stopWatchingPlan();
  const durationMs = Math.round(performance.now() - started);
  const exitCode = exitCodeFor(result, rounds.finalRound(result.runId));
  stream?.finish(result, durationMs);
  text?.finish(result);
  if (inputs.outputFormat === "json") {
    stdout(
      `${JSON.stringify(
        redactDeep(
          {
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
