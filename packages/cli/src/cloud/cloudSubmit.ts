import { spawn } from "node:child_process";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createRepositoryBundle,
  defaultBundleCapBytes,
  routeTask,
  type StepPlan,
  sensitiveFilesIn,
  submitTask,
  trackedFiles,
  uncommittedChanges,
} from "@lathe/cloud";
import { approvalModeSchema } from "@lathe/core";
import { exitCodes } from "../exitCodes.js";
import type { CommandIo } from "../subcommandArgs.js";
import { ownerFor } from "./cloudConnection.js";
import { type CloudArgs, type CloudContext, failed } from "./cloudContext.js";

/** `lathe cloud submit "TASK"`: routed, then queued (or, with --local, run here). */
export async function submitCloudTask(context: CloudContext, prompt: string): Promise<number> {
  const { io, args } = context;
  const { values } = args;
  const numbers = {
    priority: wholeNumber(values.priority, 0, -1000, 1000),
    timeout: wholeNumber(values.timeout, 3600, 1, 7 * 24 * 3600),
    retries: wholeNumber(values.retries, 2, 0, 20),
    bundleCap: wholeNumber(values["bundle-cap"], defaultBundleCapBytes / (1024 * 1024), 1, 2048),
  };
  for (const [name, value] of Object.entries(numbers))
    if (value === undefined)
      return args.misuse(`--${name === "bundleCap" ? "bundle-cap" : name} is out of range`);
  const approvalMode = values["approval-mode"] ?? "auto_edit";
  if (!approvalModeSchema.safeParse(approvalMode).success || approvalMode === "yolo")
    return args.misuse("--approval-mode is manual, ask_first, auto_edit or auto");
  const repo = values.repo ?? args.projectRoot;
  const byUrl = /^(https|file):\/\//.test(repo);
  const repoPath = byUrl ? undefined : isAbsolute(repo) ? repo : resolve(io.cwd, repo);
  let sensitive: string[] = [];
  if (repoPath !== undefined) {
    const files = await trackedFiles(repoPath);
    if (!files.ok) return failed(io, files.error);
    sensitive = sensitiveFilesIn(files.files);
  }
  const route = routeTask({
    prompt,
    override: values.local ? "local" : values.cloud ? "cloud" : undefined,
    cloudReachable: true,
    sensitiveFiles: sensitive,
  });
  if (route.target === "local") {
    io.stderr(
      `lathe cloud: not sent. ${route.reason}\n  Run it here with \`lathe cloud submit --local "…"\` (or lathe -p), or send it anyway with --cloud.\n`,
    );
    return exitCodes.usage;
  }
  let bundle: Buffer | undefined;
  let ref = values.ref;
  if (repoPath !== undefined) {
    const made = await createRepositoryBundle({
      projectDir: repoPath,
      ref: values.ref,
      capBytes: (numbers.bundleCap ?? 50) * 1024 * 1024,
    });
    if (!made.ok) return failed(io, made.error);
    bundle = made.bundle;
    ref = made.commit;
    const pending = await uncommittedChanges(repoPath);
    if (pending.length > 0)
      io.stderr(
        `lathe cloud: ${pending.length} uncommitted change(s) stay here (the workers get the last commit): ${pending.slice(0, 3).join(", ")}${pending.length > 3 ? ", …" : ""}\n`,
      );
  }
  const steps: StepPlan[] = [prompt, ...(values.step ?? [])].map((text, index) => ({
    name: index === 0 ? "task" : `step ${index + 1}`,
    prompt: text,
    dependsOn: index === 0 ? [] : [index - 1],
  }));
  const task = await submitTask(context.database.pool, await context.queue(), {
    owner: ownerFor(io.env),
    deviceId: context.deviceId,
    prompt,
    steps,
    repoUrl: byUrl ? repo : undefined,
    ref,
    bundle,
    model: values.model,
    approvalMode,
    priority: numbers.priority ?? 0,
    timeoutSeconds: numbers.timeout ?? 3600,
    maxRetries: numbers.retries ?? 2,
    route,
  });
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ id: task.id, status: task.status, route: task.route, reason: task.routeReason })}\n`,
    );
  } else {
    io.stderr(
      `Queued for the fleet (${route.target}: ${route.reason}). Follow it with: lathe cloud watch ${task.id.slice(0, 8)}\n`,
    );
    io.stdout(`${task.id}\n`);
  }
  return exitCodes.completed;
}

/**
 * --local: the task as a headless run in this terminal, on this machine's engine, in the project
 * (or the --repo path); no task database is needed for it.
 */
export function runHere(io: CommandIo, args: CloudArgs, prompt: string): Promise<number> {
  const lathe = fileURLToPath(new URL("../../bin/lathe", import.meta.url));
  const { values } = args;
  const cwd =
    values.repo !== undefined && !/^(https|file):\/\//.test(values.repo)
      ? resolve(io.cwd, values.repo)
      : args.projectRoot;
  const extra = [
    ...(values.model === undefined ? [] : [`--model=${values.model}`]),
    ...(values["approval-mode"] === undefined ? [] : [`--approval-mode=${values["approval-mode"]}`]),
  ];
  return new Promise((done) => {
    const child = spawn(lathe, ["-p", prompt, `--cwd=${cwd}`, ...extra], { stdio: "inherit" });
    child.on("error", () => done(exitCodes.error));
    child.on("close", (code) => done(code ?? exitCodes.error));
  });
}

function wholeNumber(
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number | undefined {
  if (text === undefined) return fallback;
  const value = Number(text);
  return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}
