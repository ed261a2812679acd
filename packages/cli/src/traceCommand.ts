import { parseArgs } from "node:util";
import { formatSpanTree } from "@lathe/core";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { projectRootFrom } from "./projectRoot.js";
import { openSessionStore, sessionFor } from "./sessionDatabase.js";
import type { CommandIo } from "./sessionsCommand.js";

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
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(io.argv);
  } catch (error) {
    io.stderr(`lathe trace: ${error instanceof Error ? error.message : error}\n\n${traceUsage}`);
    return exitCodes.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(traceUsage);
    return exitCodes.completed;
  }
  const projectRoot = projectRootFrom(values.cwd ?? io.cwd);
  if (!projectRoot.ok) {
    io.stderr(`lathe trace: ${projectRoot.error.message}\n`);
    return exitCodes.usage;
  }
  const opened = openSessionStore(latheHomeFrom(io.env), io.env);
  if (!opened.ok) {
    io.stderr(`lathe trace: ${opened.error.message} [${opened.error.code}]\n`);
    return exitCodes.error;
  }
  const store = opened.value;
  try {
    const ref = positionals[0];
    const found = sessionFor(store, ref, projectRoot.path);
    if (!found.ok) {
      io.stderr(`lathe trace: ${found.error.message} [${found.error.code}]\n`);
      return exitCodes.error;
    }
    const session = found.value;
    const spans = store.spans(session.id);
    if (values.json) {
      io.stdout(`${JSON.stringify(spans)}\n`);
      return exitCodes.completed;
    }
    io.stdout(`Session ${session.id}  ${session.title || "(untitled)"}\n`);
    io.stdout(spans.length === 0 ? "No spans recorded.\n" : `${formatSpanTree(spans)}\n`);
    return exitCodes.completed;
  } finally {
    store.close();
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      cwd: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
