import { formatSpanTree } from "@lathe/core";
import { exitCodes } from "./exitCodes.js";
import { reportFailure, sessionFor, withSessionStore } from "./sessionDatabase.js";
import { type CommandIo, parseSubcommand } from "./subcommandArgs.js";

export const traceUsage = `Usage: lathe trace [SESSION] [options]

Prints the spans of a session's runs as a tree with timings, tokens and cost:
run → turn → llm_call / tool_call / approval. SESSION is a session id or prefix
(default: the latest session of this project). Traces are also written as JSON lines
to $LATHE_HOME/traces/SESSION.jsonl, and sent over OTLP when telemetry.otlpEndpoint is set.

Options:
      --cwd DIR              project directory (default: the current directory)
      --json                 print the spans as JSON
  -h, --help                 this help
`;

export async function runTraceCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "trace", traceUsage, {});
  if (!args.ok) return args.code;
  return withSessionStore(io, "trace", (store) => {
    const found = sessionFor(store, args.positionals[0], args.projectRoot);
    if (!found.ok) return reportFailure(io, "trace", found.error);
    const session = found.value;
    const spans = store.spans(session.id);
    if (args.values.json) {
      io.stdout(`${JSON.stringify(spans)}\n`);
      return exitCodes.completed;
    }
    io.stdout(`Session ${session.id}  ${session.title || "(untitled)"}\n`);
    io.stdout(spans.length === 0 ? "No spans recorded.\n" : `${formatSpanTree(spans)}\n`);
    return exitCodes.completed;
  });
}
