import {
  answerTask,
  cancelTask,
  findTask,
  listTasks,
  openCloudDatabase,
  readSteps,
  registerDevice,
  retryTask,
  startPrivateCluster,
  startStepQueue,
  stopPrivateCluster,
  type TaskStatus,
} from "@lathe/cloud";
import { cloudTaskStatusSchema, type LatheErrorInfo } from "@lathe/protocol";
import type { PgBoss } from "pg-boss";
import { exitCodes } from "../exitCodes.js";
import { latheHomeFrom } from "../latheHome.js";
import { type CommandIo, parseSubcommand } from "../subcommandArgs.js";
import { applyTask } from "./cloudApply.js";
import { databaseUrlFor, deviceIdFor } from "./cloudConnection.js";
import { type CloudArgs, type CloudContext, cloudOptions, failed } from "./cloudContext.js";
import { followEvents } from "./cloudFollow.js";
import { taskDetails, taskTable } from "./cloudOutput.js";
import { runHere, submitCloudTask } from "./cloudSubmit.js";

export const cloudUsage = `Usage: lathe cloud <command> [options]

Tasks for a fleet of \`lathe worker\`s sharing a PostgreSQL database. Each task runs in its own
checkout on a worker, with the same engine, policy and sandbox as a local run, and delivers a
branch and a patch. Provider keys stay with each worker; none is stored in the database.

Commands:
  up                       start a private PostgreSQL for this machine (under $LATHE_HOME) and
                           print its URL; commands here use it when no other is given
  down                     stop it
  submit "TASK"            queue a task (the router says where it belongs, and why); with
                           --pipeline it runs as agent steps, with --attempts as best-of-N
  list                     tasks, newest first
  show ID                  a task, its steps and its result
  watch ID                 follow a task's log live until it ends (exit 0 completed, 1 failed,
                           4 cancelled)
  logs ID                  a task's log so far
  cancel ID                stop a task; a running step's processes are killed on its worker
  retry ID                 run a failed or cancelled task again
  answer ID --allow|--deny answer the approval a paused task waits for, or consent (on this
                           device only) to one of its steps running here
  apply ID                 apply the task's patch to this project, after a checkpoint (with
                           --attempt K, attempt K's)

ID is a task id or a unique prefix of one (list prints 8 characters).

Options:
      --database URL         the task database (default: LATHE_DATABASE_URL, then \`cloud up\`'s)
      --device ID            this device's id (default: made once, in $LATHE_HOME/cloud)
      --repo URL|PATH        submit: an https:// or file:// URL the workers clone, or a local
                             repository sent as a git bundle (default: this project)
      --ref REF              submit: the branch, tag or commit to start from (default: HEAD)
      --step "STEP"          submit: a further step (repeatable), run after the one before it,
                             starting from its changes
      --pipeline NAME        submit: run as a pipeline of agents: default (planner → researcher?
                             → coder → reviewer → documenter?), quick (coder → reviewer), or one
                             of a trusted project's .lathe/pipelines/*.md
      --attempts N           submit: best-of-N: N coding attempts side by side (1–8), each
                             checked by --verify, the ones that pass ranked by the reviewer
      --verify "COMMAND"     submit: the project's own check after each coding step (tests,
                             build, lint), run sandboxed under the task's approval mode
      --on-device STEP       submit: a step (by name: coder, task…) that runs on this device
                             only, after you consent here (repeatable; needs \`lathe worker\` here)
      --max-tokens N         submit: end the task once it has used N tokens
      --max-cost USD         submit: end the task once it has cost this much
      --max-time SECONDS     submit: end the task once it has run this long
      --priority N           submit: higher runs first (default 0)
      --timeout SECONDS      submit: per step (default 3600)
      --retries N            submit: retries of a failed step, with backoff (default 2)
      --model PROVIDER:MODEL submit: the model (default: each worker's)
      --approval-mode MODE   submit: manual, ask_first, auto_edit (default) or auto; what the
                             policy asks about waits for \`answer\`
      --local | --cloud      submit: override the router (--local runs the task here, now)
      --bundle-cap MB        submit: the largest bundle sent (default 50)
      --allow | --deny       answer: the decision
      --message TEXT         answer: the reason given to the model with a refusal
      --step N               answer: the step whose question it is (default: the first waiting)
      --after-seq N          watch, logs: only events after this sequence number
      --status STATUS        list: only tasks in this status
      --limit N              list: at most N tasks (default 50)
      --attempt K            apply: best-of-N attempt K's patch rather than the best one's
      --cwd DIR              apply: the project (default: the current directory)
      --json                 print JSON
  -h, --help                 this help
Exit codes: 0 done, 1 failed (a coded error: the database, the task, the repository), 2 misuse.
`;

/** The statuses `--status` takes: the task database's, as the wire names them too. */
const statuses: readonly TaskStatus[] = cloudTaskStatusSchema.options;

