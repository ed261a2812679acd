import { type AgentSession, redactDeep } from "@lathe/core";
import type { OutputFormat } from "./cliArgs.js";
import { exitCodeFor } from "./exitCodes.js";
import { streamJsonOutput } from "./output/streamJsonOutput.js";
import { textOutput } from "./output/textOutput.js";

export interface HeadlessInputs {
  session: AgentSession;
  prompt: string;
  outputFormat: OutputFormat;
  cwd: string;
  modelId: string;
  mode: string;
  toolNames: string[];
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
            mode: inputs.mode,
            tools: inputs.toolNames,
            version: inputs.version,
          },
          stdout,
        )
      : undefined;
  const text = inputs.outputFormat === "text" ? textOutput(session, { out: stdout, err: stderr }) : undefined;
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
  const durationMs = Math.round(performance.now() - started);
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
          },
          session.redact,
        ),
      )}\n`,
    );
  }
  return exitCodeFor(result);
}
