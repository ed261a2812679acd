import { startServer } from "@lathe/server";
import { cliVersion } from "./cliVersion.js";
import { cloudServices } from "./cloud/cloudServices.js";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { serveServices } from "./serveServices.js";
import { serveSessionFactory } from "./serveSessionFactory.js";
import { type CommandIo, parseSubcommand } from "./subcommandArgs.js";
import { loadUserSettings } from "./userSettings.js";
import { webUiDirectory } from "./webUiDirectory.js";

export const serveUsage = `Usage: lathe serve [--port N] [--host HOST] [--cwd DIR]

Starts Lathe's local server: HTTP and WebSocket access to agent sessions, for the web UI and
other clients, and the web UI itself. Prints the URL to open; it carries a random access token,
which every request must present. Requests from other origins or with a foreign Host header are
refused.

The web UI's Cloud tab submits, follows, answers and applies tasks of the task database
(LATHE_DATABASE_URL, else the one \`lathe cloud up\` started); it opens the database on first use,
and from then on runs this device's own steps (\`--on-device\`), each after you click Run here.

Options:
      --port N     port to listen on (default: any free port)
      --host HOST  interface to listen on (default 127.0.0.1: this machine only)
      --cwd DIR    the project the web UI offers first (default: the current directory)
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
  // Sessions read the settings as they open; broken ones are reported now rather than then.
  const loaded = loadUserSettings(latheHome);
  if (!loaded.ok) {
    io.stderr(`lathe serve: ${loaded.message}\n`);
    return exitCodes.usage;
  }
  // The task database is opened by the Cloud tab's first request, and kept until the server stops;
  // from then on the server also runs this device's own steps, each after Run here.
  const cloud = cloudServices({
    latheHome,
    env: io.env,
    report: (line) => io.stderr(`lathe serve: ${line}\n`),
  });
  const services = {
    ...serveServices({ latheHome, env: io.env, version: cliVersion, cwd: args.projectRoot }),
    cloud,
  };
  const staticDir = webUiDirectory();
  const server = await startServer({
    // An empty --host is no host: the server keeps to 127.0.0.1.
    host: args.values.host || undefined,
    port,
    factory: serveSessionFactory(io, latheHome),
    services,
    staticDir,
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
  await cloud.close();
  return exitCodes.completed;
}
