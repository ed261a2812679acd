import { errorInfo } from "@lathe/protocol";
import { type SessionFactory, startServer } from "@lathe/server";
import { parseCliArgs } from "./cliArgs.js";
import { setUpEngine } from "./engineSetup.js";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { type CommandIo, parseSubcommand } from "./subcommandArgs.js";
import { loadUserSettings } from "./userSettings.js";

export const serveUsage = `Usage: lathe serve [--port N] [--host HOST]

Starts Lathe's local server: HTTP and WebSocket access to agent sessions, for the web UI and
other clients. Prints the URL to open; it carries a random access token, which every request
must present. Requests from other origins or with a foreign Host header are refused.

Options:
      --port N     port to listen on (default: any free port)
      --host HOST  interface to listen on (default 127.0.0.1: this machine only)
  -h, --help       this help
Stops on Ctrl+C.
`;

const options = { port: { type: "string" }, host: { type: "string" } } as const;

export async function runServeCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "serve", serveUsage, options);
  if (!args.ok) return args.code;
  const port = args.values.port === undefined ? 0 : Number(args.values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return args.misuse("--port must be a number from 0 to 65535");
  const latheHome = latheHomeFrom(io.env);
  const loaded = loadUserSettings(latheHome);
  if (!loaded.ok) {
    io.stderr(`lathe serve: ${loaded.message}\n`);
    return exitCodes.usage;
  }
  const settings = loaded.settings;
  const factory: SessionFactory = {
    async create(request) {
      const flags = ["--cwd", request.projectRoot];
      if (request.model) flags.push("--model", request.model);
      if (request.mode) flags.push("--mode", request.mode);
      if (request.resume) flags.push("--resume", request.resume);
      const parsed = parseCliArgs(flags, io.cwd);
      if (!parsed.ok) return { ok: false, error: errorInfo("E_INVALID_ARGS", parsed.message) };
      const engine = await setUpEngine({
        args: parsed.args,
        settings,
        env: io.env,
        latheHome,
        requestApproval: request.requestApproval,
        askUser: request.askUser,
        warn: (message) => io.stderr(`lathe serve: ${message}\n`),
      });
      if (!engine.ok) return { ok: false, error: engine.error };
      const mode = parsed.args.mode ?? settings.mode;
      return { ok: true, session: engine.session, close: engine.close, ...(mode ? { mode } : {}) };
    },
  };
  const server = await startServer({
    ...(args.values.host ? { host: args.values.host } : {}),
    port,
    factory,
  });
  io.stdout(`Lathe is serving at ${server.url}\n`);
  if (args.values.host && !["127.0.0.1", "localhost", "::1"].includes(args.values.host)) {
    io.stderr(
      "lathe serve: listening beyond this machine; anyone with the URL's token can run the agent here.\n",
    );
  }
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return exitCodes.completed;
}