/** `lathe cloud …`. Returns the exit code. */
export async function runCloudCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "cloud", cloudUsage, cloudOptions);
  if (!args.ok) return args.code;
  const [command, ...rest] = args.positionals;
  if (command === undefined) return args.misuse("a command is required");
  const latheHome = latheHomeFrom(io.env);
  if (command === "up") return clusterUp(io, args, latheHome);
  if (command === "down") return clusterDown(io, args, latheHome);
  const known = ["submit", "list", "show", "watch", "logs", "cancel", "retry", "answer", "apply"];
  if (!known.includes(command)) return args.misuse(`unknown command "${command}"`);
  const needsId = command !== "submit" && command !== "list";
  if (needsId && rest[0] === undefined) return args.misuse(`${command} needs a task id`);
  if (command === "submit" && rest.join(" ").trim() === "")
    return args.misuse("submit needs the task, in quotes");
  if (command === "answer" && args.values.allow === args.values.deny)
    return args.misuse("answer needs --allow or --deny");
  if (args.values.status !== undefined && !statuses.includes(args.values.status as TaskStatus))
    return args.misuse(`--status is one of ${statuses.join(", ")}`);
  if (command === "submit" && args.values.local) {
    if (args.values.cloud) return args.misuse("--local and --cloud exclude each other");
    return runHere(io, args, rest.join(" "));
  }
  const url = await databaseUrlFor(args.values.database, io.env, latheHome);
  const opened = await openCloudDatabase(url);
  if (!opened.ok) return failed(io, opened.error);
  const database = opened.database;
  const deviceId = await deviceIdFor(args.values.device, latheHome);
  let boss: PgBoss | undefined;
  const context: CloudContext = {
    io,
    args,
    latheHome,
    deviceId,
    database,
    queue: async () => {
      boss ??= await startStepQueue({ url: database.url, supervise: false, maxConnections: 2 });
      return boss;
    },
  };
  try {
    await registerDevice(database.pool, { id: deviceId, kind: "client", labels: [] });
    if (command === "submit") return await submitCloudTask(context, rest.join(" "));
    if (command === "list") return await list(context);
    const found = await findTask(database.pool, rest[0] ?? "");
    if (!found.ok) return failed(io, found.error);
    const task = found.value;
    switch (command) {
      case "show": {
        const steps = await readSteps(database.pool, task.id);
        io.stdout(args.values.json ? `${JSON.stringify({ ...task, steps })}\n` : taskDetails(task, steps));
        return exitCodes.completed;
      }
      case "watch":
      case "logs":
        return await followEvents(context, task, command === "watch");
      case "cancel":
        return report(
          context,
          await cancelTask(database.pool, await context.queue(), task.id, context.deviceId),
          "cancelled",
        );
      case "retry":
        return report(
          context,
          await retryTask(database.pool, await context.queue(), task.id, context.deviceId),
          "queued again",
        );
      case "answer": {
        const step = args.values.step?.[0];
        const stepNumber = step === undefined ? undefined : Number(step);
        if (stepNumber !== undefined && (!Number.isInteger(stepNumber) || stepNumber < 1))
          return args.misuse("--step takes a step number (1 is the first)");
        const answered = await answerTask(
          database.pool,
          task.id,
          { allow: args.values.allow === true, message: args.values.message },
          context.deviceId,
          stepNumber === undefined ? undefined : stepNumber - 1,
        );
        if (!answered.ok) return failed(io, answered.error);
        io.stdout(
          args.values.json
            ? `${JSON.stringify(answered.value)}\n`
            : `Task ${task.id.slice(0, 8)} step ${answered.value.index + 1}: ${args.values.allow ? "allowed" : "refused"}.\n`,
        );
        return exitCodes.completed;
      }
      default:
        return await applyTask(context, task);
    }
  } finally {
    await boss?.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
    await database.close();
  }
}

async function list(context: CloudContext): Promise<number> {
  const { values } = context.args;
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    return context.args.misuse("--limit takes a positive whole number");
  const tasks = await listTasks(context.database.pool, {
    status: values.status as TaskStatus | undefined,
    limit,
  });
  context.io.stdout(values.json ? `${JSON.stringify(tasks)}\n` : `${taskTable(tasks)}\n`);
  return exitCodes.completed;
}

function report(
  context: CloudContext,
  outcome: { ok: true; value: { id: string; status: string } } | { ok: false; error: LatheErrorInfo },
  done: string,
): number {
  if (!outcome.ok) return failed(context.io, outcome.error);
  context.io.stdout(
    context.args.values.json
      ? `${JSON.stringify(outcome.value)}\n`
      : `Task ${outcome.value.id.slice(0, 8)} ${done} (${outcome.value.status}).\n`,
  );
  return exitCodes.completed;
}

async function clusterUp(io: CommandIo, args: CloudArgs, latheHome: string): Promise<number> {
  const started = await startPrivateCluster(latheHome);
  if (!started.ok) return failed(io, started.error);
  const { state } = started;
  if (args.values.json) {
    io.stdout(
      `${JSON.stringify({ url: state.url, port: state.port, started: started.started, created: started.created })}\n`,
    );
    return exitCodes.completed;
  }
  const what = started.created ? "created and started" : started.started ? "started" : "already running";
  io.stderr(`PostgreSQL for Lathe ${what} on 127.0.0.1:${state.port} (data in ${state.folder}).\n`);
  io.stdout(`${state.url}\n`);
  return exitCodes.completed;
}

async function clusterDown(io: CommandIo, args: CloudArgs, latheHome: string): Promise<number> {
  const stopped = await stopPrivateCluster(latheHome);
  if (!stopped.ok) return failed(io, stopped.error);
  if (args.values.json) io.stdout(`${JSON.stringify({ stopped: stopped.wasRunning })}\n`);
  else
    io.stdout(
      stopped.wasRunning ? "PostgreSQL for Lathe stopped.\n" : "PostgreSQL for Lathe was not running.\n",
    );
  return exitCodes.completed;
}
