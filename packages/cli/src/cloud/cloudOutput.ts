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
  if (task.branch !== null) lines.push(`  branch    ${task.branch}`);
  if (task.patch !== null)
    lines.push(`  patch     ${patchSummary(task.patch)} (lathe cloud apply ${task.id.slice(0, 8)})`);
  lines.push("", "Steps:");
  for (const step of steps) {
    const where = step.workerId === null ? "" : ` on ${step.workerId}`;
    const attempt = step.attempt > 0 ? `, attempt ${step.attempt + 1}` : "";
    lines.push(`  ${step.index + 1}. ${step.name}: ${step.status}${where}${attempt}${errorText(step.error)}`);
    const question = step.question as { tool?: string; reason?: string } | null;
    if (step.status === "needs_input" && question !== null) {
      lines.push(`     waiting: allow ${question.tool ?? "?"}? ${question.reason ?? ""}`);
      lines.push(`     answer with: lathe cloud answer ${task.id.slice(0, 8)} --allow | --deny`);
    }
  }
  return `${lines.join("\n")}\n`;
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
