import type { StepRecord, TaskEvent, TaskRecord } from "@lathe/cloud";
import { table } from "../textTable.js";

/** One event as `watch` and `logs` print it: time, sequence, step, what happened. */
export function eventLine(event: TaskEvent): string {
  const time = event.createdAt.toISOString().slice(11, 19);
  const step = event.stepIndex === null ? "      " : `step ${String(event.stepIndex + 1).padEnd(2)}`;
  const mark = event.level === "error" ? "✗ " : event.level === "warn" ? "! " : "";
  const [first = "", ...rest] = event.message.split("\n");
  const indent = " ".repeat(time.length + 20);
  return [
    `${time}  #${String(event.seq).padEnd(5)} ${step}  ${mark}${first}`,
    ...rest.map((line) => `${indent}${line}`),
  ].join("\n");
}

export function taskTable(tasks: readonly TaskRecord[]): string {
  if (tasks.length === 0) return "No tasks.";
  const rows = tasks.map((task) => [
    task.id.slice(0, 8),
    task.status,
    String(task.priority),
    age(task.createdAt),
    task.title,
  ]);
  return table([["ID", "STATUS", "PRIORITY", "AGE", "TASK"], ...rows], [2]);
}

export function taskDetails(task: TaskRecord, steps: readonly StepRecord[]): string {
  const lines = [
    `Task ${task.id}`,
    `  status    ${task.status}${errorText(task.error)}`,
    `  title     ${task.title}`,
    `  route     ${task.route} (${task.routeReason})`,
    `  source    ${task.hasBundle ? "bundle of a local repository" : (task.repoUrl ?? "-")}${task.ref ? ` @ ${task.ref}` : ""}`,
    `  owner     ${task.owner} from ${task.deviceId}`,
    `  priority  ${task.priority}, timeout ${task.timeoutSeconds} s, retries ${task.maxRetries}`,
    `  created   ${task.createdAt.toISOString()}`,
  ];
  if (task.pipeline !== null) lines.push(`  pipeline  ${pipelineLine(task)}`);
  lines.push(`  usage     ${usageLine(task)}`);
  if (task.branch !== null) lines.push(`  branch    ${task.branch}`);
  if (task.patch !== null)
    lines.push(`  patch     ${patchSummary(task.patch)} (lathe cloud apply ${task.id.slice(0, 8)})`);
  lines.push("", "Steps:");
  for (const step of steps) lines.push(...stepLines(task, step));
  if (task.attempts > 1) lines.push("", ...attemptComparison(task, steps));
  return `${lines.join("\n")}\n`;
}

function pipelineLine(task: TaskRecord): string {
  const pipeline = task.pipeline;
  if (pipeline === null) return "-";
  const chain = pipeline.steps.map((step) => `${step.agent.name}${step.optional ? "?" : ""}`).join(" → ");
  const verify = pipeline.verify === undefined ? "no check" : `check: ${pipeline.verify}`;
  return `${pipeline.name}: ${chain} (${verify}; send-backs ${task.sendBacks} of ${pipeline.maxSendBacks}${task.attempts > 1 ? `; ${task.attempts} attempts` : ""})`;
}

function usageLine(task: TaskRecord): string {
  const { usage, budget } = task;
  const tokens = usage.inputTokens + usage.outputTokens;
  const used = `${tokens.toLocaleString("en-US")} tokens, $${usage.costUsd.toFixed(4)}`;
  if (budget === null) return used;
  const limits = [
    budget.tokens === undefined ? undefined : `${budget.tokens.toLocaleString("en-US")} tokens`,
    budget.costUsd === undefined ? undefined : `$${budget.costUsd.toFixed(2)}`,
    budget.seconds === undefined ? undefined : `${budget.seconds} s`,
  ].filter((limit) => limit !== undefined);
  return `${used} (budget: ${limits.join(", ")})`;
}

