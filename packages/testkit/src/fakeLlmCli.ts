import { parseArgs } from "node:util";
import { loadFakeScript, type ScriptedTurn } from "./fakeLlm/script.js";
import { type FakeLlm, startFakeLlm } from "./fakeLlm/server.js";

export const fakeLlmUsage = `usage: lathe-fake-llm --script FILE [--port N] [--record FILE]

A scripted model server speaking the OpenAI, Anthropic and Gemini wire protocols over HTTP.
Each model request consumes the next turn of the script. Prints "listening http://127.0.0.1:PORT"
as its first line, then serves until SIGINT or SIGTERM.

  --script FILE   JSON script {"turns": [...]} (see packages/testkit/README.md)
  --port N        port to listen on (default: any free port)
  --record FILE   append every request body to FILE as one JSON line
  --help          print this help
`;

const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function parsePort(text: string | undefined): number | undefined | Error {
  if (text === undefined) return undefined;
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535)
    return new Error(`--port must be a number from 0 to 65535, not "${text}"`);
  return port;
}

function untilSignalled(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Runs the command; resolves with the exit code once the server has been stopped. */
export async function runFakeLlmCommand(argv: string[]): Promise<number> {
  const usageError = (message: string) => {
    process.stderr.write(`lathe-fake-llm: ${message}\n\n${fakeLlmUsage}`);
    return exitCodes.usage;
  };
  let values: { script?: string; port?: string; record?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        script: { type: "string" },
        port: { type: "string" },
        record: { type: "string" },
        help: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return usageError(errorMessage(error));
  }
  if (values.help) {
    process.stdout.write(fakeLlmUsage);
    return exitCodes.ok;
  }
  if (values.script === undefined) return usageError("--script FILE is required");
  const port = parsePort(values.port);
  if (port instanceof Error) return usageError(port.message);

  let turns: ScriptedTurn[];
  try {
    turns = await loadFakeScript(values.script);
  } catch (error) {
    // The message names the file and the bad turn; the usage text would only bury it.
    process.stderr.write(`${errorMessage(error)}\n`);
    return exitCodes.usage;
  }
  let server: FakeLlm;
  try {
    server = await startFakeLlm({ script: { turns }, port, recordFile: values.record });
  } catch (error) {
    process.stderr.write(`lathe-fake-llm: cannot listen: ${errorMessage(error)}\n`);
    return exitCodes.failed;
  }
  // Handlers first: whoever reads the line may signal at once.
  const signalled = untilSignalled();
  process.stdout.write(`listening ${server.url}\n`);
  await signalled;
  await server.close();
  return exitCodes.ok;
}
