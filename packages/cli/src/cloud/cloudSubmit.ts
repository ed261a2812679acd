import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { defaultBundleCapBytes, submitTask, type TaskBudget } from "@lathe/cloud";
import { approvalModeSchema } from "@lathe/core";
import { exitCodes } from "../exitCodes.js";
import type { CommandIo } from "../subcommandArgs.js";
import { latheBinary, ownerFor } from "./cloudConnection.js";
import { type CloudArgs, type CloudContext, failed } from "./cloudContext.js";
import { pipelineForTask } from "./pipelineChoice.js";
import { prepareTask, taskDefaults } from "./taskPreparation.js";

/** `lathe cloud submit "TASK"`: routed, then queued (or, with --local, run here). */
export async function submitCloudTask(context: CloudContext, prompt: string): Promise<number> {
  const { io, args } = context;
  const { values } = args;
  const numbers = {
    priority: wholeNumber(values.priority, taskDefaults.priority, -1000, 1000),
    timeout: wholeNumber(values.timeout, taskDefaults.timeoutSeconds, 1, 7 * 24 * 3600),
    retries: wholeNumber(values.retries, taskDefaults.maxRetries, 0, 20),
    bundleCap: wholeNumber(values["bundle-cap"], defaultBundleCapBytes / (1024 * 1024), 1, 2048),
    attempts: wholeNumber(values.attempts, 1, 1, 8),
  };
  for (const [name, value] of Object.entries(numbers))
    if (value === undefined)
      return args.misuse(`--${name === "bundleCap" ? "bundle-cap" : name} is out of range`);
  const approvalMode = values["approval-mode"] ?? "auto_edit";
  if (!approvalModeSchema.safeParse(approvalMode).success || approvalMode === "yolo")
    return args.misuse("--approval-mode is manual, ask_first, auto_edit or auto");
  const budget = budgetFrom(values);
  if (typeof budget === "string") return args.misuse(budget);
  const attempts = numbers.attempts ?? 1;
  const chosen = await pipelineForTask({
    projectRoot: args.projectRoot,
    latheHome: context.latheHome,
    pipeline: values.pipeline,
    attempts,
    verify: values.verify,
  });
  if (!chosen.ok) return failed(io, chosen.error);
  const { pipeline } = chosen;
  if (pipeline !== undefined && (values.step ?? []).length > 0)
    return args.misuse("--step makes a plain task; a pipeline's steps come from the pipeline");
  for (const notice of chosen.notices) io.stderr(`lathe cloud: ${notice}\n`);
  const prepared = await prepareTask(
    {
      prompt,
      projectRoot: args.projectRoot,
      repo:
        values.repo === undefined || /^(https|file):\/\//.test(values.repo)
          ? values.repo
          : resolve(io.cwd, values.repo),
      ref: values.ref,
      steps: values.step,
      model: values.model,
      approvalMode,
      priority: numbers.priority ?? taskDefaults.priority,
      timeoutSeconds: numbers.timeout ?? taskDefaults.timeoutSeconds,
      maxRetries: numbers.retries ?? taskDefaults.maxRetries,
      bundleCapBytes: (numbers.bundleCap ?? 50) * 1024 * 1024,
      forceCloud: values.cloud === true,
      pipeline,
      attempts,
      budget,
      onDevice: values["on-device"],
    },
    { owner: ownerFor(io.env), deviceId: context.deviceId },
  );
  if (!prepared.ok && "local" in prepared) {
    io.stderr(
      `lathe cloud: not sent. ${prepared.local}\n  Run it here with \`lathe cloud submit --local "…"\` (or lathe -p), or send it anyway with --cloud.\n`,
    );
    return exitCodes.usage;
  }
  if (!prepared.ok) return failed(io, prepared.error);
  for (const notice of prepared.notices) io.stderr(`lathe cloud: ${notice}\n`);
  const submitted = await submitTask(context.database.pool, await context.queue(), prepared.submission);
  if (!submitted.ok) return failed(io, submitted.error);
  const task = submitted.value;
  const route = prepared.submission.route;
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

/** --max-tokens, --max-cost (USD) and --max-time (seconds): a budget, or what is wrong with it. */
function budgetFrom(values: CloudArgs["values"]): TaskBudget | undefined | string {
  const budget: TaskBudget = {};
  if (values["max-tokens"] !== undefined) {
    const tokens = Number(values["max-tokens"]);
    if (!Number.isInteger(tokens) || tokens < 1) return "--max-tokens takes a positive whole number";
    budget.tokens = tokens;
  }
  if (values["max-cost"] !== undefined) {
    const cost = Number(values["max-cost"]);
    if (!Number.isFinite(cost) || cost <= 0) return "--max-cost takes a positive number of US dollars";
    budget.costUsd = cost;
  }
  if (values["max-time"] !== undefined) {
    const seconds = Number(values["max-time"]);
    if (!Number.isInteger(seconds) || seconds < 1)
      return "--max-time takes a positive whole number of seconds";
    budget.seconds = seconds;
  }
  return Object.keys(budget).length === 0 ? undefined : budget;
}

/**
 * --local: the task as a headless run in this terminal, on this machine's engine, in the project
 * (or the --repo path); no task database is needed for it.
 */
export function runHere(io: CommandIo, args: CloudArgs, prompt: string): Promise<number> {
  const lathe = latheBinary();
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
