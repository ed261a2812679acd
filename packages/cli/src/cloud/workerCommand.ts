import { join } from "node:path";
import type { ParseArgsOptionsConfig } from "node:util";
import { startCloudWorker } from "@lathe/cloud";
import { exitCodes } from "../exitCodes.js";
import { latheHomeFrom } from "../latheHome.js";
import { type CommandIo, parseSubcommand } from "../subcommandArgs.js";
import { databaseUrlFor, deviceIdFor, latheBinary } from "./cloudConnection.js";
import { failed } from "./cloudContext.js";

export const workerUsage = `Usage: lathe worker [options]

Claims the steps of cloud tasks from the task database and runs each in its own checkout (a clone
of the task's repository at its ref) with this machine's engine, policy, sandbox and provider
keys. A step the policy asks about waits for \`lathe cloud answer\` from any device. A step that
must run on this device (submitted with --on-device, or a pipeline's on_device step) is claimed
only by a worker with this device's id, and runs only after its user consents here
(\`lathe cloud answer ID --allow\`, or Run here in the web UI's Cloud tab). SIGTERM or
Ctrl+C: no new step is claimed, the steps in hand get --grace seconds to finish, the rest go back
to the queue for another worker.

Options:
      --database URL         the task database (default: LATHE_DATABASE_URL, then \`cloud up\`'s)
      --concurrency N        steps at a time (default 1)
      --device ID            this worker's id (default: this machine's, from $LATHE_HOME/cloud)
      --label L              a label for this worker (repeatable)
      --device-only          run this device's own steps only, none of the fleet's
      --grace SECONDS        on SIGTERM, how long running steps may take to finish (default 30)
  -h, --help                 this help
Exit codes: 0 stopped, 1 could not start (a coded error), 2 misuse.
`;

const workerOptions = {
  database: { type: "string" },
  concurrency: { type: "string" },
  device: { type: "string" },
  label: { type: "string", multiple: true },
  grace: { type: "string" },
  "device-only": { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

/** `lathe worker`: runs until SIGTERM or SIGINT. */
export async function runWorkerCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "worker", workerUsage, workerOptions);
  if (!args.ok) return args.code;
  if (args.positionals.length > 0) return args.misuse(`unexpected argument "${args.positionals[0]}"`);
  const concurrency = Number(args.values.concurrency ?? "1");
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    return args.misuse("--concurrency takes a whole number from 1 to 64");
  const grace = Number(args.values.grace ?? "30");
  if (!Number.isFinite(grace) || grace < 0) return args.misuse("--grace takes a number of seconds");
  const latheHome = latheHomeFrom(io.env);
  const deviceId = await deviceIdFor(args.values.device, latheHome);
  const started = await startCloudWorker({
    url: await databaseUrlFor(args.values.database, io.env, latheHome),
    deviceId,
    labels: args.values.label ?? [],
    concurrency,
    deviceOnly: args.values["device-only"] === true,
    latheCommand: latheBinary(),
    checkoutRoot: join(latheHome, "worktrees", deviceId),
    env: { ...io.env },
    report: (line) => io.stderr(`lathe worker: ${line}\n`),
  });
  if (!started.ok) return failed(io, started.error, "worker");
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      io.stderr(`lathe worker: ${signal}: finishing the steps in hand (at most ${grace} s)\n`);
      void started.worker.stop(grace * 1000).then(resolve);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  io.stderr("lathe worker: stopped\n");
  return exitCodes.completed;
}