function stepLines(task: TaskRecord, step: StepRecord): string[] {
  const where = step.workerId === null ? "" : ` on ${step.workerId}`;
  const attempt = step.attempt > 0 ? `, run ${step.attempt + 1}` : "";
  const lines = [
    `  ${step.index + 1}. ${step.name}: ${step.status}${where}${attempt}${errorText(step.error)}`,
  ];
  const id = task.id.slice(0, 8);
  if (step.runsOn !== null && (step.status === "queued" || step.status === "waiting"))
    lines.push(`     held for device ${step.runsOn}: it runs there after its user consents`);
  if (step.verify !== null)
    lines.push(
      `     check \`${step.verify.command}\` ${step.verify.passed ? "passed" : `failed${step.verify.exitCode === null ? "" : ` (exit ${step.verify.exitCode})`}`}`,
    );
  if (step.verdict !== null && step.verdict.decision !== "rank")
    lines.push(
      `     verdict: ${step.verdict.decision}${step.verdict.assumed ? " (assumed: no verdict line)" : ""}`,
    );
  if (step.sentBackBy !== null) lines.push(`     sent back by step ${step.sentBackBy + 1}`);
  const question = step.question as { kind?: string; tool?: string; reason?: string; device?: string } | null;
  if (step.status === "needs_input" && question !== null) {
    if (question.kind === "run_here") {
      lines.push(`     waiting for consent to run on device ${question.device ?? step.runsOn ?? "?"}`);
      lines.push(`     on that device: lathe cloud answer ${id} --allow | --deny`);
    } else {
      lines.push(`     waiting: allow ${question.tool ?? "?"}? ${question.reason ?? ""}`);
      lines.push(`     answer with: lathe cloud answer ${id} --allow | --deny`);
    }
  }
  return lines;
}

/** Best-of-N side by side: each attempt's check, changes and place in the ranking. */
function attemptComparison(task: TaskRecord, steps: readonly StepRecord[]): string[] {
  const latest = new Map<number, StepRecord>();
  for (const step of steps) if (step.attemptNo !== null) latest.set(step.attemptNo, step);
  const order = task.ranking?.order ?? [];
  const rejected = new Map((task.ranking?.rejected ?? []).map((each) => [each.attempt, each.reason]));
  const rows = [...latest.entries()]
    .sort(([a], [b]) => a - b)
    .map(([attempt, step]) => {
      const place = order.indexOf(attempt);
      const check =
        step.verify === null
          ? step.status === "completed"
            ? "no check"
            : step.status
          : step.verify.passed
            ? "passed"
            : "failed";
      return [
        `#${attempt}`,
        check,
        step.taskPatch === null ? "-" : patchSummary(step.taskPatch),
        place === -1 ? (rejected.has(attempt) ? "rejected" : "-") : String(place + 1),
        step.workerId ?? "-",
      ];
    });
  const lines = ["Attempts:", table([["ATTEMPT", "CHECK", "CHANGES", "RANK", "WORKER"], ...rows], [])];
  for (const [attempt, reason] of rejected) lines.push(`  #${attempt} rejected: ${reason}`);
  if (task.ranking !== null && task.ranking.reason.trim() !== "")
    lines.push(`  ranking: ${task.ranking.reason.trim().split("\n")[0]}`);
  if (order.length > 0)
    lines.push(
      `  apply one with: lathe cloud apply ${task.id.slice(0, 8)} --attempt N (default: #${order[0]})`,
    );
  return lines;
}

/** `3 files, +12 −4`. */
export function patchSummary(patch: string): string {
  if (patch === "") return "no changes";
  const files = (patch.match(/^diff --git /gm) ?? []).length;
  const added = (patch.match(/^\+(?!\+\+ )/gm) ?? []).length;
  const removed = (patch.match(/^-(?!-- )/gm) ?? []).length;
  return `${files} file${files === 1 ? "" : "s"}, +${added} −${removed}`;
}

function errorText(error: unknown): string {
  const info = error as { code?: string; message?: string } | null;
  if (info === null || info === undefined || typeof info.message !== "string") return "";
  return `: ${info.message}${info.code ? ` [${info.code}]` : ""}`;
}

function age(date: Date): string {
  const seconds = Math.max(0, Math.round((Date.now() - date.getTime()) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
